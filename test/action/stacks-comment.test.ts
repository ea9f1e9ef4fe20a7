// The comment of several stacks as a unit, on Markdown and JSON plans from the CLI's own renderers: under the
// limit it holds every plan; over it, the table and every delete and replace of every stack stay, and the rest is
// left for the job summary. The hidden record reads back exactly, and a record edited by hand is not trusted.
import { describe, expect, it } from 'vitest';
import type { Action, Plan } from '../../src/engine/plan-data.ts';
import { VIEWS } from '../../src/render/views.ts';
import { buildStacksComment, type StackPlanned } from '../../src/action/stacks-comment.ts';
import { extractStacksRecord, stacksRecordLine } from '../../src/action/stack-record.ts';
import { parseJsonPlan } from '../../src/action/plan-state.ts';
import { COMMENT_LIMIT } from '../../src/action/truncate.ts';

const markdown = VIEWS.markdown({ color: false });
const json = VIEWS.json({ color: false });

const create = (i: number): Action => ({
  id: `create:IPPolicyRule/r-${i}`, op: 'create', kind: 'IPPolicyRule', name: `r-${i}`, address: `IPPolicyRule/r-${i}`,
  changes: [{ path: '/description', kind: 'add', new: `rule ${i}: one of the many office ranges of a large stack` }], dependsOn: [],
} as Action);
const other = (op: 'delete' | 'replace', name: string): Action => ({
  id: `${op}:IPPolicy/${name}`, op, kind: 'IPPolicy', name, address: `IPPolicy/${name}`, liveId: `ipp_${name}`,
  changes: op === 'delete' ? [] : [{ path: '/description', kind: 'replace', old: 'before', new: 'after' }],
  ...(op === 'replace' ? { reason: 'a field that cannot change in place' } : {}),
  dependsOn: [],
} as Action);

function planned(stack: string, dir: string, actions: Action[]): StackPlanned {
  const count = (op: string) => actions.filter((a) => a.op === op).length;
  const plan: Plan = { stack, actions, summary: { create: count('create'), update: 0, replace: count('replace'), delete: count('delete') }, warnings: [] };
  const footer = { checksum: `sha256:${stack === 'a' ? 'a'.repeat(64) : 'b'.repeat(64)}` };
  return {
    outcome: 'planned', dir, stack, environment: null,
    plan: parseJsonPlan(json.plan(plan, footer as never)), markdown: markdown.plan(plan, footer as never),
  };
}

const input = (results: StackPlanned[]) => ({ results, unchanged: [{ dir: 'infra/c', stack: 'c' }], footer: 'edgeops plan', sha: '1'.repeat(40), fullPlanAt: 'the job summary' });

describe('the comment of several stacks', () => {
  it('holds every plan when they fit, and records every stack for the merge', () => {
    const results = [planned('a', 'infra/a', [create(1), other('delete', 'd-1')]), planned('b', 'infra/b', [create(2)])];
    const { body, moved } = buildStacksComment(input(results));
    expect(moved).toBe(false);
    expect(body).toContain('<details open><summary><code>a</code> (<code>infra/a</code>): 1 to create, 1 to delete</summary>');
    expect(body).toContain('<details><summary><code>b</code> (<code>infra/b</code>): 1 to create</summary>');
    expect(body).toContain('+ IPPolicyRule/r-1');
    const record = extractStacksRecord(body)!;
    expect(record).toEqual({
      sha: '1'.repeat(40),
      stacks: [
        { dir: 'infra/a', stack: 'a', checksum: results[0]!.outcome === 'planned' ? results[0]!.plan.checksum : undefined },
        { dir: 'infra/b', stack: 'b', checksum: results[1]!.outcome === 'planned' ? results[1]!.plan.checksum : undefined },
      ],
    });
    expect(record.stacks[0]!.checksum).toMatch(/^sha256:[0-9a-f]{64}$/);
  });

  it('over the limit keeps the table and every delete and replace of every stack, and says where the rest is', () => {
    const manyCreates = Array.from({ length: 1500 }, (_, i) => create(i));
    const results = [
      planned('a', 'infra/a', [...manyCreates, other('delete', 'd-1'), other('replace', 'x-1')]),
      planned('b', 'infra/b', [...manyCreates.slice(0, 800), other('delete', 'd-2')]),
    ];
    const { body, moved } = buildStacksComment(input(results));
    expect(moved).toBe(true);
    expect(body.length).toBeLessThanOrEqual(COMMENT_LIMIT);
    expect(body).toContain('| `a` (`infra/a`) | — | 1500 to create, 1 to replace, 1 to delete |');
    expect(body).toContain('| `b` (`infra/b`) | — | 800 to create, 1 to delete |');
    expect(body).toMatch(/^- IPPolicy\/d-1\b/m);
    expect(body).toMatch(/^- IPPolicy\/d-2\b/m);
    expect(body).toMatch(/^! -\/\+ IPPolicy\/x-1\b/m);
    expect(body).not.toContain('+ IPPolicyRule/r-0');
    expect(body).toContain('> **Updates and creates are in the job summary**');
    expect(body).toContain('1,500 creates');
    expect(extractStacksRecord(body)!.stacks).toHaveLength(2);
  });

  it('trusts no record edited into something it does not write', () => {
    const good = { dir: 'infra/a', stack: 'a', checksum: `sha256:${'c'.repeat(64)}` };
    expect(extractStacksRecord(stacksRecordLine({ stacks: [good] }))).toEqual({ stacks: [good] });
    for (const bad of [{ ...good, checksum: 'sha256:short' }, { ...good, dir: '../outside' }, { ...good, stack: 'Bad Name' }, { ...good, dir: 7 }]) {
      expect(extractStacksRecord(stacksRecordLine({ stacks: [bad as never] }))).toBeUndefined();
    }
    expect(extractStacksRecord('<!-- edgeops-stacks-reviewed:bm90IGpzb24= -->')).toBeUndefined();
  });
});
