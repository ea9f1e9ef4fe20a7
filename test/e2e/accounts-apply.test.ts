// The reconciler needs no change for accounts (issue 22): a key is an account, so an apply with account B's
// key never sees or touches account A's stack, even under the same stack name. Through the real CLI (`edgeops
// plan/apply` with EDGEOPS_API_URL / EDGEOPS_API_KEY / EDGEOPS_STACK) against one service with two accounts:
// A applies; B applies a different manifest (the same document names) as the same stack and creates its own;
// A's plan still shows no changes; A's stack lock does not hold B up; a hostport of A's is a plan error of B's,
// naming nothing of A's and refusing B's apply before any write; B's destroy leaves A's resources as they were, byte for byte.
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { stringify } from 'yaml';
import { createApi } from '../../src/client/http.ts';
import { parseMetadata } from '../../src/kinds/marker.ts';
import { startService, type RunningService } from '../../src/service/server.ts';
import { edgeops, output, type RunResult } from '../cli/run.ts';
import { api, storeOf, type ApiClient } from '../helpers/service.ts';
import { holdStackLock } from '../helpers/stack-lock.ts';
import { newKey } from '../service/accounts-fixtures.ts';
import { allKinds, LISTS, makeCerts } from './fixtures.ts';
import type { Doc } from './harness.ts';

const STACK = 'shared';
const base = mkdtempSync(join(tmpdir(), 'edgeops-accounts-apply-'));
const keys = { a: newKey('alpha'), b: newKey('bravo') };
let svc: RunningService;
let A: ApiClient;
let B: ApiClient;
let docsA: Doc[];
let docsB: Doc[];

function writeDocs(name: string, set: Doc[]): string {
  const dir = join(base, name);
  mkdirSync(dir, { recursive: true });
  if (set.length > 0) writeFileSync(join(dir, 'all.yaml'), set.map((d) => stringify(d)).join('---\n'));
  else writeFileSync(join(dir, 'edgeops.yaml'), `stack: ${STACK}\n`);
  return dir;
}

const cli = (key: string, args: string[]): Promise<RunResult> =>
  edgeops(args, { cwd: base, env: { EDGEOPS_API_URL: svc.url, EDGEOPS_API_KEY: key, EDGEOPS_STACK: STACK } });

/** Every list of an account as raw bytes (edges carry their modules and routes, subscriptions their sources). */
async function rawLists(c: ApiClient): Promise<Record<string, string>> {
  const out: Record<string, string> = {};
  for (const [kind, [path]] of Object.entries(LISTS)) out[kind] = (await c.get(`${path}?limit=100`)).text;
  return out;
}

/** `Kind/name` of each resource of the stack an account holds. */
async function managed(c: ApiClient): Promise<string[]> {
  const names: string[] = [];
  for (const [path, key] of Object.values(LISTS)) {
    for (const item of (await c.listAll(path, key)) as { metadata?: string }[]) {
      const marker = parseMetadata(item.metadata).marker;
      if (marker?.stack === STACK) names.push(marker.name);
    }
  }
  return names.sort();
}

const ids = (lists: Record<string, string>): string[] => [...new Set(Object.values(lists).join('\n').match(/[a-z]+_[0-9A-Za-z]{27}/g) ?? [])];
const counts = (r: RunResult) => /Apply complete: (\d+) created, (\d+) updated, (\d+) replaced, (\d+) deleted\./.exec(r.stdout)?.slice(1).map(Number);

/** B's manifest: the same names as A's for most documents, other values and hostports; one of A's left out, one added. */
function bravo(docs: Doc[]): Doc[] {
  const out = docs
    .filter((d) => d.name !== 'shop')
    .map((d) => {
      const copy = structuredClone(d) as Doc & { description?: string; hostports?: string[] };
      if (typeof copy.description === 'string') copy.description = `bravo ${copy.description}`;
      if (copy.hostports) copy.hostports = copy.hostports.map((h) => `bravo-${h}`);
      return copy;
    });
  return [...out, { kind: 'IPPolicy', name: 'bravo-only', description: 'only in bravo' }];
}

beforeAll(async () => {
  svc = await startService({
    host: '127.0.0.1', port: 0, db: storeOf(join(base, 'service.db')), accounts: [`team-alpha=${keys.a}`, `team-bravo=${keys.b}`], quiet: true,
  });
  A = api({ url: svc.url, apiKey: keys.a });
  B = api({ url: svc.url, apiKey: keys.b });
  docsA = allKinds(await makeCerts());
  docsB = bravo(allKinds(await makeCerts()));
}, 60_000);
afterAll(async () => {
  await svc?.close();
  rmSync(base, { recursive: true, force: true });
});

describe('applies of two accounts under the same stack name', () => {
  it("B never sees, changes or deletes A's stack; B's destroy leaves A's resources as they were", async () => {
    const dirA = writeDocs('alpha', docsA);
    const dirB = writeDocs('bravo', docsB);

    const first = await cli(keys.a, ['apply', dirA, '--auto-approve']);
    expect(first.code, output(first)).toBe(0);
    const madeA = counts(first)!;
    expect(madeA.slice(1)).toEqual([0, 0, 0]);
    const before = await rawLists(A);
    const idsOfA = ids(before);
    expect(idsOfA.length).toBeGreaterThan(10);
    const namesOfA = await managed(A);

    // B's plan of A's very manifest: everything to create, as B holds nothing of the stack; but every hostport
    // is A's, held outside B's account: a plan error each, naming nothing of A's.
    const seen = await cli(keys.b, ['plan', dirA, '--format', 'json']);
    expect(seen.code, output(seen)).toBe(1);
    const seenPlan = JSON.parse(seen.stdout) as { summary: Record<string, number>; resources: { action: string; live_id: string | null }[] };
    expect(seenPlan.summary).toMatchObject({ create: madeA[0], update: 0, replace: 0, delete: 0 });
    expect(new Set(seenPlan.resources.map((r) => r.action))).toEqual(new Set(['create']));
    expect(seenPlan.resources.map((r) => r.live_id).filter((id) => id !== null)).toEqual([]);
    const hostportsOfA = docsA.flatMap((d) => (d as Doc & { hostports?: string[] }).hostports ?? []);
    expect(hostportsOfA.length).toBeGreaterThan(2);
    for (const h of hostportsOfA) expect(output(seen)).toContain(`hostport ${h} is held outside this account`);

    const applied = await cli(keys.b, ['apply', dirB, '--auto-approve']);
    expect(applied.code, output(applied)).toBe(0);
    expect(counts(applied)!.slice(1), applied.stdout).toEqual([0, 0, 0]);
    expect(counts(applied)![0]).toBe(madeA[0]);
    expect(await rawLists(A)).toEqual(before);
    expect(await managed(A)).toEqual(namesOfA);
    const namesOfB = await managed(B);
    expect(namesOfB).toContain('IPPolicy/bravo-only');
    expect(namesOfB).not.toContain('HTTPSEdge/shop');
    expect(ids(await rawLists(B)).filter((id) => idsOfA.includes(id))).toEqual([]);

    // Each account's plan of its own manifest: no changes.
    for (const [key, dir] of [[keys.a, dirA], [keys.b, dirB]] as const) {
      const plan = await cli(key, ['plan', dir, '--detailed-exitcode']);
      expect(plan.code, output(plan)).toBe(0);
      expect(plan.stdout).toContain('No changes.');
    }

    // A's lock of the stack does not hold B's apply of the same stack name.
    const lock = await holdStackLock(createApi({ url: svc.url, apiKey: keys.a }), STACK, { holder: 'alpha@ci pid 1' });
    try {
      const r = await cli(keys.b, ['apply', dirB, '--auto-approve', '--lock-timeout', '0']);
      expect(r.code, output(r)).toBe(0);
      expect(r.stdout).toContain('No changes.');
    } finally {
      await lock.release();
    }
    expect(await rawLists(A)).toEqual(before);

    // A hostport of A's refuses B's apply before anything is written, without a word of which account or edge holds it.
    const taken = (docsA.find((d) => d.name === 'ssh') as Doc & { hostports: string[] }).hostports[0]!;
    const listsOfB = await rawLists(B);
    const clash = await cli(keys.b, ['apply', writeDocs('clash', [...docsB, { kind: 'TCPEdge', name: 'clash', description: 'bravo clash', hostports: [taken] }]), '--auto-approve']);
    expect(clash.code, output(clash)).toBe(1);
    expect(output(clash)).toMatch(new RegExp(`clash/all\\.yaml:\\d+:\\d+: TCPEdge/clash: hostport ${taken.replace(/\./g, '\\.')} is held outside this account`));
    for (const id of idsOfA) expect(output(clash)).not.toContain(id);
    expect(await rawLists(A)).toEqual(before);
    expect(await rawLists(B)).toEqual(listsOfB);

    // B destroys its stack: every resource of B's goes, none of A's.
    const destroyed = await cli(keys.b, ['apply', writeDocs('empty', []), '--auto-approve', '--destroy']);
    expect(destroyed.code, output(destroyed)).toBe(0);
    expect(destroyed.stdout).toContain(`This plan DESTROYS stack "${STACK}"`);
    expect(counts(destroyed)).toEqual([0, 0, 0, counts(applied)![0]]);
    expect(await managed(B)).toEqual([]);
    for (const [path, key] of Object.values(LISTS)) expect(await B.listAll(path, key), path).toEqual([]);
    expect(await rawLists(A)).toEqual(before);
    const after = await cli(keys.a, ['plan', dirA, '--detailed-exitcode']);
    expect(after.code, output(after)).toBe(0);
    expect(after.stdout).toContain('No changes.');

    // Nothing B ran printed an id of A's.
    for (const r of [seen, applied, clash, destroyed]) for (const id of idsOfA) expect(output(r)).not.toContain(id);
  }, 240_000);
});
