// The plan and apply operations with targets, on a fake Api: a saved targeted plan is applied only with its own
// targets (a caller that plans without them is refused as stale), and a plan error of a resource outside the
// targets does not refuse a targeted apply, which writes only its targets.
import { join } from 'node:path';
import { writeFileSync } from 'node:fs';
import { afterEach, describe, expect, it } from 'vitest';
import * as apply from '../../src/operations/apply.ts';
import * as plan from '../../src/operations/plan.ts';
import { readSavedPlan } from '../../src/operations/saved-plans.ts';
import { runTargets } from '../../src/operations/plan-selection.ts';
import { loadDesired } from '../../src/pipeline.ts';
import { FakeApi, manifests, recordingApplyView } from './fakes.ts';

const STACK = 'ops-targets';
const MATERIAL = { source: 'api-key' as const, secret: 'test-api-key-for-targets' };
const cleanups: (() => void)[] = [];
afterEach(() => {
  for (const c of cleanups.splice(0)) c();
});

function project(): string {
  const m = manifests(`stack: ${STACK}\n`, { office: 'office networks', vpn: 'vpn ranges' });
  cleanups.push(m.remove);
  return m.dir;
}

function request(dir: string, over: Partial<apply.ApplyRequest>): apply.ApplyRequest {
  const desired = loadDesired([dir], {});
  desired.catch(() => undefined);
  return { stack: STACK, adopt: false, desired, approved: true, allowDeletes: false, destroy: false, concurrency: 2, material: MATERIAL, lock: {}, ...over };
}

const deps = (api: FakeApi): apply.ApplyDeps => ({ api, view: recordingApplyView(), approve: async () => undefined, signal: new AbortController().signal });

describe('targeted plans in the operations', () => {
  it('a saved targeted plan is applied only with its own targets', async () => {
    const dir = project();
    const api = new FakeApi();
    const file = join(dir, 'plan.json');
    const view: plan.PlanView = { plan: () => undefined, saved: () => undefined, notSaved: () => undefined };
    await plan.run({ stack: STACK, adopt: false, desired: () => loadDesired([dir]), material: MATERIAL, save: { file, paths: [dir] }, targets: ['IPPolicy/office'] },
      { api, view, redact: (t) => t });
    const saved = { file, contents: readSavedPlan(file) };
    expect(saved.contents.plan.targets).toEqual({ addresses: ['IPPolicy/office'], resources: 1, of: 2 });

    expect(() => runTargets(['IPPolicy/vpn'], saved)).toThrow('plan.json is a plan made with --target IPPolicy/office; --plan applies it as it was made');
    expect(runTargets(undefined, saved)).toEqual(['IPPolicy/office']);
    expect(runTargets(['IPPolicy/office', 'IPPolicy/office'], saved)).toEqual(['IPPolicy/office']);

    const untargeted = await apply.run(request(dir, { saved }), deps(api)).then(() => undefined, (e: unknown) => e as { code: string; message: string });
    expect(untargeted?.code).toBe('E_STALE_PLAN');
    expect(untargeted?.message).toBe('the saved plan was made with --target IPPolicy/office, but this apply plans with no --target; apply it with its own targets, or make a new plan');

    await apply.run(request(dir, { saved, targets: runTargets(undefined, saved) }), deps(api));
    expect(api.items('/ip_policies').filter((i) => String(i.description) === 'office networks')).toHaveLength(1);
    expect(api.items('/ip_policies').filter((i) => String(i.description) === 'vpn ranges')).toHaveLength(0);
  });

  it('a plan error outside the targets does not refuse a targeted apply', async () => {
    const dir = project();
    writeFileSync(join(dir, 'rule.yaml'), `kind: IPPolicyRule\nname: stray\nip_policy_id: ipp_${'a'.repeat(27)}\ncidr: 10.0.0.0/8\naction: allow\n`);
    const api = new FakeApi();
    const whole = await apply.run(request(dir, {}), deps(api)).then(() => undefined, (e: unknown) => e as { code: string });
    expect(whole?.code).toBe('E_PLAN_ERRORS');
    expect(api.writes).toEqual([]);

    await apply.run(request(dir, { targets: ['IPPolicy/vpn'] }), deps(api));
    expect(api.items('/ip_policies').map((i) => String(i.description)).filter((d) => !d.startsWith('edgeops apply lock'))).toEqual(['vpn ranges']);
    expect(api.items('/ip_policy_rules')).toEqual([]);
  });
});
