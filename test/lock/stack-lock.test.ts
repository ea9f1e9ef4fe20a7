// The stack lock against the real service: one holder at a time among contenders with their own clients, a
// clear refusal naming the holder, waiting in the queue, taking over an expired record, a lost record raising
// `lost`, and nothing left behind. Plus the record format (lock-record.ts) as plain data.
import { spawn } from 'node:child_process';
import { hostname } from 'node:os';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { createApi, type HttpApi } from '../../src/client/http.ts';
import { EdgeopsError } from '../../src/errors.ts';
import { withStackLock } from '../../src/lock/stack-lock.ts';
import { isLockRecord, LOCK_PATH, lockBody, parseLockRecord } from '../../src/lock/lock-record.ts';
import { currentHolder } from '../../src/lock/holder.ts';
import { createFaultInjector, parseFaultSpec } from '../../src/service/faults.ts';
import { parseMetadata } from '../../src/kinds/marker.ts';
import type { Obj } from '../../src/kinds/resource-kind.ts';
import { api as http, startTestService, type ApiClient, type TestService } from '../helpers/service.ts';
import { holdStackLock } from '../helpers/stack-lock.ts';

let svc: TestService;
let raw: ApiClient;
const clients: HttpApi[] = [];
const FAST = { ttlMs: 5_000, pollMs: 50 };

function client(): HttpApi {
  const c = createApi({ url: svc.url, apiKey: svc.apiKey });
  clients.push(c);
  return c;
}

async function lockRecords(stack: string): Promise<{ id: string; metadata: string }[]> {
  const items = (await raw.listAll('/ip_policies', 'ip_policies')) as { id: string; metadata?: string }[];
  return items.filter((i) => parseMetadata(i.metadata).marker?.name === `Lock/${stack}`) as { id: string; metadata: string }[];
}

beforeAll(async () => {
  svc = await startTestService();
  raw = http(svc);
});
afterAll(async () => {
  await Promise.all(clients.map((c) => c.close()));
  await svc.close();
});

describe('the lock record', () => {
  const info = { holder: 'me@host pid 1', token: 't0k', acquired: '2030-01-01T00:00:00.000Z', expires: '2030-01-01T00:01:00.000Z' };

  it('carries a marker of a name no manifest kind has, and parses back for its own stack only', () => {
    const body = lockBody('prod', info);
    expect(parseMetadata(body.metadata).marker).toEqual({ stack: 'prod', name: 'Lock/prod' });
    const item = { id: 'ipp_1', created_at: '2030-01-01T00:00:00Z', ...body };
    expect(parseLockRecord(item, 'prod')).toEqual({ id: 'ipp_1', stack: 'prod', createdAt: '2030-01-01T00:00:00Z', ...info });
    expect(parseLockRecord(item, 'staging')).toBeUndefined();
    expect(isLockRecord(item)).toBe(true);
  });

  it('anything else is not a lock record', () => {
    const notLocks: Obj[] = [
      { id: 'ipp_1' },
      { id: 'ipp_2', metadata: '{"edgeops":{"stack":"prod","name":"IPPolicy/office"}}' },
      { id: 'ipp_3', metadata: 'Lock/prod but not JSON' },
      { id: 'ipp_4', metadata: '{"note":"Lock/prod"}' },
    ];
    for (const item of notLocks) {
      expect(isLockRecord(item)).toBe(false);
      expect(parseLockRecord(item, 'prod')).toBeUndefined();
    }
    // A record with the marker but without its lock fields never blocks anyone.
    const broken = { id: 'ipp_5', metadata: '{"edgeops":{"stack":"prod","name":"Lock/prod","lock":{"holder":1}}}' };
    expect(isLockRecord(broken)).toBe(true);
    expect(parseLockRecord(broken, 'prod')).toBeUndefined();
  });
});

describe('acquire and release', () => {
  it('holds the lock through a record on the service, deleted on release', async () => {
    const lock = await holdStackLock(client(), 'solo', { ...FAST, holder: 'solo-holder' });
    const records = await lockRecords('solo');
    expect(records.map((r) => r.id)).toEqual([lock.id]);
    expect(parseLockRecord({ ...records[0]! }, 'solo')?.holder).toBe('solo-holder');
    expect(lock.lost.aborted).toBe(false);
    await lock.release();
    expect(await lockRecords('solo')).toEqual([]);
    await lock.release(); // already gone: still released
  });

  it('lets one contender at a time in, each once, with nothing left behind', async () => {
    let active = 0;
    let most = 0;
    const ran: number[] = [];
    await Promise.all([0, 1, 2, 3].map((n) =>
      withStackLock(client(), 'crowd', { ...FAST, waitMs: 60_000 }, async () => {
        active++;
        most = Math.max(most, active);
        await new Promise((r) => setTimeout(r, 20));
        ran.push(n);
        active--;
      })));
    expect(most).toBe(1);
    expect(ran.sort()).toEqual([0, 1, 2, 3]);
    expect(await lockRecords('crowd')).toEqual([]);
  }, 120_000);

  it('refuses at once with the holder named when not told to wait, and leaves no record of its own', async () => {
    const held = await holdStackLock(client(), 'busy', { ...FAST, holder: 'ci@runner pid 7' });
    const err = await holdStackLock(client(), 'busy', { ...FAST, waitMs: 0 }).catch((e: unknown) => e);
    expect(err).toBeInstanceOf(EdgeopsError);
    expect(err).toMatchObject({ name: 'StackLockedError', code: 'E_LOCKED' });
    expect((err as Error).message).toMatch(new RegExp(`^another apply of stack "busy" is running \\(lock ${held.id}, holder ci@runner pid 7, expires \\d{4}-\\d\\d-\\d\\dT[\\d:.]+Z\\)`));
    expect((await lockRecords('busy')).map((r) => r.id)).toEqual([held.id]);
    await held.release();
  });

  it('waits in the queue, says so once, and takes the lock when the holder releases it', async () => {
    const held = await holdStackLock(client(), 'queue', FAST);
    const waits: string[] = [];
    const waiting = holdStackLock(client(), 'queue', { ...FAST, waitMs: 60_000, onWait: (h) => waits.push(h.id) });
    await vi.waitFor(() => expect(waits).toEqual([held.id]), { timeout: 30_000, interval: 50 });
    await held.release();
    const next = await waiting;
    expect((await lockRecords('queue')).map((r) => r.id)).toEqual([next.id]);
    await next.release();
  }, 60_000);

  it('takes over a record whose expiry has passed (its holder died) and deletes it', async () => {
    const stale = await raw.post('/ip_policies', lockBody('stale', { holder: 'dead@host pid 1', token: 'x', acquired: '2020-01-01T00:00:00.000Z', expires: '2020-01-01T00:01:00.000Z' }));
    expect(stale.status).toBe(201);
    const lock = await holdStackLock(client(), 'stale', { ...FAST, waitMs: 0 });
    expect((await lockRecords('stale')).map((r) => r.id)).toEqual([lock.id]);
    expect((await raw.get(`/ip_policies/${stale.body.id}`)).status).toBe(404);
    await lock.release();
  });

  it('renews its record while held, and raises `lost` when the record is deleted under it', async () => {
    const lock = await holdStackLock(client(), 'renew', { ...FAST, heartbeatMs: 50 });
    const first = parseLockRecord({ ...(await lockRecords('renew'))[0]! }, 'renew')!.expires;
    await vi.waitFor(async () => {
      expect(parseLockRecord({ ...(await lockRecords('renew'))[0]! }, 'renew')!.expires > first).toBe(true);
    }, { timeout: 10_000, interval: 50 });
    expect((await raw.del(`/ip_policies/${lock.id}`)).status).toBe(204);
    await vi.waitFor(() => expect(lock.lost.aborted).toBe(true), { timeout: 10_000, interval: 50 });
    await lock.release();
  });

  it('a wait stopped by a signal deletes its record', async () => {
    const held = await holdStackLock(client(), 'stop', FAST);
    const controller = new AbortController();
    const waiting = holdStackLock(client(), 'stop', { ...FAST, waitMs: 60_000, signal: controller.signal, onWait: () => controller.abort() });
    await expect(waiting).rejects.toThrow('stopped waiting for the lock of stack "stop"');
    expect((await lockRecords('stop')).map((r) => r.id)).toEqual([held.id]);
    await held.release();
  });
});

describe('holders that are gone', () => {
  /** The pid of a process that has exited (and was reaped): nothing runs under it now. */
  async function deadPid(): Promise<number> {
    const child = spawn(process.execPath, ['-e', '']);
    await new Promise((resolve) => child.on('exit', resolve));
    return child.pid!;
  }
  const farFuture = { acquired: '2020-01-01T00:00:00.000Z', expires: '2999-01-01T00:00:00.000Z' };

  it('the record names host, pid, pid namespace and CI run, and parses back', () => {
    const me = currentHolder({ GITHUB_RUN_ID: '77', GITHUB_REPOSITORY: 'acme/infra', GITHUB_SERVER_URL: 'https://github.com' });
    expect(me).toMatchObject({ host: hostname(), pid: process.pid, ci: 'https://github.com/acme/infra/actions/runs/77' });
    expect(me.holder).toMatch(new RegExp(`@${hostname()} pid ${process.pid} \\(CI run https://github.com/acme/infra/actions/runs/77\\)$`));
    expect(currentHolder({}).ci).toBeUndefined();
    const info = { holder: me.holder, token: 't', ...farFuture, host: me.host, pid: me.pid, pidns: me.pidns, ci: me.ci };
    expect(parseLockRecord({ id: 'ipp_1', ...lockBody('s', info) }, 's')).toEqual({ id: 'ipp_1', stack: 's', ...info });
  });

  it('a record whose holder process is gone from this host is taken over at once, and said so', async () => {
    const me = currentHolder();
    const pid = await deadPid();
    const dead = await raw.post('/ip_policies', lockBody('killed', { holder: `x@${me.host} pid ${pid}`, token: 'd', ...farFuture, host: me.host, pid, pidns: me.pidns }));
    expect(dead.status).toBe(201);
    const taken: [string, string][] = [];
    const lock = await holdStackLock(client(), 'killed', { ...FAST, waitMs: 0, onTakeover: (r, why) => taken.push([r.id, why]) });
    expect(taken).toEqual([[dead.body.id, 'holder-gone']]);
    expect((await lockRecords('killed')).map((r) => r.id)).toEqual([lock.id]);
    await lock.release();
  });

  it('a live holder on this host, or any holder on another host (or pid namespace), keeps the lock', async () => {
    const me = currentHolder();
    const pid = await deadPid();
    const others = [
      { host: me.host, pid: process.ppid, pidns: me.pidns }, // alive
      { host: `not-${me.host}`, pid, pidns: me.pidns }, // elsewhere: only the TTL can tell
      { host: me.host, pid, pidns: 'pid:[1]' }, // another container on the same host name
    ];
    for (const [i, where] of others.entries()) {
      const stack = `kept-${i}`;
      const held = await raw.post('/ip_policies', lockBody(stack, { holder: 'h', token: 'k', ...farFuture, ...where }));
      await expect(holdStackLock(client(), stack, { ...FAST, waitMs: 0 })).rejects.toMatchObject({ name: 'StackLockedError', code: 'E_LOCKED' });
      expect((await lockRecords(stack)).map((r) => r.id)).toEqual([held.body.id]);
      await raw.del(`/ip_policies/${held.body.id}`);
    }
  });

  it('the refusal names the lock id and the command that releases it', async () => {
    const held = await holdStackLock(client(), 'named', FAST);
    const err = (await holdStackLock(client(), 'named', { ...FAST, waitMs: 0 }).catch((e: unknown) => e)) as Error;
    expect(err.message).toContain(`If its holder is gone for good: edgeops unlock --stack named ${held.id}`);
    await held.release();
  });
});

describe('a lock POST answered 504 (the gateway gave up; nothing was written)', () => {
  it('is looked for, repeated, and the lock taken', async () => {
    // Only POSTs are faulted, so their draws alone decide: find a seed whose first POST gets the 504 and whose
    // second does not, as the service's fault injector decides them.
    const faults = (seed: number): string => `POST.error=0.5,POST.status=504,seed=${seed}`;
    let seed = 0;
    for (;; seed++) {
      const injector = createFaultInjector(parseFaultSpec(faults(seed)))!;
      const first = await injector.decide('POST', LOCK_PATH);
      const second = await injector.decide('POST', LOCK_PATH);
      if (first.reject?.status === 504 && !second.reject) break;
    }
    const faulty = await startTestService({ faults: faults(seed) });
    const api = createApi({ url: faulty.url, apiKey: faulty.apiKey });
    try {
      const lock = await holdStackLock(api, 'gateway', FAST);
      const records = (await http(faulty).listAll('/ip_policies', 'ip_policies')) as { id: string }[];
      expect(records.map((r) => r.id)).toEqual([lock.id]);
      await lock.release();
      expect(await http(faulty).listAll('/ip_policies', 'ip_policies')).toEqual([]);
    } finally {
      await api.close();
      await faulty.close();
    }
  });
});
