// The apply operation without commander, a terminal or a service: a fake Api, a recording view. Every refusal
// (stale saved plan, checksum mismatch, delete gate, destroy gate, interrupt, a held lock, a declined prompt)
// throws its typed error and writes nothing but the stack's own lock record, which is released.
import { afterEach, describe, expect, it } from 'vitest';
import { readSavedPlan } from '../../src/operations/saved-plans.ts';
import * as apply from '../../src/operations/apply.ts';
import * as plan from '../../src/operations/plan.ts';
import { loadDesired } from '../../src/pipeline.ts';
import { AbortedError } from '../../src/errors.ts';
import { FakeApi, manifests, recordingApplyView } from './fakes.ts';
import { holdStackLock } from '../helpers/stack-lock.ts';
import { join } from 'node:path';
import { writeFileSync } from 'node:fs';

const STACK = 'ops';
const MATERIAL = { source: 'api-key' as const, secret: 'test-api-key-for-operations' };
const cleanups: (() => void)[] = [];
afterEach(() => {
  for (const c of cleanups.splice(0)) c();
});

function project(extra = ''): ReturnType<typeof manifests> {
  const m = manifests(`stack: ${STACK}\n${extra}`, { office: 'office networks', vpn: 'vpn ranges', lab: 'lab' });
  cleanups.push(m.remove);
  return m;
}

function request(dir: string, over: Partial<apply.ApplyRequest> = {}, allowEmpty = false): apply.ApplyRequest {
  const desired = loadDesired([dir], {}, { allowEmpty });
  desired.catch(() => undefined);
  return {
    stack: STACK, adopt: false, desired, approved: true, allowDeletes: false, destroy: false, concurrency: 4,
    material: MATERIAL, lock: {}, ...over,
  };
}

function deps(api: FakeApi, over: Partial<apply.ApplyDeps> = {}) {
  const view = recordingApplyView();
  const asked: string[] = [];
  const d: apply.ApplyDeps = { api, view, approve: async () => void asked.push('approve'), signal: new AbortController().signal, ...over };
  return { deps: d, view, asked };
}

/** The operation's error, which must be thrown. */
async function refusal(run: Promise<unknown>): Promise<{ code: string; message: string }> {
  const err = await run.then(() => undefined, (e: unknown) => e);
  expect(err).toBeInstanceOf(Error);
  return err as { code: string; message: string };
}

/** No lock record is left behind. */
const lockRecords = (api: FakeApi) => api.items('/ip_policies').filter((i) => String(i.description).startsWith('edgeops apply lock'));

/** A rule whose policy is a literal id naming nothing live: a plan error. */
function withMissingLiteral(dir: string): void {
  writeFileSync(join(dir, 'rule.yaml'), `kind: IPPolicyRule\nname: stray\nip_policy_id: ipp_${'a'.repeat(27)}\ncidr: 10.0.0.0/8\naction: allow\n`);
}

describe('apply operation', () => {
  it('refuses a plan with errors before any write, not even its lock record; plan shows them and saves nothing', async () => {
    const m = project();
    withMissingLiteral(m.dir);
    const api = new FakeApi();
    const { deps: d, view, asked } = deps(api);
    const err = await refusal(apply.run(request(m.dir), d));
    expect(err.code).toBe('E_PLAN_ERRORS');
    expect((err as unknown as { issues: { message: string }[] }).issues[0]!.message).toContain('ipp_');
    expect(api.writes).toEqual([]);
    expect(view.shown).toEqual([]);
    expect(asked).toEqual([]);
    const file = join(m.dir, 'plan.json');
    const notSaved: string[] = [];
    const planned = plan.run({ stack: STACK, adopt: false, desired: () => loadDesired([m.dir]), material: MATERIAL, save: { file, paths: [m.dir] } },
      { api, redact: (t) => t, view: { plan: () => undefined, saved: () => undefined, notSaved: (f) => void notSaved.push(f) } });
    expect((await refusal(planned)).code).toBe('E_PLAN_ERRORS');
    expect(notSaved).toEqual([file]);
    expect(api.writes).toEqual([]);
  });

  it('plans under the lock, asks, executes with progress, reports, and releases the lock', async () => {
    const m = project();
    const api = new FakeApi();
    const { deps: d, view, asked } = deps(api);
    const outcome = await apply.run(request(m.dir, { approved: false }), d);
    expect(outcome.result?.ok).toBe(true);
    expect(asked).toEqual(['approve']);
    expect(api.resourceWrites()).toEqual(['POST /ip_policies', 'POST /ip_policies', 'POST /ip_policies']);
    expect(view.shown[0]).toBe('plan 3/0/0/0');
    expect(view.shown[1]).toBe('progress 3');
    expect(view.shown.slice(-2)).toEqual(['stop', 'summary ok=true']);
    expect(lockRecords(api)).toEqual([]);
    // Converged: a second run has nothing to do and asks nothing.
    const again = deps(api);
    expect(await apply.run(request(m.dir, { approved: false }), again.deps)).toEqual({});
    expect(again.asked).toEqual([]);
    expect(again.view.shown).toEqual(['plan 0/0/0/0']);
  });

  it('plans ahead while it takes the lock, but applies the plan of the lists read under it', async () => {
    const m = project();
    const api = new FakeApi();
    await apply.run(request(m.dir), deps(api).deps);
    const office = api.items('/ip_policies').find((i) => i.description === 'office networks')!;
    await api.delete(`/ip_policies/${String(office.id)}`);
    // Another apply's create of office lands after this apply's first lists, just before it takes the lock.
    const post = api.post.bind(api);
    api.post = async (path, body) => {
      if (String(body.description).startsWith('edgeops apply lock')) api.collections.get('/ip_policies')!.set(String(office.id), office);
      return post(path, body);
    };
    const { deps: d, view } = deps(api);
    expect(await apply.run(request(m.dir), d)).toEqual({});
    expect(view.shown).toEqual(['plan 0/0/0/0']);
    expect(api.items('/ip_policies').map((i) => i.description).sort()).toEqual(['lab', 'office networks', 'vpn ranges']);
  });

  it('releases the lock once the self-check has read its lists: before the summary, and once', async () => {
    const m = project();
    const api = new FakeApi();
    const view = recordingApplyView();
    let locksAtSummary: number | undefined;
    const { deps: d } = deps(api, { view: { ...view, summary: (...args) => { locksAtSummary = lockRecords(api).length; view.summary(...args); } } });
    expect((await apply.run(request(m.dir), d)).result?.ok).toBe(true);
    expect(locksAtSummary).toBe(0);
    expect(api.writes.filter((w) => w.startsWith('DELETE'))).toHaveLength(1);
  });

  it('refuses a saved plan when what it acts on changed since it was saved', async () => {
    const m = project();
    const api = new FakeApi();
    await apply.run(request(m.dir), deps(api).deps);
    m.write({ office: 'office networks (v2)', vpn: 'vpn ranges', lab: 'lab' });
    const file = join(m.dir, 'plan.json');
    const saves: string[] = [];
    await plan.run({ stack: STACK, adopt: false, desired: () => loadDesired([m.dir]), material: MATERIAL, save: { file, paths: [m.dir] } },
      { api, redact: (t) => t, view: { notSaved: () => undefined, plan: () => undefined, saved: (f) => void saves.push(f) } });
    expect(saves).toEqual([file]);
    // Someone edits the policy the plan updates.
    const office = api.items('/ip_policies').find((i) => i.description === 'office networks')!;
    await api.patch(`/ip_policies/${String(office.id)}`, { description: 'edited by hand' });
    const before = api.resourceWrites().length;
    const err = await refusal(apply.run(request(m.dir, { saved: { file, contents: readSavedPlan(file) } }), deps(api).deps));
    expect(err.code).toBe('E_STALE_PLAN');
    expect(api.resourceWrites().length).toBe(before);
    expect(lockRecords(api)).toEqual([]);
  });

  it('applies a saved plan when nothing it acts on changed, without asking', async () => {
    const m = project();
    const api = new FakeApi();
    const file = join(m.dir, 'plan.json');
    await plan.run({ stack: STACK, adopt: false, desired: () => loadDesired([m.dir]), material: MATERIAL, save: { file, paths: [m.dir] } },
      { api, redact: (t) => t, view: { notSaved: () => undefined, plan: () => undefined, saved: () => undefined } });
    const { deps: d, view, asked } = deps(api);
    await apply.run(request(m.dir, { approved: false, saved: { file, contents: readSavedPlan(file) } }), d);
    expect(asked).toEqual([]);
    expect(view.shown[0]).toBe(`saved-plan ${file}`);
    expect(api.resourceWrites()).toHaveLength(3);
  });

  it('refuses a fresh plan whose checksum is not the approved one, and runs the one that is', async () => {
    const m = project();
    const api = new FakeApi();
    const err = await refusal(apply.run(request(m.dir, { approved: false, checksum: `sha256:${'0'.repeat(64)}` }), deps(api).deps));
    expect(err.code).toBe('E_STALE_PLAN');
    expect(err.message).toContain('not the approved one');
    expect(api.resourceWrites()).toEqual([]);
    const made = await plan.run({ stack: STACK, adopt: false, desired: () => loadDesired([m.dir]), material: MATERIAL },
      { api, redact: (t) => t, view: { notSaved: () => undefined, plan: () => undefined, saved: () => undefined } });
    const { deps: d, asked } = deps(api);
    await apply.run(request(m.dir, { approved: false, checksum: made.checksum }), d);
    expect(asked).toEqual([]);
    expect(api.resourceWrites()).toHaveLength(3);
  });

  it('refuses a plan over the delete limits without allowDeletes, and runs it with', async () => {
    const m = project('max_deletes: 1\n');
    const api = new FakeApi();
    await apply.run(request(m.dir), deps(api).deps);
    m.write({ office: 'office networks' });
    const before = api.resourceWrites().length;
    const err = await refusal(apply.run(request(m.dir), deps(api).deps));
    expect(err.code).toBe('E_UNSAFE_PLAN');
    expect(err.message).toContain('more than max_deletes (1)');
    expect(api.resourceWrites().length).toBe(before);
    expect(lockRecords(api)).toEqual([]);
    await apply.run(request(m.dir, { allowDeletes: true }), deps(api).deps);
    expect(api.resourceWrites().slice(before).filter((w) => w.startsWith('DELETE'))).toHaveLength(2);
  });

  it('refuses a destroy without destroy, even with allowDeletes, and runs it with', async () => {
    const m = project();
    const api = new FakeApi();
    await apply.run(request(m.dir), deps(api).deps);
    m.write({});
    const before = api.resourceWrites().length;
    const err = await refusal(apply.run(request(m.dir, { allowDeletes: true }, true), deps(api).deps));
    expect(err.code).toBe('E_UNSAFE_PLAN');
    expect(err.message).toContain(`deletes every resource of stack "${STACK}"`);
    expect(api.resourceWrites().length).toBe(before);
    await apply.run(request(m.dir, { destroy: true }, true), deps(api).deps);
    expect(api.items('/ip_policies')).toEqual([]);
  });

  it('an interrupt while planning ends the run at once: nothing written, the lock released', async () => {
    const m = project();
    const api = new FakeApi();
    const interrupt = new AbortController();
    let holding!: () => void;
    let edgeLists = 0;
    api.beforeList = (path) => {
      // The second list of TCP edges is the plan's, under the lock (the first is the check's before it).
      if (path !== '/edges/tcp' || ++edgeLists < 2) return;
      interrupt.abort();
      return new Promise<void>((resolve) => (holding = resolve));
    };
    const err = await refusal(apply.run(request(m.dir), deps(api, { signal: interrupt.signal }).deps));
    holding();
    expect(err).toBeInstanceOf(AbortedError);
    expect(err.message).toBe('apply interrupted while planning: nothing was changed; run it again to apply');
    expect(api.resourceWrites()).toEqual([]);
    expect(lockRecords(api)).toEqual([]);
  });

  it('an interrupt at the prompt stops before any action; actions already started finish, no new one starts', async () => {
    const m = project();
    const api = new FakeApi();
    const interrupt = new AbortController();
    const at = deps(api, { signal: interrupt.signal, approve: async () => void interrupt.abort() });
    const err = await refusal(apply.run(request(m.dir, { approved: false }), at.deps));
    expect(err.message).toBe('apply interrupted before any action started: nothing was changed; run it again to apply');
    expect(api.resourceWrites()).toEqual([]);

    // Once actions run, the interrupt stops new ones: the first create lands, the others never start.
    const during = new AbortController();
    const started: string[] = [];
    const run = deps(api, {
      signal: during.signal,
      interrupt: { actionsStarting: () => void started.push('actions'), onForcedExit: () => undefined },
    });
    const view = run.deps.view;
    run.deps.view = { ...view, progress: (total, names) => {
      const p = view.progress(total, names);
      return { onEvent: (e) => { p.onEvent(e); if (e.type === 'done') during.abort(); }, stop: p.stop };
    } };
    const stopped = await refusal(apply.run(request(m.dir, { concurrency: 1 }), run.deps));
    expect(stopped.code).toBe('E_ABORTED');
    expect(stopped.message).toBe('apply interrupted; run it again to converge');
    expect(started).toEqual(['actions']);
    expect(api.resourceWrites()).toEqual(['POST /ip_policies']);
    expect(lockRecords(api)).toEqual([]);
  });

  it('refuses while another apply holds the lock, writing nothing; invalid manifests are reported first', async () => {
    const m = project();
    const api = new FakeApi();
    const other = await holdStackLock(api, STACK, { holder: 'someone else' });
    try {
      const err = await refusal(apply.run(request(m.dir), deps(api).deps));
      expect(err.code).toBe('E_LOCKED');
      expect(err.message).toContain('someone else');
      expect(api.resourceWrites()).toEqual([]);
      m.write({ 'Not A Name': 'x' });
      const invalid = await refusal(apply.run(request(m.dir), deps(api).deps));
      expect(invalid.code).toBe('E_MANIFEST');
    } finally {
      await other.release();
    }
  });

  it('a declined prompt writes nothing', async () => {
    const m = project();
    const api = new FakeApi();
    const declined = deps(api, { approve: async () => { throw new AbortedError('Apply cancelled: the answer was not "yes".'); } });
    const err = await refusal(apply.run(request(m.dir, { approved: false }), declined.deps));
    expect(err.code).toBe('E_ABORTED');
    expect(api.resourceWrites()).toEqual([]);
    expect(lockRecords(api)).toEqual([]);
  });
});
