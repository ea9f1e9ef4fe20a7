// Which delete-and-create pairs read as a rename: one to one, same kind, equal fields, a kind with a marker.
import { describe, expect, it } from 'vitest';
import type { Action, FieldChange } from '../../src/engine/plan-data.ts';
import { renameHints } from '../../src/engine/rename-hints.ts';
import { KINDS } from '../../src/kinds/index.ts';

const kinds = new Map(KINDS.map((k) => [k.kind, k]));

function action(op: 'create' | 'delete', address: string, fields: Record<string, unknown>, extra: Partial<FieldChange> = {}): Action {
  const [kind, name] = address.split('/') as [string, string];
  const changes: FieldChange[] = Object.entries(fields).map(([field, value]) =>
    (op === 'create' ? { path: `/${field}`, kind: 'add', new: value, ...extra } : { path: `/${field}`, kind: 'remove', old: value, ...extra }) as FieldChange);
  return { id: `${op}:${address}`, op, kind, name, address, changes, dependsOn: [], ...(op === 'delete' ? { liveId: 'ipp_1' } : {}) };
}

describe('renameHints', () => {
  it('pairs a delete and a create of one kind with equal fields', () => {
    const plan = [action('delete', 'IPPolicy/old', { description: 'office' }), action('create', 'IPPolicy/new', { description: 'office' })];
    expect(renameHints(plan, kinds)).toEqual([{ from: 'IPPolicy/old', to: 'IPPolicy/new' }]);
  });

  it('says nothing when the fields, or the kinds, differ', () => {
    expect(renameHints([action('delete', 'IPPolicy/old', { description: 'a' }), action('create', 'IPPolicy/new', { description: 'b' })], kinds)).toEqual([]);
    expect(renameHints([action('delete', 'IPPolicy/old', { description: 'a' }), action('create', 'IPPolicy/new', { description: 'a', metadata: { t: 1 } })], kinds)).toEqual([]);
    expect(renameHints([action('delete', 'TunnelGroupBackend/x', { description: 'a' }), action('create', 'IPPolicy/x', { description: 'a' })], kinds)).toEqual([]);
  });

  it('says nothing when the pair is not one to one', () => {
    const twoNew = [action('delete', 'IPPolicy/old', {}), action('create', 'IPPolicy/a', {}), action('create', 'IPPolicy/b', {})];
    expect(renameHints(twoNew, kinds)).toEqual([]);
    const twoOld = [action('delete', 'IPPolicy/a', {}), action('delete', 'IPPolicy/b', {}), action('create', 'IPPolicy/new', {})];
    expect(renameHints(twoOld, kinds)).toEqual([]);
  });

  it('never pairs a value known only after apply, and never a kind without the marker', () => {
    const pending = [action('delete', 'IPPolicyRule/old', { ip_policy_id: 'ipp_1' }), action('create', 'IPPolicyRule/new', { ip_policy_id: { $ref: 'IPPolicy/p' } }, { knownAfterApply: true })];
    expect(renameHints(pending, kinds)).toEqual([]);
    const natural = KINDS.find((k) => k.identity === 'natural')!;
    expect(renameHints([action('delete', `${natural.kind}/a`, { x: 1 }), action('create', `${natural.kind}/b`, { x: 1 })], kinds)).toEqual([]);
  });
});
