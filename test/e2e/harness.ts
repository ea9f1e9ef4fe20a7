// End-to-end harness: the real service (startTestService), the real client and kinds, and manifests written
// as YAML files into a temp directory, so every scenario goes load -> resolve -> plan -> apply like the CLI.
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { stringify } from 'yaml';
import { afterAll, beforeAll, expect } from 'vitest';
import { createApi } from '../../src/client/http.ts';
import type { RetryPolicy } from '../../src/client/retry.ts';
import type { HttpApi } from '../../src/client/http.ts';
import { parseMetadata } from '../../src/kinds/marker.ts';
import type { Action, ApplyEvent, ApplyResult, Plan } from '../../src/engine/plan-data.ts';
import type { Obj } from '../../src/kinds/resource-kind.ts';
import { computePlan, executePlan, loadDesired } from '../../src/pipeline.ts';
import type { PlanContext } from '../../src/pipeline.ts';
import { late } from '../helpers/late.ts';
import { api as rawClient, startTestService } from '../helpers/service.ts';
import type { ApiClient, TestService } from '../helpers/service.ts';
import { makeCerts } from './fixtures.ts';
import type { Certs } from './fixtures.ts';

/** One manifest document: kind, name and the resource's fields. */
export type Doc = { kind: string; name: string } & Obj;

export interface E2E {
  svc: TestService;
  api: HttpApi;
  /** Plain HTTP to the service, for creating unmanaged resources and checking what is really there. */
  http: ApiClient;
  plan(docs: Doc[], stack?: string): Promise<PlanContext>;
  /** Plan, apply (asserting success) and return both; the pipeline's self-check runs inside. */
  apply(docs: Doc[], stack?: string, opts?: { concurrency?: number; events?: ApplyEvent[] }): Promise<{ ctx: PlanContext; result: ApplyResult }>;
  /** Apply, then assert that a fresh plan has no actions. */
  converge(docs: Doc[], stack?: string): Promise<PlanContext>;
  close(): Promise<void>;
}

export const STACK = 'e2e';

/**
 * `dbFile` keeps the data for a later service on the same file; `faults` as startTestService takes them;
 * `retry` overrides the client's retry policy (e.g. a short outage budget against a service that never heals).
 */
export async function startE2E(opts: { dbFile?: string; faults?: unknown; retry?: Partial<RetryPolicy> } = {}): Promise<E2E> {
  const svc = await startTestService({ dbFile: opts.dbFile, faults: opts.faults });
  const api = createApi({ url: svc.url, apiKey: svc.apiKey, retry: opts.retry });
  const dir = mkdtempSync(join(tmpdir(), 'edgeops-e2e-'));
  const load = async (docs: Doc[]) => {
    writeFileSync(join(dir, 'all.yaml'), docs.map((d) => stringify(d)).join('---\n'));
    // No documents is a deliberate destroy here (tests empty a stack), as --destroy allows on the command line.
    return loadDesired([dir], {}, { allowEmpty: docs.length === 0 });
  };
  const e: E2E = {
    svc,
    api,
    http: rawClient(svc),
    async plan(docs, stack = STACK) {
      return computePlan(await load(docs), api, { stack });
    },
    async apply(docs, stack = STACK, opts = {}) {
      const ctx = await e.plan(docs, stack);
      const result = await executePlan(ctx, api, {
        stack,
        concurrency: opts.concurrency ?? 8,
        onEvent: opts.events ? (ev) => opts.events!.push(ev) : undefined,
      });
      const failures = result.results.filter((r) => r.status !== 'done');
      expect(failures, JSON.stringify(failures)).toEqual([]);
      expect(result.ok).toBe(true);
      return { ctx, result };
    },
    async converge(docs, stack = STACK) {
      await e.apply(docs, stack);
      const again = await e.plan(docs, stack);
      expect(planLines(again.plan)).toEqual([]);
      return again;
    },
    async close() {
      await api.close();
      await svc.close();
      rmSync(dir, { recursive: true, force: true });
    },
  };
  return e;
}

/**
 * The scenario of one test file: a service and the pipeline over it (startE2E), made in beforeAll and closed
 * in afterAll, with the test certificates unless `certs: false`; `converge` applies a base set first (every
 * case then edits it). Call it before the file's own hooks, which then find everything ready.
 */
export function e2eForFile(opts: { certs?: boolean; converge?: (certs: Certs) => Doc[] } = {}): { e: E2E; certs: Certs } {
  const e = late<E2E>('the e2e service');
  const certs = late<Certs>('the e2e certificates');
  beforeAll(async () => {
    e.set(await startE2E());
    if (opts.certs !== false) certs.set(await makeCerts());
    if (opts.converge) await e.ref.converge(opts.converge(certs.ref));
  });
  afterAll(async () => e.get()?.close());
  return { e: e.ref, certs: certs.ref };
}

/** A plan as readable lines (`update TCPEdge/ssh /description`), for exact assertions. */
export function planLines(plan: Plan): string[] {
  return plan.actions.map((a) => `${a.op} ${a.address}${a.module ? `:${a.module}` : ''}${paths(a)}`);
}

function paths(a: Action): string {
  if (a.op === 'create' || a.op === 'delete') return '';
  return ' ' + a.changes.map((c) => c.path).join(',');
}

/** Every live item of a list endpoint, through plain HTTP. */
export async function listRaw(e: E2E, path: string, key: string): Promise<Obj[]> {
  return (await e.http.listAll(path, key)) as Obj[];
}

/** The `Kind/name` a raw item's marker names for a stack, if any. */
export function ownerOf(raw: Obj, stack = STACK): string | undefined {
  const { marker } = parseMetadata(raw.metadata);
  return marker && marker.stack === stack ? marker.name : undefined;
}

/** The live id of a managed resource, found through plain HTTP by its marker. */
export async function idOf(e: E2E, path: string, key: string, address: string, stack = STACK): Promise<string> {
  const found = (await listRaw(e, path, key)).filter((r) => ownerOf(r, stack) === address);
  expect(found.map((r) => r.id), `live copies of ${address}`).toHaveLength(1);
  return String(found[0]!.id);
}

/** A copy of `docs` with one document changed. */
export function edit(docs: Doc[], address: string, change: (doc: Doc) => void): Doc[] {
  let hit = false;
  const out = docs.map((d) => {
    const copy = structuredClone(d);
    if (`${d.kind}/${d.name}` === address) {
      change(copy);
      hit = true;
    }
    return copy;
  });
  if (!hit) throw new Error(`no document ${address}`);
  return out;
}

export function without(docs: Doc[], ...addresses: string[]): Doc[] {
  return docs.filter((d) => !addresses.includes(`${d.kind}/${d.name}`));
}
