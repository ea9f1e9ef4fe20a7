// The read-only operations without commander: plan (footer, checksum, saved plan), drift and export, against a
// fake Api, each reporting to a recording view and writing nothing to the service.
import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import type { DriftReport } from '../../src/engine/drift.ts';
import type { Plan } from '../../src/engine/plan-data.ts';
import * as apply from '../../src/operations/apply.ts';
import * as drift from '../../src/operations/drift.ts';
import * as exporting from '../../src/operations/export.ts';
import * as plan from '../../src/operations/plan.ts';
import { readSavedPlan } from '../../src/operations/saved-plans.ts';
import { loadDesired } from '../../src/pipeline.ts';
import type { PlanFooter } from '../../src/render/view.ts';
import { FakeApi, manifests, recordingApplyView } from './fakes.ts';

const STACK = 'ops';
const MATERIAL = { source: 'api-key' as const, secret: 'test-api-key-for-operations' };
const cleanups: (() => void)[] = [];
afterEach(() => {
  for (const c of cleanups.splice(0)) c();
});

function project(policies: Record<string, string>) {
  const m = manifests(`stack: ${STACK}\nmax_deletes: 5\n`, policies);
  cleanups.push(m.remove);
  return m;
}

async function applied(dir: string, api: FakeApi): Promise<void> {
  const desired = loadDesired([dir]);
  await apply.run({ stack: STACK, adopt: false, desired, approved: true, allowDeletes: false, destroy: false, concurrency: 2, material: MATERIAL, lock: {} },
    { api, view: recordingApplyView(), approve: async () => undefined, signal: new AbortController().signal });
}

describe('plan operation', () => {
  it('shows the plan with its delete status and checksum, saves it on request, and only lists', async () => {
    const m = project({ a: 'one', b: 'two' });
    const api = new FakeApi();
    await applied(m.dir, api);
    m.write({ a: 'one, changed' });
    const writes = api.writes.length;
    const shown: { plan: Plan; footer: PlanFooter }[] = [];
    const saved: string[] = [];
    const file = join(m.dir, 'saved.json');
    const outcome = await plan.run(
      { stack: STACK, adopt: false, desired: () => loadDesired([m.dir]), material: MATERIAL, save: { file, paths: [m.dir] } },
      { api, redact: (t) => t, view: { notSaved: () => undefined, plan: (p, footer) => void shown.push({ plan: p, footer }), saved: (f, note) => void saved.push(`${f} ${note ?? ''}`) } },
    );
    expect(api.writes.length).toBe(writes);
    expect(shown).toHaveLength(1);
    expect(shown[0]!.plan.summary).toMatchObject({ update: 1, delete: 1 });
    expect(shown[0]!.footer).toEqual({ deletes: 'Deletes: 1 of max 5, within the limits.', checksum: outcome.checksum });
    expect(saved).toEqual([`${file} `]);
    expect(readSavedPlan(file).checksum).toBe(outcome.checksum);
  });

  it('an empty plan has no checksum line', async () => {
    const m = project({ a: 'one' });
    const api = new FakeApi();
    await applied(m.dir, api);
    const footers: PlanFooter[] = [];
    await plan.run({ stack: STACK, adopt: false, desired: () => loadDesired([m.dir]), material: MATERIAL },
      { api, redact: (t) => t, view: { notSaved: () => undefined, plan: (_p, footer) => void footers.push(footer), saved: () => undefined } });
    expect(footers).toEqual([{ deletes: undefined }]);
  });

  it('refuses to save a plan the redactor would change (a secret in it), writing no file', async () => {
    const m = project({ a: 'one' });
    const file = join(m.dir, 'saved.json');
    const run = plan.run({ stack: STACK, adopt: false, desired: () => loadDesired([m.dir]), material: MATERIAL, save: { file, paths: [m.dir] } },
      { api: new FakeApi(), redact: (t) => t.replace('one', '***'), view: { notSaved: () => undefined, plan: () => undefined, saved: () => undefined } });
    await expect(run).rejects.toMatchObject({ code: 'E_SECRET_IN_PLAN' });
    expect(existsSync(file)).toBe(false);
  });
});

describe('drift operation', () => {
  it('reports what changed live, with the plan that would restore it, through a read-only Api', async () => {
    const m = project({ a: 'one' });
    const api = new FakeApi();
    const reports: { report: DriftReport; plan: Plan }[] = [];
    const view: drift.DriftView = { drift: (report, p) => void reports.push({ report, plan: p }) };
    const desired = await loadDesired([m.dir]);
    expect((await drift.run({ stack: STACK, adopt: false, desired }, { api, view })).summary.missing).toBe(1);
    await applied(m.dir, api);
    const writes = api.writes.length;
    const a = api.items('/ip_policies').find((i) => i.description === 'one')!;
    await api.patch(`/ip_policies/${String(a.id)}`, { description: 'by hand' });
    const report = await drift.run({ stack: STACK, adopt: false, desired }, { api, view });
    expect(report.inSync).toBe(false);
    expect(report.summary.changed).toBe(1);
    expect(reports[1]!.plan.summary.update).toBe(1);
    expect(api.writes.length).toBe(writes + 1); // only the hand edit above
  });
});

describe('export operation', () => {
  it('writes the managed resources as manifests and the live state as a snapshot', async () => {
    const m = project({ a: 'one', b: 'two' });
    const api = new FakeApi();
    await applied(m.dir, api);
    const dir = join(m.dir, 'exported');
    const snapshot = join(m.dir, 'live.json');
    const seen: exporting.ExportOutcome[] = [];
    const outcome = await exporting.run({ stack: STACK, all: false, dir, snapshot }, { api, view: { exported: (o) => void seen.push(o) } });
    expect(seen).toEqual([outcome]);
    expect(outcome.manifests?.result.managed).toBe(2);
    expect(outcome.manifests?.written).toContain('edgeops.yaml');
    expect(readFileSync(join(dir, outcome.manifests!.written.find((f) => f !== 'edgeops.yaml')!), 'utf8')).toContain('name: b');
    expect(outcome.snapshot?.file).toBe(snapshot);
    expect(JSON.parse(readFileSync(snapshot, 'utf8')).lists.length).toBe(outcome.snapshot?.lists);
  });
});
