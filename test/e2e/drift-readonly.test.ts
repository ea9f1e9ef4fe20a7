// Drift is read-only by construction: the Api it plans with refuses every write before sending a byte. Shown on
// the real service: each write method throws a ReadOnlyError (E_READ_ONLY), and even the executor driving a whole plan through
// the read-only view changes nothing.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { readOnlyApi } from '../../src/client/read-only.ts';
import { EdgeopsError } from '../../src/errors.ts';
import { computePlan, executePlan, loadDesired } from '../../src/pipeline.ts';
import { allKinds, makeCerts, type Certs } from './fixtures.ts';
import { edit, startE2E, STACK, type E2E } from './harness.ts';
import { serviceText, writeDocs } from './export-fixtures.ts';

let e: E2E;
let certs: Certs;

beforeAll(async () => {
  e = await startE2E();
  certs = await makeCerts();
  await e.converge(allKinds(certs).slice(0, 8));
}, 60_000);
afterAll(async () => e?.close());

describe('the read-only Api', () => {
  it('passes reads through and refuses every write, sending nothing', async () => {
    const before = await serviceText(e.http);
    const ro = readOnlyApi(e.api, 'drift');
    const policies = await ro.list('/ip_policies', 'ip_policies');
    expect(policies.length).toBeGreaterThan(0);
    expect((await ro.get(`/ip_policies/${String(policies[0]!.id)}`)).id).toBe(policies[0]!.id);

    const writes: [string, () => Promise<unknown>][] = [
      ['POST', () => ro.post('/ip_policies', { description: 'should never exist' })],
      ['PATCH', () => ro.patch(`/ip_policies/${String(policies[0]!.id)}`, { description: 'never' })],
      ['PUT', () => ro.put('/edges/tcp/edgtcp_x/backend', { backend_id: 'bkdtg_x' })],
      ['DELETE', () => ro.delete(`/ip_policies/${String(policies[0]!.id)}`)],
    ];
    for (const [method, write] of writes) {
      const err = await write().then(() => undefined, (x: unknown) => x);
      expect(err, method).toBeInstanceOf(EdgeopsError);
      expect((err as EdgeopsError).name).toBe('ReadOnlyError');
      expect((err as EdgeopsError).code).toBe('E_READ_ONLY');
      expect((err as EdgeopsError).message).toContain(`${method} /`);
      expect((err as EdgeopsError).message).toContain('drift is read-only');
    }
    expect(await serviceText(e.http)).toBe(before);
  });

  it('a whole plan executed through it fails action by action and changes nothing', async () => {
    const docs = edit(allKinds(certs), 'IPPolicy/office', (d) => {
      d.description = 'changed';
    });
    const ctx = await computePlan(await loadDesired([writeDocs(docs)], {}), readOnlyApi(e.api, 'drift'), { stack: STACK });
    expect(ctx.plan.actions.length).toBeGreaterThan(5);
    const before = await serviceText(e.http);
    const result = await executePlan(ctx, readOnlyApi(e.api, 'drift'), { stack: STACK, concurrency: 4 });
    expect(result.ok).toBe(false);
    expect(result.results.some((r) => r.status === 'done')).toBe(false);
    const failed = result.results.filter((r) => r.status === 'failed');
    expect(failed.length).toBeGreaterThan(0);
    for (const f of failed) expect(f.error?.message).toContain('drift is read-only');
    expect(await serviceText(e.http)).toBe(before);
  });
});
