import { describe, expect, it } from 'vitest';
import { changeActions, createAction, fieldChanges, liveBody } from '../../src/engine/diff.ts';
import { requestBody as desiredBody } from '../../src/kinds/sent-body.ts';
import type { LiveItem } from '../../src/kinds/resource-kind.ts';
import { fakeWorld, marked, markerKind, ref, Store } from './fakes.ts';

const noIds = (): undefined => undefined;

describe('desired and live bodies', () => {
  it('applies the kind normalization to both sides so service defaults are no diff', () => {
    const store = new Store();
    const kind = markerKind(store, { kind: 'Resp', prefix: 'rsp_', defaults: { status_code: 200 } });
    const desired = desiredBody(kind, { body: 'hi' }, noIds);
    const live = liveBody(kind, { id: 'rsp_1', raw: { id: 'rsp_1', body: 'hi', status_code: 200, metadata: marked('s', 'Resp/r') } });
    expect(desired).toEqual({ body: 'hi', status_code: 200 });
    expect(live).toEqual(desired);
    expect(changeActions({ kind, name: 'r', address: 'Resp/r' }, { id: 'rsp_1', raw: {} }, live, desired)).toEqual([]);
  });

  it('takes the marker out of live metadata and parses the user keys', () => {
    const { pol } = fakeWorld();
    const item: LiveItem = { id: 'pol_1', raw: { id: 'pol_1', metadata: marked('s', 'Pol/p', { team: 'web' }) } };
    expect(liveBody(pol, item)).toEqual({ metadata: { team: 'web' } });
    expect(liveBody(pol, { id: 'pol_2', raw: { id: 'pol_2', metadata: marked('s', 'Pol/p') } })).toEqual({});
  });

  it('keeps desired metadata as the user mapping (the marker is added only when sending)', () => {
    const { pol } = fakeWorld();
    expect(desiredBody(pol, { description: 'd', metadata: { b: 1, a: 2 } }, noIds)).toEqual({ description: 'd', metadata: { a: 2, b: 1 } });
    expect(desiredBody(pol, { metadata: {} }, noIds)).toEqual({});
  });

  it('replaces refs to known resources with their ids and keeps the others pending', () => {
    const { edge } = fakeWorld();
    const spec = { backend: { enabled: true, backend_id: ref('Back/b') }, ip: { pol_ids: [ref('Pol/a'), ref('Pol/new'), 'pol_lit'] } };
    const body = desiredBody(edge, spec, (a) => (a === 'Back/b' ? 'bak_1' : a === 'Pol/a' ? 'pol_1' : undefined));
    expect(body).toEqual({ backend: { enabled: true, backend_id: 'bak_1' }, ip: { pol_ids: ['pol_1', ref('Pol/new'), 'pol_lit'] } });
  });
});

describe('field changes', () => {
  const { edge, cert } = fakeWorld();

  it('reports nested changes as JSON pointers with old and new values', () => {
    const changes = fieldChanges(edge, { description: 'a', labels: { x: '1', y: '2' } }, { description: 'b', labels: { x: '1', z: '3' } });
    expect(changes).toEqual([
      { path: '/description', kind: 'replace', old: 'a', new: 'b' },
      { path: '/labels/y', kind: 'remove', old: '2' },
      { path: '/labels/z', kind: 'add', new: '3' },
    ]);
  });

  it('shows a list of scalars as one change of the whole list', () => {
    const changes = fieldChanges(edge, { hostports: ['a:1', 'b:2'] }, { hostports: ['c:3', 'a:1', 'b:2'] });
    expect(changes).toEqual([{ path: '/hostports', kind: 'replace', old: ['a:1', 'b:2'], new: ['c:3', 'a:1', 'b:2'] }]);
  });

  it('escapes keys with / and ~ in paths', () => {
    expect(fieldChanges(edge, { labels: {} }, { labels: { 'a/b~c': 'v' } })).toEqual([{ path: '/labels/a~1b~0c', kind: 'add', new: 'v' }]);
  });

  it('marks secrets sensitive and carries no values at all', () => {
    const secret = 'SECRET-KEY-MATERIAL';
    const changes = fieldChanges(cert, { key: 'old-secret' }, { key: secret });
    expect(changes).toEqual([{ path: '/key', kind: 'replace', sensitive: true }]);
    const created = createAction({ kind: cert, name: 'c', address: 'Cert/c' }, { pem: 'PEM', key: secret });
    expect(JSON.stringify(created.changes)).not.toContain(secret);
    expect(created.changes).toContainEqual({ path: '/key', kind: 'add', sensitive: true });
  });

  it('marks a value that holds a pending ref as known after apply', () => {
    const changes = fieldChanges(edge, { ip: { enabled: true, pol_ids: ['pol_1'] } }, { ip: { enabled: true, pol_ids: ['pol_1', ref('Pol/n')] } });
    expect(changes).toEqual([{ path: '/ip/pol_ids', kind: 'replace', old: ['pol_1'], new: ['pol_1', ref('Pol/n')], knownAfterApply: true }]);
  });
});

describe('actions of one resource', () => {
  const { edge, rule, cert } = fakeWorld();
  const live: LiveItem = { id: 'edg_1', raw: {} };
  const t = { kind: edge, name: 'e', address: 'Edge/e' };

  it('plain fields -> one update carrying only the changed top-level fields; removed -> null', () => {
    const [update, ...rest] = changeActions(t, live, { description: 'a', hostports: ['h:1'], labels: { x: '1' } }, { description: 'b', labels: { x: '2' } });
    expect(rest).toEqual([]);
    expect(update).toMatchObject({ id: 'update:Edge/e', op: 'update', liveId: 'edg_1', body: { description: 'b', hostports: null, labels: { x: '2' } } });
    expect(update!.changes.map((c) => c.path)).toEqual(['/description', '/hostports', '/labels/x']);
  });

  it('a changed module -> module-put of the whole module; a module gone from the manifest -> module-delete', () => {
    const actions = changeActions(
      t,
      live,
      { backend: { enabled: true, backend_id: 'bak_1' }, ip: { enabled: true, pol_ids: ['pol_1'] } },
      { backend: { enabled: false, backend_id: 'bak_1' } },
    );
    expect(actions.map((a) => a.id)).toEqual(['module-put:Edge/e:backend', 'module-delete:Edge/e:ip']);
    const put = actions.find((a) => a.op === 'module-put')!;
    expect(put).toMatchObject({ module: 'backend', body: { enabled: false, backend_id: 'bak_1' } });
    expect(put.changes).toEqual([{ path: '/backend/enabled', kind: 'replace', old: true, new: false }]);
    const del = actions.find((a) => a.op === 'module-delete')!;
    expect(del).toMatchObject({ module: 'ip', changes: [{ path: '/ip', kind: 'remove', old: { enabled: true, pol_ids: ['pol_1'] } }] });
  });

  it('a change to an immutable field -> one replace with the reason', () => {
    const actions = changeActions({ kind: rule, name: 'r', address: 'Rule/r' }, { id: 'rul_1', raw: {} }, { cidr: '10.0.0.0/8', action: 'allow', pol_id: 'pol_1' }, { cidr: '10.0.0.0/16', action: 'deny', pol_id: 'pol_1' });
    expect(actions).toHaveLength(1);
    expect(actions[0]).toMatchObject({ id: 'replace:Rule/r', op: 'replace', liveId: 'rul_1', reason: 'action cannot be updated' });
    expect(actions[0]!.changes.map((c) => c.path)).toEqual(['/action', '/cidr']);
  });

  it('a pending ref in an immutable field -> replace (the referenced resource is new)', () => {
    const [a] = changeActions({ kind: rule, name: 'r', address: 'Rule/r' }, { id: 'rul_1', raw: {} }, { action: 'allow', pol_id: 'pol_1' }, { action: 'allow', pol_id: ref('Pol/n') });
    expect(a).toMatchObject({ op: 'replace', reason: 'pol_id cannot be updated' });
    expect(a!.changes[0]).toMatchObject({ path: '/pol_id', knownAfterApply: true });
  });

  it('write-only fields never cause a diff (the service does not return them)', () => {
    const actions = changeActions({ kind: cert, name: 'c', address: 'Cert/c' }, { id: 'crt_1', raw: {} }, { pem: 'P' }, { pem: 'P', key: 'K' });
    expect(actions).toEqual([]);
  });
});
