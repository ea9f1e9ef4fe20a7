// A lock on a stack, held by one apply from before it plans until it has finished, so two applies of one
// stack never both see a resource missing and both create it (issue 5). The service offers no lock or
// compare-and-swap, so the lock is a queue of records (lock-record.ts) ordered by the service's clock:
//
//   1. create my record (a POST retried only after a list shows it did not land, like every create);
//   2. list the stack's records; delete the expired ones (their holder died: it stopped renewing them);
//   3. mine is strictly the oldest (by created_at), or the only one: I hold the lock. Another record is older:
//      I wait in the queue, keeping my record. A record of the same second as mine and none older: a tie;
//      mine is deleted and made again after a random pause (ids are random, so nothing else can order them).
//
// Why it is sound: a winner's record existed before its list; a contender whose record is made after that
// list sees the winner's record as older (or a tie), so it cannot win while the winner holds; one made before
// it was seen by the winner as younger, so the contender sees the winner's as older. Every record is renewed
// by a heartbeat (PATCH of its expiry) while its process lives, so only dead holders' records expire. A holder
// that finds its record gone (someone took it as expired: a long pause, clock skew) raises `lost`, and the
// apply starts no new action. Renewals and the release go through the client's urgent lane: the apply's own
// requests, queued or paused by a 429's Retry-After, never hold a renewal back past the TTL.
import { randomBytes } from 'node:crypto';
import { hostname, userInfo } from 'node:os';
import { withPostRetry, withUrgency } from '../client/http.ts';
import { AbortedError, ApiError, EdgeopsError } from '../errors.ts';
import type { Api } from '../kinds/resource-kind.ts';
import { isExpired, LOCK_LIST_KEY, LOCK_PATH, lockBody, lockMetadata, parseLockRecord } from './lock-record.ts';
import type { LockInfo, LockRecord } from './lock-record.ts';

export const DEFAULT_TTL_MS = 60_000;
/** Most time the release's retries may take (the record expires by itself after the TTL anyway). */
const RELEASE_BUDGET_MS = 10_000;
/** Ties broken by pausing before the wait's deadline counts (a service without created_at ties forever). */
const MAX_FREE_TIES = 10;
const TIE_PAUSE_MS = 2000;

/** Another apply of the stack holds the lock, and it was not released within the wait. */
export class StackLockedError extends EdgeopsError {
  readonly holder: LockRecord;
  constructor(stack: string, holder: LockRecord) {
    super('E_LOCKED', `another apply of stack "${stack}" is running (lock ${holder.id}, holder ${holder.holder}, expires ${holder.expires}); ` +
      'run again once it has finished, or wait for it with --lock-timeout SECONDS');
    this.holder = holder;
  }
}

/** The lock's record disappeared while the apply held it: another apply may be running now. */
export class LockLostError extends EdgeopsError {
  constructor(stack: string, id: string) {
    super('E_LOCK_LOST', `the lock of stack "${stack}" (${id}) was taken over during the apply (it was deleted, or another apply ` +
      'took it as expired); no new action was started. Run the apply again to converge');
  }
}

export interface LockOptions {
  /** How long to wait while another apply holds the lock; 0 (the default) fails at once. */
  waitMs?: number;
  /** A record not renewed for this long is taken as its holder's and deleted by the next contender. */
  ttlMs?: number;
  /** How often the record is renewed; default a quarter of the TTL. */
  heartbeatMs?: number;
  /** Pause between looks at the queue while waiting; default 1 s (with jitter). */
  pollMs?: number;
  holder?: string;
  /** Stops a wait (Ctrl-C): the record is deleted and AbortedError thrown. */
  signal?: AbortSignal;
  /** Called once, when the lock is first found held by another apply (to say that this one waits). */
  onWait?: (holder: LockRecord) => void;
  /** Called when a wait that onWait announced ends, however it ends. */
  onWaitEnd?: () => void;
  now?: () => number;
  random?: () => number;
}

export interface StackLock {
  /** The record of the held lock. */
  readonly id: string;
  /** Aborted when the record is found gone while held: start no new action. */
  readonly lost: AbortSignal;
  /** Stop renewing and delete the record (already gone counts as released). */
  release(): Promise<void>;
}

/** `user@host pid N`, and the CI run when there is one: who a waiting apply is waiting for. */
export function defaultHolder(env: NodeJS.ProcessEnv = process.env): string {
  let user = 'unknown';
  try {
    user = userInfo().username;
  } catch {
    // no passwd entry (some containers): the host and pid still say where it runs
  }
  const ci = env.GITHUB_RUN_ID ? ` (GitHub run ${env.GITHUB_REPOSITORY ?? ''}#${env.GITHUB_RUN_ID})` : '';
  return `${user}@${hostname()} pid ${process.pid}${ci}`;
}

function sleep(ms: number, signal?: AbortSignal): Promise<void> {
  return new Promise((resolve) => {
    if (signal?.aborted) return resolve();
    const timer = setTimeout(done, Math.max(0, ms));
    function done(): void {
      clearTimeout(timer);
      signal?.removeEventListener('abort', done);
      resolve();
    }
    signal?.addEventListener('abort', done, { once: true });
  });
}

async function deleteRecord(api: Api, id: string): Promise<void> {
  try {
    await api.delete(`${LOCK_PATH}/${id}`);
  } catch (err) {
    if (!(err instanceof ApiError && err.status === 404)) throw err;
  }
}

async function listRecords(api: Api, stack: string): Promise<LockRecord[]> {
  const items = await api.list(LOCK_PATH, LOCK_LIST_KEY);
  return items.map((raw) => parseLockRecord(raw, stack)).filter((r): r is LockRecord => r !== undefined);
}

type Standing = 'held' | 'queued' | 'tie';

/** Where my record stands among the other live records (see the header for why this order is safe). */
function standing(mine: LockRecord, others: readonly LockRecord[]): Standing {
  if (others.length === 0) return 'held';
  if (mine.createdAt === undefined || others.some((o) => o.createdAt === undefined)) return 'tie';
  if (others.some((o) => o.createdAt! < mine.createdAt!)) return 'queued';
  return others.some((o) => o.createdAt === mine.createdAt) ? 'tie' : 'held';
}

function oldest(records: readonly LockRecord[]): LockRecord {
  return [...records].sort((a, b) => ((a.createdAt ?? '') < (b.createdAt ?? '') ? -1 : 1))[0]!;
}

export async function acquireStackLock(api: Api, stack: string, opts: LockOptions = {}): Promise<StackLock> {
  const now = opts.now ?? Date.now;
  const random = opts.random ?? Math.random;
  const ttl = opts.ttlMs ?? DEFAULT_TTL_MS;
  const poll = opts.pollMs ?? 1000;
  const holder = opts.holder ?? defaultHolder();
  const deadline = now() + (opts.waitMs ?? 0);
  const acquired = new Date(now()).toISOString();
  let held = false;
  const lost = new AbortController();

  const infoOf = (token: string): LockInfo => ({ holder, token, acquired, expires: new Date(now() + ttl).toISOString() });
  const heartbeatMs = opts.heartbeatMs ?? Math.max(1, Math.floor(ttl / 4));
  // Each renewal's retries end before the next renewal is due; a renewal is never queued behind another.
  const beatApi = withUrgency(api, heartbeatMs);
  let told = false;
  const interrupted = (): AbortedError => new AbortedError(told
    ? `stopped waiting for the lock of stack "${stack}"`
    : `interrupted while taking the lock of stack "${stack}": nothing was changed`);
  if (opts.signal?.aborted) throw interrupted();

  async function create(): Promise<LockRecord> {
    const token = randomBytes(16).toString('hex');
    const find = async () => (await listRecords(api, stack)).find((r) => r.token === token);
    const body = lockBody(stack, infoOf(token));
    try {
      const raw = await withPostRetry(api, async () => (await find()) === undefined).post(LOCK_PATH, body);
      const record = parseLockRecord(raw, stack);
      if (record) return record;
    } catch (err) {
      // The answer was lost but the record may have landed: it is found by its token, or the error stands.
      if (!(err instanceof ApiError && (err.status === 0 || err.status >= 500))) throw err;
    }
    const found = await find();
    if (!found) throw new EdgeopsError('E_LOCK', `could not create the lock record of stack "${stack}"`);
    return found;
  }

  let mine = await create();
  // Renewal runs from the first record on (a waiting contender keeps its place in the queue) until release.
  let renewing: Promise<void> | undefined;
  const timer = setInterval(() => {
    renewing ??= (async () => {
      try {
        await beatApi.patch(`${LOCK_PATH}/${mine.id}`, { metadata: lockMetadata(stack, infoOf(mine.token)) });
      } catch (err) {
        if (held && err instanceof ApiError && err.status === 404) lost.abort();
        // Other failures: the next beat tries again; the TTL allows several misses.
      } finally {
        renewing = undefined;
      }
    })();
  }, heartbeatMs);
  timer.unref();
  const stop = async (): Promise<void> => {
    clearInterval(timer);
    await renewing;
  };

  try {
    let ties = 0;
    for (;;) {
      if (opts.signal?.aborted) throw interrupted();
      const records = await listRecords(api, stack);
      if (opts.signal?.aborted) throw interrupted();
      const self = records.find((r) => r.id === mine.id);
      if (!self) {
        // Taken for expired by another contender (this process was paused or its clock is off): queue again.
        mine = await create();
        continue;
      }
      mine = self;
      const others: LockRecord[] = [];
      for (const r of records) {
        if (r.id === mine.id) continue;
        if (isExpired(r, now())) await deleteRecord(api, r.id);
        else others.push(r);
      }
      const where = standing(mine, others);
      if (where === 'held') {
        held = true;
        return {
          id: mine.id,
          lost: lost.signal,
          async release() {
            await stop();
            await deleteRecord(withUrgency(api, RELEASE_BUDGET_MS), mine.id);
          },
        };
      }
      if (where === 'tie') {
        // Nobody older: not a wait for a holder, so at first the deadline does not apply. Records are ordered
        // by whole seconds, so the pause spreads the next records over a few of them.
        if (++ties > MAX_FREE_TIES && now() >= deadline) throw new StackLockedError(stack, oldest(others));
        await deleteRecord(api, mine.id);
        await sleep(TIE_PAUSE_MS * (0.25 + random()), opts.signal);
        mine = await create();
        continue;
      }
      const blocker = oldest(others);
      if (now() >= deadline) throw new StackLockedError(stack, blocker);
      if (!told) opts.onWait?.(blocker);
      told = true;
      await sleep(Math.min(poll * (0.75 + 0.5 * random()), Math.max(1, deadline - now())), opts.signal);
    }
  } catch (err) {
    await stop();
    await deleteRecord(withUrgency(api, RELEASE_BUDGET_MS), mine.id).catch(() => undefined);
    throw err;
  } finally {
    if (told) opts.onWaitEnd?.();
  }
}

/**
 * Runs `fn` holding the stack's lock, and releases it however `fn` ends. A failed release is reported through
 * `onReleaseError` (the record then expires after the TTL) rather than hiding `fn`'s own outcome.
 */
export async function withStackLock<T>(
  api: Api,
  stack: string,
  opts: LockOptions & { onReleaseError?: (err: unknown, id: string) => void },
  fn: (lock: StackLock) => Promise<T>,
): Promise<T> {
  const lock = await acquireStackLock(api, stack, opts);
  try {
    return await fn(lock);
  } finally {
    try {
      await lock.release();
    } catch (err) {
      opts.onReleaseError?.(err, lock.id);
    }
  }
}
