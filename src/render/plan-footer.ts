// Lines under a plan that are about approving it rather than what it changes: the delete-threshold status and
// the checksum (`apply --checksum` applies only a plan with exactly that meaning).
export interface PlanFooter {
  /** `Deletes: 3 of max 10, within the limits.` (absent when the plan deletes nothing). */
  deletes?: string;
  checksum?: string;
}

const approveHint = (checksum: string): string => `to apply exactly this plan: \`edgeops apply PATH... --checksum ${checksum}\``;

export function renderFooterText(footer: PlanFooter): string {
  const lines: string[] = [];
  if (footer.deletes) lines.push(footer.deletes);
  if (footer.checksum) lines.push(`Checksum: ${footer.checksum} (${approveHint(footer.checksum).replace(/`/g, '')})`);
  return lines.map((l) => `${l}\n`).join('');
}

export function renderFooterMarkdown(footer: PlanFooter): string {
  const lines: string[] = [];
  if (footer.deletes) lines.push(footer.deletes.replace(/([\\`*_[\]<>|])/g, '\\$1'));
  if (footer.checksum) lines.push(`Checksum: \`${footer.checksum}\` (${approveHint(footer.checksum)})`);
  return lines.length > 0 ? `\n${lines.join('  \n')}\n` : '';
}
