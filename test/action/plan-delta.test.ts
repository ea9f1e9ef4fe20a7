// The plan fingerprint kept in the comment and the plan-to-plan difference, as pure functions.
import { deflateRawSync } from 'node:zlib';
import { describe, expect, it } from 'vitest';
import { diffPlanStates, renderDelta } from '../../src/action/plan-delta.ts';
import { extractState, extractStateLine, planState, stateFor, type JsonPlan, type JsonPlanResource } from '../../src/action/plan-state.ts';

const change = (path: string, value: unknown, op = 'add') => ({ path, op, old: null, new: value, sensitive: false, known_after_apply: false });

function jsonPlan(resources: JsonPlanResource[]): JsonPlan {
  return { format_version: 1, stack: 's', summary: { create: 0, update: 0, replace: 0, delete: 0 }, resources, warnings: [] };
}

const before = jsonPlan([
  { address: 'IPPolicy/office', action: 'create', changes: [change('/description', 'office')] },
  { address: 'IPPolicyRule/v4', action: 'update', changes: [change('/description', 'a', 'replace'), change('/metadata/ticket', 'T-1')] },
  { address: 'IPPolicyRule/v6', action: 'create', changes: [change('/cidr', '2001:db8::/48')] },
  { address: 'TCPEdge/ssh', action: 'update', changes: [change('/description', 'ssh', 'replace')] },
]);
const after = jsonPlan([
  { address: 'IPPolicy/office', action: 'create', changes: [change('/description', 'office')] },
  { address: 'IPPolicyRule/v4', action: 'update', changes: [change('/description', 'b', 'replace'), change('/labels/app', 'x')] },
  { address: 'TCPEdge/ssh', action: 'replace', changes: [change('/description', 'ssh', 'replace')] },
  { address: 'TunnelGroupBackend/api', action: 'create', changes: [change('/labels', { app: 'api' })] },
]);

describe('plan state', () => {
  it('round-trips through the hidden comment line, which holds no readable value', () => {
    const state = planState(after, 'abc1234def');
    const line = stateFor(after, 'abc1234def', Infinity)!;
    expect(line).toMatch(/^<!-- edgeops-plan-state:[A-Za-z0-9+/=]+ -->$/);
    expect(line).not.toContain('office');
    const body = `<!-- edgeops-plan:s -->\nplan\n${line}\n`;
    expect(extractState(body)).toEqual(state);
    expect(extractStateLine(body)).toBe(line);
  });

  it('reads nothing from a missing, edited or hostile state', () => {
    expect(extractState('no state here')).toBeUndefined();
    expect(extractState('<!-- edgeops-plan-state:bm90IGRlZmxhdGVk -->')).toBeUndefined();
    const wrongShape = deflateRawSync(Buffer.from(JSON.stringify({ v: 1, resources: { a: 'create' } }))).toString('base64');
    expect(extractState(`<!-- edgeops-plan-state:${wrongShape} -->`)).toBeUndefined();
    // A valid state padded to 64 MiB deflates to a few KiB: the reader refuses to inflate all of it.
    const bomb = deflateRawSync(Buffer.from(`{"v":1,"resources":{},"pad":"${'a'.repeat(64 * 1024 * 1024)}"}`)).toString('base64');
    expect(bomb.length).toBeLessThan(200_000);
    expect(extractState(`<!-- edgeops-plan-state:${bomb} -->`)).toBeUndefined();
  });

  it('falls back to one hash per resource, then to none, as the budget shrinks', () => {
    const full = stateFor(after, 'sha', Infinity)!;
    expect(extractState(full)).toEqual(planState(after, 'sha'));
    expect(stateFor(after, 'sha', full.length)).toBe(full);
    const compact = stateFor(after, 'sha', full.length - 1)!;
    expect(compact).toBeDefined();
    expect(compact.length).toBeLessThan(full.length);
    expect(extractState(compact)).toEqual(planState(after, 'sha', true));
    expect(stateFor(after, 'sha', compact.length - 1)).toBeUndefined();
  });
});

describe('plan delta', () => {
  it('classifies added, no longer planned and changed resources, with field detail', () => {
    const delta = diffPlanStates(planState(before, 'old'), planState(after, 'new'));
    expect(delta).toEqual({
      added: [{ address: 'TunnelGroupBackend/api', action: 'create' }],
      removed: [{ address: 'IPPolicyRule/v6', before: 'create' }],
      changed: [
        { address: 'IPPolicyRule/v4', action: 'update', before: 'update', fields: [
          { path: '/description', how: 'different' },
          { path: '/labels/app', how: 'new' },
          { path: '/metadata/ticket', how: 'gone' },
        ] },
        { address: 'TCPEdge/ssh', action: 'replace', before: 'update', fields: [] },
      ],
    });
    const text = renderDelta(delta, '0123456789abcdef');
    expect(text).toBe([
      '#### Since the previous plan (`0123456`)',
      '',
      '1 added, 1 no longer planned, 2 changed.',
      '',
      '- **added** `TunnelGroupBackend/api`: create',
      '- **no longer planned** `IPPolicyRule/v6` (was create)',
      '- **changed** `IPPolicyRule/v4`: update; `description` (different value), `labels.app` (newly changed), `metadata.ticket` (no longer changed)',
      '- **changed** `TCPEdge/ssh`: replace (was update)',
      '',
    ].join('\n'));
  });

  it('a compact state and a full one of the same plan are equal', () => {
    expect(diffPlanStates(planState(after, 'a', true), planState(after, 'b'))).toEqual({ added: [], removed: [], changed: [] });
    expect(diffPlanStates(planState(after, 'a'), planState(after, 'b', true))).toEqual({ added: [], removed: [], changed: [] });
    const delta = diffPlanStates(planState(before, 'a', true), planState(after, 'b'));
    expect(delta.changed.map((c) => [c.address, c.fields])).toEqual([['IPPolicyRule/v4', []], ['TCPEdge/ssh', []]]);
  });

  it('says so when nothing changed, and caps a long list', () => {
    expect(renderDelta(diffPlanStates(planState(after, 'a'), planState(after, 'b')), 'a')).toContain('No difference');
    const many = jsonPlan(Array.from({ length: 120 }, (_, i) => ({ address: `IPPolicy/p-${i}`, action: 'create', changes: [] })));
    const text = renderDelta(diffPlanStates(planState(jsonPlan([]), undefined), planState(many, undefined)), undefined, 50);
    expect(text.startsWith('#### Since the previous plan\n\n120 added, 0 no longer planned, 0 changed.')).toBe(true);
    expect(text.match(/^- \*\*added\*\*/gm)).toHaveLength(50);
    expect(text).toContain('- ... and 70 more');
  });
});
