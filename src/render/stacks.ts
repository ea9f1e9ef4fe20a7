// What `edgeops stacks` prints: a table of the stack roots (directory, stack, environment, what it runs after,
// how many files it is made of, and with --changed-since whether it changed), or the JSON the GitHub Action and
// scripts read: `{"stacks": [{dir, stack, environment, after, inputs, changed, removed}]}`, sorted by directory.

/** One entry of `stacks --format json`. */
export interface StackEntry {
  dir: string;
  stack: string;
  environment: string | null;
  after: string[];
  inputs: string[];
  /** null without --changed-since. */
  changed: boolean | null;
  removed: boolean;
}

function stacksText(stacks: readonly StackEntry[], compared: boolean): string {
  if (stacks.length === 0) return 'No stack root (a directory with an edgeops.yaml) under these paths.\n';
  const header = ['DIRECTORY', 'STACK', 'ENVIRONMENT', 'AFTER', 'INPUTS', ...(compared ? ['CHANGED'] : [])];
  const rows = stacks.map((s) => [
    s.dir,
    s.stack,
    s.environment ?? '-',
    s.after.length === 0 ? '-' : s.after.join(', '),
    s.removed ? '-' : String(s.inputs.length),
    ...(compared ? [s.removed ? 'removed' : s.changed ? 'yes' : 'no'] : []),
  ]);
  const widths = header.map((h, i) => Math.max(h.length, ...rows.map((r) => r[i]!.length)));
  const line = (cells: string[]): string => cells.map((c, i) => (i === cells.length - 1 ? c : c.padEnd(widths[i]!))).join('  ');
  return `${[header, ...rows].map(line).join('\n')}\n`;
}

const stacksJson = (stacks: readonly StackEntry[]): string => `${JSON.stringify({ stacks }, null, 2)}\n`;

export function renderStacks(stacks: readonly StackEntry[], format: 'text' | 'json', compared: boolean): string {
  return format === 'json' ? stacksJson(stacks) : stacksText(stacks, compared);
}
