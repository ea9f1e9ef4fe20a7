// Starts the real service for tests (127.0.0.1, random port, one API key) on the store the test project names:
// a temp SQLite file, or (EDGEOPS_TEST_STORE=postgres) a schema of its own in the test run's PostgreSQL. Gives a
// small HTTP client over undici plus assertions and a seeded fuzz generator shared by every service test file.
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createHash, randomBytes } from 'node:crypto';
import { request } from 'undici';
import { afterAll, beforeAll, expect, inject } from 'vitest';
import { seededRandom } from '../../src/service/seeded-random.ts';
import { startService } from '../../src/service/server.ts';
import { late } from './late.ts';

export interface TestService {
  url: string;
  apiKey: string;
  /** Where the data lives, as a test names it: an SQLite file path, also on PostgreSQL (see storeOf). */
  dbFile: string;
  /** What the service was given as its db: the file, or the PostgreSQL URL of the test's schema. */
  db: string;
  close(): Promise<void>;
}

/** Which store the test project runs the service on. */
export const TEST_STORE: 'sqlite' | 'postgres' = process.env.EDGEOPS_TEST_STORE === 'postgres' ? 'postgres' : 'sqlite';

/**
 * The service's db for a test's file name: the file itself on SQLite; on PostgreSQL a schema named after the
 * path, so a second service given the same file (a restart, a second instance) opens the same data.
 */
export function storeOf(dbFile: string): string {
  if (TEST_STORE === 'sqlite') return dbFile;
  const base = inject('pgUrl');
  const schema = `t_${createHash('sha256').update(dbFile).digest('hex').slice(0, 24)}`;
  return `${base}${base.includes('?') ? '&' : '?'}schema=${schema}`;
}

/** A temp SQLite file (removed on close unless dbFile was given, so a restart test can reopen it). */
export async function startTestService(opts: { dbFile?: string; rateLimit?: number; faults?: unknown } = {}): Promise<TestService> {
  const dir = opts.dbFile ? undefined : mkdtempSync(join(tmpdir(), 'edgeops-svc-'));
  const dbFile = opts.dbFile ?? join(dir!, 'service.db');
  const db = storeOf(dbFile);
  const apiKey = `test-${randomBytes(12).toString('hex')}`;
  const service = await startService({ host: '127.0.0.1', port: 0, apiKeys: [apiKey], db, rateLimit: opts.rateLimit, faults: opts.faults, quiet: TEST_STORE === 'postgres' ? true : undefined,
    // No test of this helper's services is about power loss; the durability tests start their own (serve.test.ts).
    durability: 'relaxed' });
  return {
    url: service.url,
    apiKey,
    dbFile,
    db,
    close: async () => {
      await service.close();
      if (dir) rmSync(dir, { recursive: true, force: true });
    },
  };
}

/**
 * One service for the whole test file (started in beforeAll, closed in afterAll) and a client for it. Call it
 * before the file's own hooks, which then find both ready.
 */
export function serviceForFile(): { svc: TestService; c: ApiClient } {
  const svc = late<TestService>('the test service');
  const c = late<ApiClient>('the test client');
  beforeAll(async () => {
    const started = await startTestService();
    svc.set(started);
    c.set(api(started));
  });
  afterAll(async () => {
    await svc.get()?.close();
  });
  return { svc: svc.ref, c: c.ref };
}

/** A fresh temp directory for tests that manage their own dbFile (restart tests). */
export function tempDbFile(): { dbFile: string; cleanup(): void } {
  const dir = mkdtempSync(join(tmpdir(), 'edgeops-svc-'));
  return { dbFile: join(dir, 'service.db'), cleanup: () => rmSync(dir, { recursive: true, force: true }) };
}

export interface ApiResponse {
  status: number;
  headers: Record<string, string | string[] | undefined>;
  /** Parsed JSON, or undefined for an empty body. */
  // eslint-disable-next-line @typescript-eslint/no-explicit-any
  body: any;
  text: string;
}

export interface RawOptions {
  headers?: Record<string, string>;
  body?: string | Buffer;
  /** Drop the default Authorization / Service-Version / Content-Type headers. */
  bare?: boolean;
}

export interface ApiClient {
  get(path: string): Promise<ApiResponse>;
  post(path: string, body?: unknown): Promise<ApiResponse>;
  patch(path: string, body?: unknown): Promise<ApiResponse>;
  put(path: string, body?: unknown): Promise<ApiResponse>;
  del(path: string): Promise<ApiResponse>;
  raw(method: string, path: string, opts?: RawOptions): Promise<ApiResponse>;
  /** Every item of a list, following next_page_uri. */
  listAll(path: string, key: string): Promise<unknown[]>;
}

/** `path` may be a path ('/ip_policies') or an absolute URL (a next_page_uri). */
export function api(svc: { url: string; apiKey: string }, key = svc.apiKey): ApiClient {
  const defaults = { authorization: `Bearer ${key}`, 'service-version': '2' };
  async function raw(method: string, path: string, opts: RawOptions = {}): Promise<ApiResponse> {
    const url = path.startsWith('http') ? path : `${svc.url}${path}`;
    const headers = { ...(opts.bare ? {} : defaults), ...opts.headers };
    const res = await request(url, { method: method as 'GET', headers, body: opts.body });
    const text = await res.body.text();
    let body: unknown;
    if (text !== '') {
      try {
        body = JSON.parse(text);
      } catch {
        body = text;
      }
    }
    return { status: res.statusCode, headers: res.headers, body, text };
  }
  const json = (method: string) => (path: string, body?: unknown) =>
    raw(method, path, body === undefined ? {} : { body: JSON.stringify(body), headers: { 'content-type': 'application/json' } });
  const client: ApiClient = {
    get: (path) => raw('GET', path),
    post: json('POST'),
    patch: json('PATCH'),
    put: json('PUT'),
    del: (path) => raw('DELETE', path),
    raw,
    listAll: async (path, key) => {
      const items: unknown[] = [];
      let next: string | null = path;
      while (next) {
        const r = await raw('GET', next);
        expect(r.status, r.text).toBe(200);
        items.push(...(r.body[key] as unknown[]));
        next = r.body.next_page_uri as string | null;
      }
      return items;
    },
  };
  return client;
}

/** The error envelope, exactly: status, code, a message, and an operation id matching the response header. */
export function expectError(r: ApiResponse, status: number, code: string, msgIncludes?: string): void {
  expect({ status: r.status, code: r.body?.error_code }, r.text).toEqual({ status, code });
  expect(Object.keys(r.body).sort()).toEqual(['details', 'error_code', 'msg', 'status_code']);
  expect(r.body.status_code).toBe(status);
  expect(typeof r.body.msg).toBe('string');
  expect(r.body.details).toEqual({ operation_id: expect.stringMatching(/^op_[0-9A-Za-z]{27}$/) });
  expect(r.headers['service-operation-id']).toBe(r.body.details.operation_id);
  if (msgIncludes !== undefined) expect(r.body.msg).toContain(msgIncludes);
}

export const ID_SUFFIX = /[0-9A-Za-z]{27}$/;
export const TIMESTAMP = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}Z$/;

// --- seeded fuzzing -------------------------------------------------------------------------------------

/** A seeded PRNG (the service's own), so a failing fuzz case reproduces from its seed. */
export const prng = (seed: number): Rng => seededRandom(seed);

export type Rng = () => number;
const pick = <T>(rng: Rng, items: readonly T[]): T => items[Math.floor(rng() * items.length)]!;

/** Any JSON value, biased towards the ones that break validators: wrong types, huge and odd strings, nesting. */
export function junkValue(rng: Rng, depth = 0): unknown {
  const choices: (() => unknown)[] = [
    () => null, () => true, () => false, () => 0, () => -1, () => 1.5, () => 1e308, () => -2147483649,
    () => '', () => 'x', () => 'x'.repeat(5000), () => '\u0000\uffff\ud83d\ude00', () => '../../etc', () => '10.0.0.0/33',
    () => 'ipp_' + 'A'.repeat(27), () => '__proto__', () => '1.2.3.4/24', () => 'Content-Type', () => '{"a":1}',
    () => [], () => ({}),
    () => (depth < 3 ? Array.from({ length: Math.floor(rng() * 4) }, () => junkValue(rng, depth + 1)) : []),
    () => (depth < 3 ? Object.fromEntries(Array.from({ length: Math.floor(rng() * 4) }, () => [pick(rng, ['a', 'enabled', 'id', '__proto__', 'constructor', 'x'.repeat(300)]), junkValue(rng, depth + 1)])) : {}),
  ];
  return pick(rng, choices)();
}

/** A valid body with one field replaced by junk, an unknown field added, or a field removed. */
export function mutateBody(rng: Rng, valid: Record<string, unknown>): Record<string, unknown> {
  const body = structuredClone(valid);
  const keys = Object.keys(body);
  const roll = rng();
  if (roll < 0.6 && keys.length > 0) body[pick(rng, keys)] = junkValue(rng);
  else if (roll < 0.8) body[pick(rng, ['bogus', 'ID', 'uri', 'created_at', 'Description'])] = junkValue(rng);
  else if (keys.length > 0) delete body[pick(rng, keys)];
  return body;
}

/** Bodies that are not a JSON object at all. */
export function malformedRaw(rng: Rng): string {
  return pick(rng, ['{', '[]', 'null', '"str"', '42', '{"a":}', '{"a":1,}', "{'a':1}", 'true', '\u0000', '{"a":1}garbage', '[{}]', 'NaN', '{"description": "\\x"}', '{"a":1}{"b":2}']);
}
