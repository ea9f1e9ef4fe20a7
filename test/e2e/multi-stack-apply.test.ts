// apply over a repository of three stacks (a copy of examples/multi-stack: edge/prod runs after edge/staging,
// partners is independent), through the real CLI against the real service behind a proxy that records every
// write with its stack and time: the dependent stack writes only after the one it comes after is done, a
// failure of the first skips the second, independent stacks apply at once, each stack takes its own lock,
// and approval is per stack (--checksum STACK=..., a stack without one not applied).
import { createServer, type IncomingMessage } from 'node:http';
import type { AddressInfo } from 'node:net';
import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { request } from 'undici';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createApi, type HttpApi } from '../../src/client/http.ts';
import { copyExample, edgeops, output, type RunResult } from '../cli/run.ts';
import { api as rawClient, startTestService, type TestService } from '../helpers/service.ts';
import { holdStackLock } from '../helpers/stack-lock.ts';

interface Write {
  method: string;
  path: string;
  stack: string | undefined;
  start: number;
  end: number;
}

interface Recorder {
  url: string;
  writes: Write[];
  /** Whether the first resource creates of `stacks` were all in flight at once (each held until all came). */
  together(): boolean;
  close(): Promise<void>;
}

async function readBody(req: IncomingMessage): Promise<Buffer> {
  const chunks: Buffer[] = [];
  for await (const chunk of req) chunks.push(chunk as Buffer);
  return Buffer.concat(chunks);
}

/**
 * A proxy recording each write with the stack its body names (a resource's marker or a lock record). With
 * `hold`, the first resource create of each of those stacks is held until all of them have arrived (or 5 s
 * passed): stacks applied one after the other would never meet there.
 */
async function startRecorder(target: string, hold: string[] = []): Promise<Recorder> {
  const writes: Write[] = [];
  const arrived = new Set<string>();
  let met = false;
  let meet: () => void = () => {};
  const meeting = new Promise<void>((resolve) => (meet = resolve));
  const server = createServer((req, res) => {
    void (async () => {
      const body = await readBody(req);
      const text = body.toString('utf8');
      const method = req.method ?? 'GET';
      const stack = /apply lock of stack ([a-z0-9-]+)/.exec(text)?.[1] ?? /\\"stack\\":\\"([a-z0-9-]+)\\"/.exec(text)?.[1];
      const start = performance.now();
      const lock = text.includes('apply lock of stack');
      if (method === 'POST' && !lock && stack && hold.includes(stack) && !arrived.has(stack)) {
        arrived.add(stack);
        if (hold.every((s) => arrived.has(s))) {
          met = true;
          meet();
        }
        await Promise.race([meeting, new Promise((resolve) => setTimeout(resolve, 5000))]);
      }
      const headers: Record<string, string> = {};
      for (const name of ['authorization', 'service-version', 'content-type', 'idempotency-key']) {
        const v = req.headers[name];
        if (typeof v === 'string') headers[name] = v;
      }
      const answer = await request(`${target}${req.url ?? '/'}`, { method: method as 'GET', headers, body: body.length > 0 ? body : undefined });
      const out = await answer.body.text();
      if (method !== 'GET') writes.push({ method, path: req.url ?? '/', stack, start, end: performance.now() });
      const pass: Record<string, string> = {};
      for (const [k, v] of Object.entries(answer.headers)) if (typeof v === 'string' && !['content-length', 'transfer-encoding', 'connection', 'keep-alive'].includes(k)) pass[k] = v;
      res.writeHead(answer.statusCode, pass).end(out);
    })().catch((err: unknown) => res.writeHead(502).end(String(err)));
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return {
    url: `http://127.0.0.1:${(server.address() as AddressInfo).port}`,
    writes,
    together: () => met,
    close: () => new Promise<void>((resolve) => {
      server.closeAllConnections();
      server.close(() => resolve());
    }),
  };
}

let svc: TestService;
let api: HttpApi;
beforeAll(async () => {
  svc = await startTestService();
  api = createApi({ url: svc.url, apiKey: svc.apiKey });
});
afterAll(async () => {
  await api?.close();
  await svc?.close();
});

/** A copy of the example with its stacks renamed and hostports moved, so each test has stacks of its own. */
function repository(suffix: string, offset: number): { dir: string; dispose(): void } {
  const example = copyExample('multi-stack');
  for (const root of ['edge/staging', 'edge/prod', 'partners']) {
    const file = join(example.dir, root, 'edgeops.yaml');
    writeFileSync(file, readFileSync(file, 'utf8').replace(/^stack: (\S+)$/m, `stack: $1-${suffix}`));
  }
  for (const file of ['edge/staging/edges.yaml', 'edge/prod/edges.yaml', 'partners/partners.yaml']) {
    const path = join(example.dir, file);
    writeFileSync(path, readFileSync(path, 'utf8').replace(/:(\d+)"/g, (_, port: string) => `:${Number(port) + offset}"`));
  }
  return example;
}

const run = (dir: string, url: string, args: string[]): Promise<RunResult> =>
  edgeops(args, { cwd: dir, env: { EDGEOPS_API_URL: url, EDGEOPS_API_KEY: svc.apiKey } });

/** The writes naming `stack`: its lock record and its resources' creates and updates. */
const resourceWrites = (writes: readonly Write[], stack: string): Write[] => writes.filter((w) => w.stack === stack);

describe('apply over several stacks', () => {
  it('applies the dependent stack after the one it names, and independent stacks at once', async () => {
    const repo = repository('a', 10000);
    const proxy = await startRecorder(svc.url, ['edge-staging-a', 'partners-a']);
    try {
      const r = await run(repo.dir, proxy.url, ['apply', '--auto-approve']);
      expect(r.code, output(r)).toBe(0);
      expect(proxy.together()).toBe(true);
      const staging = resourceWrites(proxy.writes, 'edge-staging-a');
      const prod = resourceWrites(proxy.writes, 'edge-prod-a');
      expect(staging.length).toBeGreaterThanOrEqual(4);
      expect(prod.length).toBeGreaterThanOrEqual(4);
      // Every write of prod (its lock record included) starts after staging's last write was answered.
      expect(Math.min(...prod.map((w) => w.start))).toBeGreaterThan(Math.max(...staging.map((w) => w.end)));
      expect(r.stdout).toMatch(/^Summary: 3 stacks, 3 applied or unchanged\n/m);
      expect(r.stdout).toMatch(/^edge-prod-a +edge\/prod +applied \(4 actions\)$/m);
      // Each section is whole: its heading, then its plan and its apply, nothing of another stack between.
      const prodSection = r.stdout.slice(r.stdout.indexOf('Stack edge-prod-a (edge/prod)'));
      expect(prodSection.slice(0, prodSection.indexOf('Apply complete'))).not.toMatch(/stack "(edge-staging|partners)-a"/);
      const again = await run(repo.dir, svc.url, ['plan', '--detailed-exitcode']);
      expect(again.code, output(again)).toBe(0);
    } finally {
      await proxy.close();
      repo.dispose();
    }
  });

  it('skips the stacks after one that failed; the independent stack still applies; exit 1', async () => {
    const repo = repository('b', 20000);
    // An edge outside every stack holds staging's hostport: staging's plan has an error, so its apply is refused.
    const blocker = await rawClient(svc).post('/edges/tcp', { hostports: ['1.tcp.example.com:41001'], description: 'in the way' });
    expect(blocker.status, blocker.text).toBe(201);
    const proxy = await startRecorder(svc.url);
    try {
      const r = await run(repo.dir, proxy.url, ['apply', '--auto-approve']);
      expect(r.code, output(r)).toBe(1);
      expect(r.stderr).toContain('[edge-prod-b] skipped: edge-staging-b failed\n');
      for (const line of r.stderr.split('\n').filter((l) => l.includes('hostport'))) expect(line).toMatch(/^\[edge-staging-b\] /);
      expect(r.stdout).toMatch(/^edge-prod-b +edge\/prod +skipped: edge-staging-b failed$/m);
      expect(r.stdout).toMatch(/^edge-staging-b +edge\/staging +failed$/m);
      expect(r.stdout).toMatch(/^partners-b +partners +applied \(4 actions\)$/m);
      expect(resourceWrites(proxy.writes, 'edge-prod-b')).toEqual([]);
      expect(resourceWrites(proxy.writes, 'partners-b').length).toBeGreaterThanOrEqual(4);
    } finally {
      await rawClient(svc).del(`/edges/tcp/${(blocker.body as { id: string }).id}`);
      await proxy.close();
      repo.dispose();
    }
  });

  it('takes each stack\'s own lock: a held lock fails its stack alone', async () => {
    const repo = repository('c', 30000);
    const held = await holdStackLock(api, 'partners-c', { holder: 'someone@else pid 7' });
    try {
      const r = await run(repo.dir, svc.url, ['apply', '--auto-approve', '--lock-timeout', '0', '--parallel', '1']);
      expect(r.code, output(r)).toBe(1);
      expect(r.stderr).toContain(`[partners-c] edgeops: another apply of stack "partners-c" is running (lock ${held.id}, holder someone@else pid 7`);
      expect(r.stdout).toMatch(/^edge-staging-c +edge\/staging +applied \(4 actions\)$/m);
      expect(r.stdout).toMatch(/^edge-prod-c +edge\/prod +applied \(4 actions\)$/m);
      expect(r.stdout).toMatch(/^partners-c +partners +failed$/m);
    } finally {
      await held.release();
      repo.dispose();
    }
  });

  it('applies each stack only with its own checksum; a stack without one is not applied and skips those after it', async () => {
    const repo = repository('d', 40000);
    try {
      const plan = await run(repo.dir, svc.url, ['plan', '--format', 'json']);
      const checksums = Object.fromEntries((JSON.parse(plan.stdout) as { stacks: Array<{ stack: string; checksum: string }> }).stacks.map((s) => [s.stack, s.checksum]));
      const plain = await run(repo.dir, svc.url, ['apply', '--checksum', checksums['partners-d']!]);
      expect(plain.code).toBe(1);
      expect(plain.stderr).toContain('--checksum: the paths hold several stacks; name the stack each checksum approves: --checksum STACK=sha256:...');
      const unknown = await run(repo.dir, svc.url, ['apply', '--checksum', `nope=${checksums['partners-d']!}`]);
      expect(unknown.stderr).toContain('--checksum names nope, not a stack of this run (edge-prod-d, edge-staging-d, partners-d)');
      const noTerminal = await run(repo.dir, svc.url, ['apply']);
      expect(noTerminal.stderr).toContain('refusing to apply without confirmation: stdin is not a terminal');

      const r = await run(repo.dir, svc.url, ['apply', '--checksum', `partners-d=${checksums['partners-d']!}`, '--checksum', `edge-prod-d=${checksums['edge-prod-d']!}`]);
      expect(r.code, output(r)).toBe(1);
      expect(r.stdout).toMatch(/^edge-staging-d +edge\/staging +not applied: no --checksum for it$/m);
      expect(r.stdout).toMatch(/^edge-prod-d +edge\/prod +skipped: edge-staging-d failed$/m);
      expect(r.stdout).toMatch(/^partners-d +partners +applied \(4 actions\)$/m);
      expect(r.stderr).toContain('[edge-staging-d] edgeops: stack edge-staging-d was not applied: no --checksum edge-staging-d=sha256:... approves it');
      // A checksum of the plan before a change is refused for that stack alone.
      const stale = await run(repo.dir, svc.url, ['apply', '--checksum', `edge-staging-d=${checksums['partners-d']!}`, '--checksum', `edge-prod-d=${checksums['edge-prod-d']!}`, '--checksum', `partners-d=${checksums['partners-d']!}`]);
      expect(stale.code).toBe(1);
      expect(stale.stderr).toContain('[edge-staging-d] edgeops: this plan is not the approved one');
      expect(stale.stdout).toMatch(/^partners-d +partners +failed$/m);
      const ok = await run(repo.dir, svc.url, ['apply', '--checksum', `edge-staging-d=${checksums['edge-staging-d']!}`, '--checksum', `edge-prod-d=${checksums['edge-prod-d']!}`]);
      expect(ok.code, output(ok)).toBe(0);
      expect(ok.stdout).toMatch(/^partners-d +partners +no changes$/m);
    } finally {
      repo.dispose();
    }
  });
});
