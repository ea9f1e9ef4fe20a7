import { describe, expect, it } from 'vitest';
import { REQUEST_BODY_MAX_BYTES } from '../../src/contract/limits.ts';
import { planWithAdoption } from '../../src/engine/adopt-plan.ts';
import { runAll } from '../../src/pace.ts';
import { fetchLive, liveState } from '../../src/engine/live.ts';
import { liveCheckKinds, livePlanErrors, staticPlanErrors } from '../../src/engine/plan-checks.ts';
import { formatIssue, type ManifestIssue, type SourcePos } from '../../src/errors.ts';
import type { Obj } from '../../src/kinds/resource-kind.ts';
import type { DesiredResource } from '../../src/manifest/document.ts';
import { rememberSource } from '../../src/manifest/pointer.ts';
import { fakeWorld, marked, nullApi, ref, res, state } from './fakes.ts';

/** A resource whose values sit at the given positions of m.yaml (line per pointer). */
function located(address: string, spec: Obj, lines: Record<string, number>, docLine = 1): DesiredResource {
  const r = { ...res(address, spec), pos: { file: 'm.yaml', line: docLine, col: 1 } };
  const positions = new Map<string, SourcePos>(Object.entries(lines).map(([pointer, line]) => [pointer, { file: 'm.yaml', line, col: 5 }]));
  rememberSource(r, { pos: r.pos, positions });
  return r;
}

const shown = (errors: ManifestIssue[]): string[] => errors.map(formatIssue);

async function planned(w: ReturnType<typeof fakeWorld>, resources: DesiredResource[], adopt = false) {
  const desired = state(resources);
  const { plan, live } = runAll(planWithAdoption({ kinds: w.kinds, desired, live: await fetchLive(w.kinds, nullApi), stack: 's', adopt }));
  return { desired, plan, live };
}

describe('static plan checks', () => {
  it('finds a unique value in two documents of kinds sharing its scope, or twice in one, with both positions', () => {
    const w = fakeWorld();
    const desired = state([
      located('Back/a', { hostports: ['H:1', 'h:2'] }, { '/hostports/0': 3, '/hostports/1': 4 }),
      located('Edge/b', { hostports: ['h:1', 'h:3', 'h:3'] }, { '/hostports/0': 8, '/hostports/1': 9, '/hostports/2': 10 }),
    ]);
    expect(shown(staticPlanErrors(w.kinds, desired, 's'))).toEqual([
      'm.yaml:8:5: Edge/b: hostport "h:1" is also claimed by Back/a at m.yaml:3:5; the service lets one resource hold it at a time',
      'm.yaml:10:5: Edge/b: hostport "h:3" is also at m.yaml:9:5; the service lets one resource hold it at a time',
    ]);
  });

  it('finds a body over the service limit, secrets counted and never printed, at its largest field', () => {
    const w = fakeWorld();
    const secret = 'S'.repeat(REQUEST_BODY_MAX_BYTES);
    const desired = state([located('Cert/big', { pem: 'cert', key: secret }, { '/key': 5 }), res('Cert/small', { pem: 'cert', key: 'S'.repeat(1000) })]);
    const errors = staticPlanErrors(w.kinds, desired, 's');
    expect(shown(errors)).toEqual([
      expect.stringMatching(/^m\.yaml:5:5: Cert\/big: the request body would be 1\.0 MiB \(\d+ bytes, key 1\.0 MiB of it\); the service refuses bodies over 1\.0 MiB \(1048576 bytes\) with 413$/),
    ]);
    expect(JSON.stringify(errors)).not.toContain('SSSS');
  });

  it('counts the marker and a reference created by the same apply as sent, not as written', () => {
    const w = fakeWorld();
    // Just under the limit as written; the marker in metadata and the id for {$ref} push it over.
    const filler = (body: Obj): number => REQUEST_BODY_MAX_BYTES - Buffer.byteLength(JSON.stringify(body)) - 10;
    const base = { backend: { backend_id: ref('Back/b') }, description: '' };
    const desired = state([res('Edge/e', { ...base, description: 'd'.repeat(filler(base)) }), res('Back/b', {})]);
    expect(staticPlanErrors(w.kinds, desired, 's').map((e) => e.address)).toEqual(['Edge/e']);
  });
});

describe('live plan checks', () => {
  it('lists only what the manifests need: the kinds of their literal ids, and the holders of unique values', () => {
    const w = fakeWorld();
    const kinds = (resources: DesiredResource[]): string[] => liveCheckKinds(w.kinds, state(resources)).map((k) => k.kind);
    expect(kinds([res('Pol/p', {}), res('Rule/r', { pol_id: ref('Pol/p') })])).toEqual([]);
    expect(kinds([res('Rule/r', { pol_id: 'pol_0001' })])).toEqual(['Pol']);
    expect(kinds([res('Edge/e', { hostports: ['h:1'], ip: { pol_ids: ['pol_1', ref('Pol/p')] } })])).toEqual(['Pol', 'Back', 'Edge']);
  });

  it('finds literal ids that name nothing live, or a resource this plan deletes or replaces', async () => {
    const w = fakeWorld();
    const kept = w.store.seed('Pol', 'pol_', { description: 'kept', metadata: marked('s', 'Pol/kept') });
    const gone = w.store.seed('Pol', 'pol_', { description: 'gone', metadata: marked('s', 'Pol/gone') });
    const theirs = w.store.seed('Pol', 'pol_', { description: 'theirs', metadata: marked('other', 'Pol/x') });
    const { desired, plan, live } = await planned(w, [
      res('Pol/kept', { description: 'kept' }),
      located('Rule/a', { pol_id: kept, cidr: '1', action: 'allow' }, {}),
      located('Rule/b', { pol_id: gone, cidr: '2', action: 'allow' }, { '/pol_id': 7 }),
      located('Rule/c', { pol_id: 'pol_9999', cidr: '3', action: 'allow' }, { '/pol_id': 9 }),
      located('Rule/d', { pol_id: theirs, cidr: '4', action: 'allow' }, {}),
    ]);
    expect(shown(livePlanErrors(w.kinds, desired, live, 's', { plan, adopt: false }))).toEqual([
      `m.yaml:7:5: Rule/b: pol_id: "${gone}" is deleted by this plan (Pol/gone)`,
      'm.yaml:9:5: Rule/c: pol_id: "pol_9999" names no Pol in the account (the plan listed every live Pol)',
    ]);
    // Without the plan (apply's check before its lock) only what is missing counts; unlisted kinds are not judged.
    expect(livePlanErrors(w.kinds, desired, live, 's', { adopt: false })).toHaveLength(1);
    expect(livePlanErrors(w.kinds, desired, liveState(w.kinds, new Map()), 's', { adopt: false })).toEqual([]);
  });

  it('lets values move between resources of this stack, and between its documents and its deletes', async () => {
    const w = fakeWorld();
    w.store.seed('Edge', 'edg_', { hostports: ['h:1'], metadata: marked('s', 'Edge/a') });
    w.store.seed('Edge', 'edg_', { hostports: ['h:2'], metadata: marked('s', 'Edge/b') });
    w.store.seed('Back', 'bak_', { hostports: ['h:3'], metadata: marked('s', 'Back/old') });
    const { desired, plan, live } = await planned(w, [
      res('Edge/a', { hostports: ['h:2'] }),
      res('Edge/b', { hostports: ['h:1', 'h:3'] }),
    ]);
    expect(plan.actions.map((a) => a.id)).toContain('delete:Back/old');
    expect(livePlanErrors(w.kinds, desired, live, 's', { plan, adopt: false })).toEqual([]);
    expect(staticPlanErrors(w.kinds, desired, 's')).toEqual([]);
  });
});
