// EventSources writes its types with follow-up POSTs (one per missing type). Against a service that answers
// 5xx before the write or commits and then drops the connection, each POST is retried only once a GET of the
// source shows it did not land, and a POST that landed counts as done: a create and an update each converge in
// one run, with no failed action and no duplicate type.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { FaultSpec } from '../../src/service/fault-spec.ts';
import { createFaultInjector } from '../../src/service/faults.ts';
import { tempDbFile } from '../helpers/service.ts';
import { planLines, STACK, startE2E } from './harness.ts';
import type { Doc, E2E } from './harness.ts';
import { expectNoUnreportedDuplicates, plainLister } from './live-copies.ts';

const subscription: Doc = { kind: 'EventSubscription', name: 'audit', description: 'audit trail' };
const sources = (types: string[]): Doc => ({ kind: 'EventSources', name: 'audit-sources', subscription_id: 'audit', types });
const FIRST = ['ip_policy_created.v0', 'ip_policy_updated.v0', 'ip_policy_deleted.v0', 'tcp_edge_created.v0', 'tcp_edge_updated.v0', 'tcp_edge_deleted.v0'];
const SECOND = ['ip_policy_created.v0', 'tcp_edge_created.v0', 'tls_edge_created.v0', 'tls_edge_updated.v0', 'https_edge_created.v0', 'https_edge_deleted.v0'];

/** Only writes are faulted, so the plan's reads and the checks' GETs take no draws and the run is reproducible. */
const FAULTS: FaultSpec = { methods: ['POST', 'DELETE'], errorRate: 0.25, statuses: [500, 502, 503], dropRate: 0.35, seed: 12 };

/**
 * The outcome of the first `n` faulted requests, as the service's fault injector for `spec` decides them: what
 * this seed does to the create's POSTs, which arrive one at a time.
 */
async function drawn(spec: FaultSpec, n: number): Promise<string[]> {
  const injector = createFaultInjector(spec)!;
  const outcomes: string[] = [];
  for (let i = 0; i < n; i++) {
    const decision = await injector.decide('POST', '/event_subscriptions/esb_x/sources');
    outcomes.push(decision.reject ? 'error' : decision.dropAfterCommit ? 'drop' : 'ok');
  }
  return outcomes;
}

let db: { dbFile: string; cleanup(): void };
beforeAll(async () => {
  db = tempDbFile();
  // The subscription comes first, from a service without faults: the faulted run then writes sources only.
  const clean = await startE2E({ dbFile: db.dbFile });
  try {
    await clean.converge([subscription]);
  } finally {
    await clean.close();
  }
});
afterAll(() => db.cleanup());

describe('EventSources under dropped and failed POSTs', () => {
  let e: E2E;
  beforeAll(async () => {
    e = await startE2E({ dbFile: db.dbFile, faults: FAULTS });
  });
  afterAll(async () => e?.close());

  const liveTypes = async (): Promise<string[]> => {
    const [sub] = (await e.http.listAll('/event_subscriptions', 'event_subscriptions')) as { sources: { type: string }[] }[];
    return sub!.sources.map((s) => s.type).sort();
  };

  it('the seed drops the first POST and fails or drops others', async () => {
    // POSTs arrive one at a time: a dropped one is found by the check and not sent again, a failed one is.
    expect(await drawn(FAULTS, 9)).toEqual(['drop', 'drop', 'error', 'ok', 'drop', 'error', 'drop', 'ok', expect.any(String)]);
  });

  it('a create converges in one run with no error', async () => {
    const docs = [subscription, sources(FIRST)];
    expect(planLines((await e.plan(docs)).plan)).toEqual(['create EventSources/audit-sources']);
    await e.converge(docs);
    // A run that succeeded leaves no document with two live resources, and no type twice.
    await expectNoUnreportedDuplicates(plainLister(e), STACK, undefined, 'after the run');
    expect(await liveTypes()).toEqual([...FIRST].sort());
  });

  it('an update (types added and removed) converges in one run with no error', async () => {
    const docs = [subscription, sources(SECOND)];
    expect(planLines((await e.plan(docs)).plan)).toEqual(['update EventSources/audit-sources /types']);
    await e.converge(docs);
    // A run that succeeded leaves no document with two live resources, and no type twice.
    await expectNoUnreportedDuplicates(plainLister(e), STACK, undefined, 'after the run');
    expect(await liveTypes()).toEqual([...SECOND].sort());
  });
});
