// Property: any valid manifest set converges. For each seed, three generated sets (dozens of resources each:
// generate.ts for every kind with random references and modules, generate-wide.ts for literal ids of unmanaged
// resources, IPv6 rules, outbound policy rules, action configs and destination_ids) are applied in turn to one
// stack (so creates, updates, module changes, replaces and deletes mix), then everything is removed; after
// every apply the plan is empty, and what edgeops does not manage is never touched. A failing seed reproduces
// from its number.
import { beforeAll, describe, expect, it } from 'vitest';
import { prng } from '../helpers/service.ts';
import { LISTS } from './fixtures.ts';
import { generateSet } from './generate.ts';
import { generateWide, type Literals } from './generate-wide.ts';
import { e2eForFile, listRaw, ownerOf } from './harness.ts';

const { e, certs } = e2eForFile();

const SEEDS = [1, 2, 3, 5, 8, 13, 21, 34];
const PER_SET = 24;

let literals: Literals;

async function unmanaged(path: string, body: object): Promise<string> {
  const r = await e.http.post(path, body);
  expect(r.status, r.text).toBe(201);
  return String(r.body.id);
}

beforeAll(async () => {
  literals = {
    ipPolicy: await unmanaged('/ip_policies', { description: 'not managed: referenced by literal id' }),
    tunnelGroupBackend: await unmanaged('/backends/tunnel_group', { labels: { app: 'legacy' } }),
    httpResponseBackend: await unmanaged('/backends/http_response', { body: 'legacy', status_code: 503 }),
    certificateAuthority: await unmanaged('/certificate_authorities', { ca_pem: certs.ca2.certPem }),
  };
});

describe('random manifest sets converge', () => {
  it.each(SEEDS)('seed %i', async (seed) => {
    const rng = prng(seed);
    const stack = `prop-${seed}`;
    const before = await Promise.all(Object.values(literals).map((id) => e.http.listAll(...LISTS[kindOfId(id)]!)));
    let trafficPolicies = 0;
    for (let step = 0; step < 3; step++) {
      const docs = [...generateSet(rng, certs), ...generateWide(rng, literals, { caPem: certs.ca.certPem })];
      trafficPolicies += docs.filter((d) => d.traffic_policy).length;
      expect(docs.length, `set ${step + 1} of seed ${seed}`).toBeGreaterThanOrEqual(PER_SET);
      expect(new Set(docs.map((d) => d.kind)).size).toBeGreaterThanOrEqual(11);
      await e.converge(docs, stack);
    }
    expect(trafficPolicies, 'traffic_policy modules in the sets').toBeGreaterThan(0);
    await e.converge([], stack);
    const lists = await Promise.all(Object.values(LISTS).map((l) => listRaw(e, ...l)));
    expect(lists.flat().filter((r) => ownerOf(r, stack))).toEqual([]);
    // The unmanaged resources the sets named by id are still there, unchanged.
    const after = await Promise.all(Object.values(literals).map((id) => e.http.listAll(...LISTS[kindOfId(id)]!)));
    const pick = (lists: unknown[][]) => Object.values(literals).map((id, i) => lists[i]!.find((r) => (r as { id: string }).id === id));
    expect(pick(after)).toEqual(pick(before));
  });
});

function kindOfId(id: string): string {
  const prefixes: Record<string, string> = { ipp_: 'IPPolicy', bkdtg_: 'TunnelGroupBackend', bkdhr_: 'HTTPResponseBackend', ca_: 'CertificateAuthority' };
  return Object.entries(prefixes).find(([p]) => id.startsWith(p))![1];
}
