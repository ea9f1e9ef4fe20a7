// Mistakes at the edges of a run, each answered with one line that names the URL or path and the likely cause,
// exit 1, never "internal error": a stopped service (one that never answered is retried for a few seconds, not
// for the retry budget, and the line says so), a host that does not resolve, https:// to a plain-HTTP
// service, a service that accepts connections and never answers (with a short --timeout), a bad --timeout, and
// `serve --db` paths that cannot be a database.
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { createServer, type Server, type Socket } from 'node:net';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestService, type TestService } from '../helpers/service.ts';
import { ROOT, edgeops, type RunResult } from './run.ts';

const manifests = join(ROOT, 'examples/basic');
const base = mkdtempSync(join(tmpdir(), 'edgeops-edge-errors-'));
let svc: TestService;
let silent: Server;
const sockets: Socket[] = [];

async function listen(server: Server): Promise<number> {
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return (server.address() as AddressInfo).port;
}

beforeAll(async () => {
  svc = await startTestService();
  // Accepts every connection and never says a word.
  silent = createServer((socket) => sockets.push(socket));
});
afterAll(async () => {
  for (const s of sockets) s.destroy();
  silent?.close();
  await svc?.close();
  rmSync(base, { recursive: true, force: true });
});

/** The run failed with exactly one line on stderr matching `line`, and nothing says "internal error". */
function expectOneLine(r: RunResult, line: RegExp): void {
  expect(r.code, r.stderr).toBe(1);
  const lines = r.stderr.trim().split('\n');
  expect(lines, r.stderr).toHaveLength(1);
  expect(lines[0]).toMatch(line);
  expect(`${r.stdout}${r.stderr}`).not.toContain('internal error');
}

const plan = (url: string, ...extra: string[]): Promise<RunResult> =>
  edgeops(['plan', manifests, '--api-url', url, '--api-key', 'k', ...extra], { cwd: base });

describe('a service that cannot be reached', () => {
  it('connection refused: names the URL and asks whether the service runs', async () => {
    const closed = createServer();
    const port = await listen(closed);
    await new Promise<void>((resolve) => closed.close(() => resolve()));
    // Budget 0: give up after the quick retries instead of riding out an outage (the default 60 s).
    const r = await plan(`http://127.0.0.1:${port}`, '--retry-budget', '0');
    expectOneLine(r, new RegExp(`^edgeops: cannot connect to http://127\\.0\\.0\\.1:${port}: connection refused; is the service running there\\?`));
  });

  it('connection refused by a service that never answered: no outage line, one error naming the budget as given', async () => {
    const closed = createServer();
    const port = await listen(closed);
    await new Promise<void>((resolve) => closed.close(() => resolve()));
    // The budget is for a service that goes away after answering; this one never did, so it is retried briefly.
    const r = await plan(`http://127.0.0.1:${port}`, '--retry-budget', '3');
    expectOneLine(r, new RegExp(`^edgeops: cannot connect to http://127\\.0\\.0\\.1:${port}: connection refused; is the service running there\\?.*` +
      'gave up after \\d+ s, as the service has not answered once in this run \\(--retry-budget, 3 s, is for a service that stops answering'));
  });

  it('a host name that does not resolve (retried briefly, as a service not started yet may not be in the DNS)', async () => {
    const r = await plan('http://edgeops-test.invalid:4010');
    expectOneLine(r, /^edgeops: cannot reach http:\/\/edgeops-test\.invalid:4010: the host name "edgeops-test\.invalid" does not resolve.*--retry-budget/);
  });

  it('https:// to a plain-HTTP service: says it does not speak TLS', async () => {
    const r = await plan(svc.url.replace('http://', 'https://'));
    expectOneLine(r, /^edgeops: TLS handshake with https:\/\/127\.0\.0\.1:\d+ failed: the server does not speak TLS there \(a plain-HTTP service\? then use http:\/\/\)/);
  });

  it('a service that never answers: gives up after --timeout, saying so', async () => {
    const port = await listen(silent);
    const [r, fromEnv] = await Promise.all([
      plan(`http://127.0.0.1:${port}`, '--timeout', '0.5'),
      edgeops(['plan', manifests, '--api-url', `http://127.0.0.1:${port}`, '--api-key', 'k'], { cwd: base, env: { EDGEOPS_TIMEOUT: '0.5' } }),
    ]);
    expectOneLine(r, new RegExp(`^edgeops: no answer from http://127\\.0\\.0\\.1:${port} within 0\\.5 s: the server accepted the connection but sent no answer.*--timeout SECONDS or EDGEOPS_TIMEOUT`));
    expectOneLine(fromEnv, /within 0\.5 s/);
  });

  it('a --timeout that is not a number of seconds', async () => {
    for (const bad of ['0', 'soon', '-1', '99999']) {
      expectOneLine(await plan(svc.url, '--timeout', bad), /^edgeops: --timeout: timeout must be a number of seconds above 0 and at most 3600/);
    }
    const env = await edgeops(['plan', manifests, '--api-url', svc.url, '--api-key', 'k'], { cwd: base, env: { EDGEOPS_TIMEOUT: 'x' } });
    expectOneLine(env, /^edgeops: EDGEOPS_TIMEOUT: timeout must be/);
  });
});

describe('manifest syntax', () => {
  it('an unclosed quote is reported where it opens, not where the file ends', async () => {
    const dir = join(base, 'quotes');
    mkdirSync(dir);
    writeFileSync(join(dir, 'a.yaml'), 'kind: IPPolicy\nname: office # it\'s ours\ndescription: "unclosed\nmetadata: {a: \'x\'\'y\'}\n---\nkind: IPPolicy\nname: second\n');
    writeFileSync(join(dir, 'b.yaml'), "kind: IPPolicy\nname: b\ndescription: it's fine\nmetadata: {note: 'open}\n");
    const r = await edgeops(['validate', dir], { cwd: base });
    expect(r.code).toBe(1);
    expect(r.stderr).toContain('a.yaml:3:14: invalid YAML: the double-quoted value starting here is never closed');
    expect(r.stderr).toContain('b.yaml:4:18: invalid YAML: the single-quoted value starting here is never closed');
    expect(r.stderr).not.toContain('internal error');
  });
});

describe('serve --db', () => {
  it('a directory that does not exist', async () => {
    const r = await edgeops(['serve', '--port', '0', '--db', '/nonexistent/dir/x.db'], { cwd: base });
    expectOneLine(r, /^edgeops: --db \/nonexistent\/dir\/x\.db: the directory \/nonexistent\/dir does not exist/);
  });

  it('a file that is not an SQLite database (a manifest given by mistake)', async () => {
    const yaml = join(base, 'some.yaml');
    writeFileSync(yaml, 'kind: IPPolicy\nname: office\n');
    const r = await edgeops(['serve', '--port', '0', '--db', yaml], { cwd: base });
    expectOneLine(r, /^edgeops: --db .*some\.yaml: it is not an SQLite database \(is it a manifest or another file\?\)/);
  });

  it('a directory', async () => {
    const r = await edgeops(['serve', '--port', '0', '--db', base], { cwd: base });
    expectOneLine(r, /^edgeops: --db .*: it is a directory; give a file name in it/);
  });
});
