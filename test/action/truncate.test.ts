// truncate.ts as a unit, on Markdown from the CLI's own renderer: plans far over the limit keep the heading,
// the summary table and the first whole resources, count the rest, and never pass the limit.
import { describe, expect, it } from 'vitest';
import type { Action, Plan } from '../../src/engine/plan-data.ts';
import { VIEWS } from '../../src/render/views.ts';
import { COMMENT_LIMIT, truncatePlanMarkdown } from '../../src/action/truncate.ts';

const markdown = VIEWS.markdown({ color: false });

function plan(count: number, description: (i: number) => string = (i) => `rule ${i}: one of the many office ranges`, warnings: string[] = []): Plan {
  const actions: Action[] = Array.from({ length: count }, (_, i) => ({
    id: `create:IPPolicyRule/r-${i}`,
    op: 'create',
    kind: 'IPPolicyRule',
    name: `r-${i}`,
    address: `IPPolicyRule/r-${i}`,
    changes: [
      { path: '/description', kind: 'add', new: description(i) },
      { path: '/cidr', kind: 'add', new: `10.${i >> 8}.${i & 255}.0/24` },
      { path: '/ip_policy_id', kind: 'add', new: { $ref: 'IPPolicy/office' }, knownAfterApply: true },
    ],
    dependsOn: [],
  }));
  return { stack: 'big', actions, summary: { create: count, update: 0, replace: 0, delete: 0 }, warnings };
}

const headers = (text: string): string[] => text.match(/^\+ IPPolicyRule\/r-\d+$/gm) ?? [];

describe('truncatePlanMarkdown', () => {
  it('leaves a plan that fits exactly as it is', () => {
    const md = markdown.plan(plan(5));
    expect(truncatePlanMarkdown(md, COMMENT_LIMIT)).toEqual({ text: md, total: 5, shown: 5, omitted: 0, omittedText: '' });
  });

  it('keeps the first resources in order, counts the rest, and stays under the limit', () => {
    const md = markdown.plan(plan(2000));
    expect(md.length).toBeGreaterThan(COMMENT_LIMIT * 3);
    const cut = truncatePlanMarkdown(md, COMMENT_LIMIT, { fullPlanAt: 'the [job summary](https://example/run)' });
    expect(cut.text.length).toBeLessThanOrEqual(COMMENT_LIMIT);
    expect(cut.total).toBe(2000);
    expect(cut.shown).toBeGreaterThan(100);
    expect(cut.shown + cut.omitted).toBe(2000);
    expect(headers(cut.text)).toEqual(Array.from({ length: cut.shown }, (_, i) => `+ IPPolicyRule/r-${i}`));
    // Whole resources only: the last kept one has all three of its lines.
    expect(cut.text).toContain(`+ IPPolicyRule/r-${cut.shown - 1}\n+     description: "rule ${cut.shown - 1}: one of the many office ranges"\n+     cidr:`);
    expect(cut.text).toContain('| 2000 | 0 | 0 | 0 |');
    expect(cut.text).toContain(`# ... ${cut.omitted} more resources not shown (${cut.omitted.toLocaleString('en-US')} creates)\n\`\`\`\n`);
    expect(cut.text).toContain(`> **${cut.omitted} of 2000 resources are not shown here** (${cut.omitted.toLocaleString('en-US')} creates) to stay under GitHub's 65,536-character limit; deletes and replaces are shown first, then updates, then creates. The full plan is in the [job summary](https://example/run).`);
    expect(cut.text).toContain('Plan: 2000 to create, 0 to update, 0 to replace, 0 to delete.');
    // The fence still opens and closes once.
    expect(cut.text.match(/^```/gm)).toHaveLength(2);
  });

  it('keeps deletes, then replaces, then updates before creates, in the plan\'s order, and says what is left out', () => {
    const big = plan(1200);
    const other = (op: 'delete' | 'update' | 'replace', name: string): Action => ({
      id: `${op}:IPPolicy/${name}`, op, kind: 'IPPolicy', name, address: `IPPolicy/${name}`, liveId: `ipp_${name}`,
      changes: op === 'delete' ? [] : [{ path: '/description', kind: 'replace', old: 'before', new: 'after' }],
      ...(op === 'replace' ? { reason: 'a field that cannot change in place' } : {}),
      dependsOn: [],
    } as Action);
    // The deletes come last in the plan, where cutting from the top dropped them.
    big.actions.push(other('update', 'u-1'), other('replace', 'x-1'), other('delete', 'd-1'), other('delete', 'd-2'));
    big.summary = { create: 1200, update: 1, replace: 1, delete: 2 };
    const cut = truncatePlanMarkdown(markdown.plan(big), COMMENT_LIMIT);
    expect(cut.text.length).toBeLessThanOrEqual(COMMENT_LIMIT);
    expect(cut.text).toMatch(/^- IPPolicy\/d-1\b/m);
    expect(cut.text).toMatch(/^- IPPolicy\/d-2\b/m);
    expect(cut.text).toMatch(/^! -\/\+ IPPolicy\/x-1\b/m);
    expect(cut.text).toMatch(/^! IPPolicy\/u-1\b/m);
    expect(cut.omittedText).toBe(`${cut.omitted.toLocaleString('en-US')} creates`);
    // Shown in the plan's order: the creates kept are the first ones, the others follow them.
    expect(headers(cut.text)).toEqual(Array.from({ length: cut.shown - 4 }, (_, i) => `+ IPPolicyRule/r-${i}`));
    expect(cut.text.indexOf('! IPPolicy/u-1')).toBeLessThan(cut.text.indexOf('- IPPolicy/d-1'));

    // At any size, a resource is shown only when every one of a higher priority is.
    const rank = ['- ', '! -/+ ', '! ', '+ '];
    const rankOf = (line: string) => rank.findIndex((p) => line.startsWith(p));
    const all = markdown.plan(big).split('\n').filter((l) => /^[-+!] \S/.test(l));
    for (const limit of [700, 800, 900, 1_000, 1_200, 5_000]) {
      const shown = new Set(truncatePlanMarkdown(markdown.plan(big), limit).text.split('\n').filter((l) => /^[-+!] \S/.test(l)));
      const lowest = Math.max(-1, ...[...shown].map(rankOf));
      for (const line of all) if (rankOf(line) < lowest) expect(shown.has(line), `${limit}: ${line}`).toBe(true);
    }
  });

  it('measures in bytes when told to (the step summary), with multi-byte text', () => {
    const md = markdown.plan(plan(1500, (i) => `Büro ${i} – Zürich, København, 東京`));
    const limit = 40_000;
    const bytes = (t: string) => Buffer.byteLength(t);
    const cut = truncatePlanMarkdown(md, limit, { measure: bytes });
    expect(bytes(cut.text)).toBeLessThanOrEqual(limit);
    expect(cut.text.length).toBeLessThan(limit);
    expect(cut.omitted).toBeGreaterThan(0);
  });

  it('keeps the first of thousands of warnings, counts the rest, and leaves room for resources', () => {
    const warnings = Array.from({ length: 3000 }, (_, i) => `warning number ${i} about something rather long to read`);
    const md = markdown.plan(plan(300, undefined, warnings));
    const cut = truncatePlanMarkdown(md, COMMENT_LIMIT);
    expect(cut.text.length).toBeLessThanOrEqual(COMMENT_LIMIT);
    expect(cut.shown).toBeGreaterThan(100);
    expect(cut.shown + cut.omitted).toBe(300);
    expect(cut.text).toContain('Plan: 300 to create, 0 to update, 0 to replace, 0 to delete.');
    expect(cut.text).toContain('> **Warning:** warning number 0 about');
    const keptWarnings = cut.text.match(/^> \*\*Warning:\*\*/gm)!.length;
    expect(cut.text).toContain(`> ... ${3000 - keptWarnings} more lines not shown`);
  });

  it('keeps every warning when they fit, cutting resources instead', () => {
    const cut = truncatePlanMarkdown(markdown.plan(plan(2000, undefined, ['deletes 12 resources; max_deletes is 10'])), COMMENT_LIMIT);
    expect(cut.omitted).toBeGreaterThan(0);
    expect(cut.text).toContain('> **Warning:** deletes 12 resources; max\\_deletes is 10');
  });

  it('finds a longer fence (a value holding ```)', () => {
    const md = markdown.plan(plan(1000, (i) => `has \`\`\` in it ${i}`));
    expect(md).toContain('````diff');
    const cut = truncatePlanMarkdown(md, 20_000);
    expect(cut.text.length).toBeLessThanOrEqual(20_000);
    expect(cut.total).toBe(1000);
    expect(cut.text.match(/^````$/gm)).toHaveLength(1);
  });

  it('cuts text without a diff block (a drift table) by whole lines, saying so', () => {
    const table = ['### edgeops drift', '', '| resource | direction |', '|---|---|', ...Array.from({ length: 5000 }, (_, i) => `| \`IPPolicyRule/r-${i}\` | changed |`)].join('\n');
    const cut = truncatePlanMarkdown(table, 10_000, { fullPlanAt: 'the job log' });
    expect(cut.text.length).toBeLessThanOrEqual(10_000);
    expect(cut.text.startsWith('### edgeops drift\n')).toBe(true);
    expect(cut.text).toContain('> **The rest is cut** to stay under the size limit. The full plan is in the job log.');
    expect(cut.text.split('\n').filter((l) => l.startsWith('| `')).every((l) => l.endsWith('| changed |'))).toBe(true);
  });
});
