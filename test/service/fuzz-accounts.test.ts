// The service fuzz with a second account (issue 22). Account A holds a document of every kind; account B's key
// sends seeded random and mutated requests that name A's ids: fuzz-core's certainly-invalid bodies (badRequest)
// for every write route, with A's ids in paths and as poison in reference and echoed-id fields, then random
// requests at every path and method with A's, B's and junk ids in paths, bodies and cursors. Every answer must
// equal the answer to the same request with random ids of the same prefixes in place of A's, hold none of A's
// data, and no write may succeed; A's documents and B's own read back byte for byte as before.
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startService, type RunningService } from '../../src/service/server.ts';
import { api, junkValue, malformedRaw, mutateBody, prng, storeOf, type Rng } from '../helpers/service.ts';
import {
  BODY_METHODS, echoFields, fill, idArrays, METHODS, newKey, occurrences, ownParams, paramsOf, PATHS, populate, problemsOf,
  replaced, roleOf, ROUTES, runProbe, snapshot, validBody, type Account, type Probe, type ProbeResult,
} from './accounts-fixtures.ts';
import { badRequest, expectClientError, INVALID_TEXT, type FuzzEndpoint } from './fuzz-requests.ts';

const SEED = Number(process.env.FUZZ_SEED ?? 20240622);
const dir = mkdtempSync(join(tmpdir(), 'edgeops-fuzz-accounts-'));
let svc: RunningService;
let A: Account;
let B: Account;

beforeAll(async () => {
  const keys = { a: newKey('alpha'), b: newKey('bravo') };
  svc = await startService({ host: '127.0.0.1', port: 0, db: storeOf(join(dir, 'service.db')), accounts: [`team-alpha=${keys.a}`, `team-bravo=${keys.b}`], quiet: true });
  A = await populate(api({ url: svc.url, apiKey: keys.a }), 'team-alpha', keys.a, 'alpha', 23000);
  B = await populate(api({ url: svc.url, apiKey: keys.b }), 'team-bravo', keys.b, 'bravo', 24000);
  A.secrets.push(A.name, A.key);
}, 120_000);
afterAll(async () => {
  await svc?.close();
  rmSync(dir, { recursive: true, force: true });
});

const pick = <T>(rng: Rng, items: readonly T[]): T => items[Math.floor(rng() * items.length)]!;
const aIdsOf = (acct: Account): string[] => [...Object.values(acct.ids), ...Object.values(acct.gone)];

/** The ids of A the request names (in its path, query or body). */
function foreignIn(text: string): string[] {
  return aIdsOf(A).filter((id) => text.includes(id));
}

/**
 * Checks one answer of the fuzz: the differential and leak checks, a 4xx envelope where the request is certainly
 * invalid, and no successful write.
 */
function check(result: ProbeResult, problems: string[], opts: { invalid: boolean }): void {
  problems.push(...problemsOf(result, A.secrets));
  const what = `${result.probe.method} ${result.sent.slice(0, 300)}`;
  if (opts.invalid) expectClientError({ status: result.foreign.status, headers: {}, body: reop(result.foreign.body), text: result.foreign.text }, what);
  if (result.probe.method !== 'GET' && result.foreign.status < 400) problems.push(`${what}\n    a write of B's naming A's ids succeeded: ${result.foreign.status} ${result.foreign.text.slice(0, 300)}`);
}

/** expectClientError wants a real operation id; the normalized answer has a placeholder. */
function reop(body: unknown): unknown {
  if (body === null || typeof body !== 'object' || !('details' in body)) return body;
  return { ...body, details: { operation_id: `op_${'0'.repeat(27)}` } };
}

/**
 * fuzz-core's endpoints, for every write route of the API: B's valid body for it, broken by badRequest, with A's
 * ids as the poison of every field that holds an id, and as the path's ids (or B's own, so the body is read).
 */
function endpoints(): FuzzEndpoint[] {
  const aIds = aIdsOf(A);
  const bIds = new Set(Object.values(B.ids));
  const out: FuzzEndpoint[] = [];
  for (const route of ROUTES.filter((r) => BODY_METHODS.has(r.method))) {
    const valid = validBody(route.method, route.path, B)!;
    const fields: Record<string, () => readonly unknown[]> = {};
    for (const key of Object.keys(valid)) {
      if (key === 'description' || key === 'metadata') fields[key] = INVALID_TEXT[key];
      // A field holding B's ids (a reference, or a module holding references): each with one of A's ids instead.
      const at = occurrences(valid[key], bIds);
      const lists = idArrays(valid[key], bIds);
      if (at.length > 0) {
        fields[key] = () => [
          ...at.flatMap((p) => aIds.map((id) => replaced(valid[key], p, id))),
          ...lists.flatMap((p) => aIds.map((id) => replaced(valid[key], p, [id]))),
        ];
      }
    }
    for (const field of echoFields(route.path)) fields[field] = () => aIds;
    if (roleOf(route.path).role !== 'module' && (roleOf(route.path) as { kind?: { kind: string } }).kind?.kind === 'event_subscription') {
      fields.destination_ids = () => aIds.map((id) => [id]);
    }
    const params = paramsOf(route.path).filter((p) => p.kind);
    const own = fill(route.path, ownParams(route.path, B));
    out.push({ method: route.method as FuzzEndpoint['method'], path: () => own, valid: () => valid, fields });
    if (params.length > 0) {
      const values = ownParams(route.path, B);
      for (const p of params) values[p.name] = A.ids[p.kind!.kind]!;
      if (values.subscription_id === A.ids.event_subscription) values.type = A.types[0]!;
      const foreign = fill(route.path, values);
      out.push({ method: route.method as FuzzEndpoint['method'], path: () => foreign, valid: () => valid, fields });
    }
  }
  return out;
}

/** A random request at any path and method: A's, B's, deleted and junk ids; mutated bodies; cursors. */
function randomProbe(rng: Rng): Probe {
  const aIds = aIdsOf(A);
  const path = pick(rng, PATHS);
  const method = pick(rng, METHODS);
  const values = ownParams(path, B);
  const idParams = paramsOf(path).filter((p) => p.kind);
  for (const p of idParams) {
    const roll = rng();
    if (roll < 0.4) values[p.name] = A.ids[p.kind!.kind]!;
    else if (roll < 0.6) values[p.name] = pick(rng, aIds);
    else if (roll < 0.65) values[p.name] = pick(rng, [`${p.kind!.prefix}_${'A'.repeat(27)}`, 'x', '..', A.ids[p.kind!.kind]!.toLowerCase(), `${A.ids[p.kind!.kind]}x`, ' ']);
  }
  if (values.subscription_id === A.ids.event_subscription) values.type = pick(rng, [...A.types, ...B.types]);
  const roleName = roleOf(path).role;
  let query = '';
  if (method === 'GET' && rng() < 0.6) {
    const parts: string[] = [];
    const roll = rng();
    const cursor = roll < 0.6 ? pick(rng, aIds) : roll < 0.8 ? pick(rng, Object.values(B.ids)) : String(junkValue(rng)).slice(0, 50);
    parts.push(`${rng() < 0.8 ? 'before_id' : 'beforeId'}=${encodeURIComponent(cursor)}`);
    if (rng() < 0.3) parts.push(`limit=${pick(rng, ['1', '2', '100', '0', '101', 'x', '-1'])}`);
    if (rng() < 0.1) parts.push(pick(rng, ['bogus=1', 'before_id=x', 'limit=1']));
    query = `?${parts.join('&')}`;
  }
  const probe: Probe = { method, path: `${fill(path, values)}${query}`, foreign: [], what: `random ${method} ${path}` };
  if (BODY_METHODS.has(method)) {
    const roll = rng();
    if (roll < 0.08) {
      probe.raw = malformedRaw(rng);
    } else {
      let body = validBody(method, path, B) ?? {};
      if (rng() < 0.4) body = mutateBody(rng, body);
      const refs = occurrences(body, new Set(Object.values(B.ids)));
      if (refs.length > 0 && rng() < 0.6) body = replaced(body, pick(rng, refs), pick(rng, aIds)) as Record<string, unknown>;
      if (rng() < 0.25) body = { ...body, [pick(rng, [...echoFields(path), 'id', 'edge_id', 'subscription_id'])]: pick(rng, aIds) };
      if (roleName === 'module' && rng() < 0.2) body = { id: pick(rng, [values.id!, A.ids.ip_policy!]), module: body };
      probe.body = body;
    }
  }
  // Every probe names at least one id of A's: in a path parameter, else the cursor of a list, else the body.
  const text = () => `${probe.path} ${probe.raw ?? JSON.stringify(probe.body ?? null)}`;
  if (foreignIn(text()).length === 0) {
    if (idParams.length > 0) {
      const p = pick(rng, idParams);
      values[p.name] = A.ids[p.kind!.kind]!;
      probe.path = `${fill(path, values)}${query}`;
    } else if (method === 'GET') {
      probe.path = `${fill(path, values)}?before_id=${pick(rng, aIds)}`;
    } else {
      probe.raw = undefined;
      probe.body = { ...(validBody(method, path, B) ?? {}), id: pick(rng, aIds) };
    }
  }
  probe.foreign = foreignIn(text());
  return probe;
}

describe("fuzzing with a second account: B's key on A's ids", () => {
  it("fuzz-core's certainly-invalid requests at every write route: a 4xx as for ids that do not exist, nothing leaked or changed", async () => {
    const beforeA = await snapshot(A);
    const beforeB = await snapshot(B);
    const rng = prng(SEED);
    const problems: string[] = [];
    const count = Number(process.env.FUZZ_COUNT ?? 25);
    let sent = 0;
    for (const ep of endpoints()) {
      const batch: Probe[] = [];
      for (let i = 0; i < count; i++) {
        const req = badRequest(rng, ep);
        const path = ep.path();
        batch.push({ method: ep.method, path, raw: req.body, contentType: req.contentType, foreign: foreignIn(`${path} ${req.body}`), what: `fuzz-core ${ep.method} ${path}` });
      }
      const results = await Promise.all(batch.map((p) => runProbe(B.c, p)));
      for (const r of results) check(r, problems, { invalid: true });
      sent += batch.length;
    }
    expect(problems.slice(0, 20), `${problems.length} problems in ${sent} requests`).toEqual([]);
    expect(sent).toBeGreaterThan(1000);
    expect(await snapshot(A)).toEqual(beforeA);
    expect(await snapshot(B)).toEqual(beforeB);
  }, 300_000);

  it('random requests at every path and method, naming ids of A: the same invariants', async () => {
    const beforeA = await snapshot(A);
    const beforeB = await snapshot(B);
    const rng = prng(SEED + 1);
    const problems: string[] = [];
    const statuses = new Map<number, number>();
    const total = Number(process.env.FUZZ_COUNT ?? 25) * 40;
    for (let done = 0; done < total; done += 10) {
      const batch = Array.from({ length: 10 }, () => randomProbe(rng));
      for (const p of batch) expect(p.foreign.length, p.path).toBeGreaterThan(0);
      const results = await Promise.all(batch.map((p) => runProbe(B.c, p)));
      for (const r of results) {
        statuses.set(r.foreign.status, (statuses.get(r.foreign.status) ?? 0) + 1);
        check(r, problems, { invalid: false });
      }
    }
    expect(problems.slice(0, 20), `${problems.length} problems in ${total} requests`).toEqual([]);
    // Every answer a well-formed one: nothing a client sends here is a server fault.
    expect([...statuses.keys()].filter((s) => s >= 500)).toEqual([]);
    expect(await snapshot(A)).toEqual(beforeA);
    expect(await snapshot(B)).toEqual(beforeB);
  }, 300_000);
});
