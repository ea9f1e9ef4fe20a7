// A lock on a stack, held by one apply from before it plans until its last read, so two applies of one
// stack never both see a resource missing and both create it. The service offers no lock or
// compare-and-swap, so the lock is a queue of records (lock-record.ts) ordered by the service's clock:
//
//   1. create my record (a POST retried only after a list shows it did not land, like every create);
//   2. list the stack's records; delete the expired ones (their holder died: it stopped renewing them), and
//      those whose holder ran on this host and whose process is gone (holder.ts), without waiting for expiry;
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
// A POST of my record that timed out (504, no answer) may still commit after a list shows it missing, so unlike
// other creates it is repeated anyway: every copy carries my token, so a late copy is recognised as mine (the
// oldest of them is my place in the queue, the others are deleted) and the release deletes any left.
import { randomBytes } from 'node:crypto';
import { withUrgency } from '../client/http.ts';
import { isTimeout } from '../client/retry.ts';
import { AbortedError, ApiError, EdgeopsError } from '../errors.ts';
import type { Api } from '../kinds/resource-kind.ts';
import { currentHolder, holderState, type HolderIdentity } from './holder.ts';
import { isExpired, LOCK_PATH, lockBody, lockMetadata, parseLockRecord } from './lock-record.ts';
import { deleteLockRecord, listLockRecords, oldest } from './records.ts';
import type { LockInfo, LockRecord } from './lock-record.ts';


const DEFAULT_TTL_MS = 60_000;
/** Most time the release's retries may take (the record expires by itself after the TTL anyway). */
const RELEASE_BUDGET_MS = 10_000;
/** Ties broken by pausing before the wait's deadline counts (a service without created_at ties forever). */
const MAX_FREE_TIES = 10;
const TIE_PAUSE_MS = 2000;
/** POSTs of the record that timed out, repeated this many times (each after a list showed it missing). */
const CREATE_ATTEMPTS = 5;

/** Another apply of the stack holds the lock, and it was not released within the wait. */
class StackLockedError extends EdgeopsError {
  readonly holder: LockRecord;
  constructor(stack: string, holder: LockRecord) {
    super('E_LOCKED', `another apply of stack "${stack}" is running (lock ${holder.id}, holder ${holder.holder}, expires ${holder.expires}); ` +
      'run again once it has finished, or wait for it with --lock-timeout SECONDS. If its holder is gone for good: ' +
      `edgeops unlock --stack ${stack} ${holder.id}`);
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
  /** Who this process is (host, pid, CI run) as written into the record; default the current process. */
  identity?: HolderIdentity;
  /** Overrides identity.holder, the text whoever waits is shown. */
  holder?: string;
  /** Called when another holder's record is deleted: it expired, or its process is gone from this host. */
  onTakeover?: (record: LockRecord, why: 'expired' | 'holder-gone') => void;
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
  /** Stop renewing and delete the record (already gone counts as released). Every call after the first returns its outcome. */
  release(): Promise<void>;
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

type Standing = 'held' | 'queued' | 'tie';

/** Where my record stands among the other live records (see the header for why this order is safe). */
function standing(mine: LockRecord, others: readonly LockRecord[]): Standing {
  if (others.length === 0) return 'held';
  if (mine.createdAt === undefined || others.some((o) => o.createdAt === undefined)) return 'tie';
  if (others.some((o) => o.createdAt! < mine.createdAt!)) return 'queued';
  return others.some((o) => o.createdAt === mine.createdAt) ? 'tie' : 'held';
}

async function acquireStackLock(api: Api, stack: string, opts: LockOptions = {}): Promise<StackLock> {
  const now = opts.now ?? Date.now;
  const random = opts.random ?? Math.random;
  const ttl = opts.ttlMs ?? DEFAULT_TTL_MS;
  const poll = opts.pollMs ?? 1000;
  const identity = opts.identity ?? currentHolder();
  const holder = opts.holder ?? identity.holder;
  const deadline = now() + (opts.waitMs ?? 0);
  const acquired = new Date(now()).toISOString();
  let held = false;
  const lost = new AbortController();

  const { host, pid, pidns, ci } = identity;
  const infoOf = (token: string): LockInfo => ({ holder, token, acquired, expires: new Date(now() + ttl).toISOString(), host, pid, pidns, ci });
  const token = randomBytes(16).toString('hex');
  /** A POST of the record timed out: a copy may commit later, so the release looks for copies. */
  let copiesPossible = false;
  const heartbeatMs = opts.heartbeatMs ?? Math.max(1, Math.floor(ttl / 4));
  // Each renewal's retries end before the next renewal is due; a renewal is never queued behind another.
  const beatApi = withUrgency(api, heartbeatMs);
  let told = false;
  const interrupted = (): AbortedError => new AbortedError(told
    ? `stopped waiting for the lock of stack "${stack}"`
    : `interrupted while taking the lock of stack "${stack}": nothing was changed`);
  if (opts.signal?.aborted) throw interrupted();

  const findMine = async (): Promise<LockRecord | undefined> => oldest((await listLockRecords(api, stack)).filter((r) => r.token === token));

  async function create(): Promise<LockRecord> {
    const checked = api.retryPostIf?.(async () => (await findMine()) === undefined) ?? api;
    for (let attempt = 1; ; attempt++) {
      try {
        const record = parseLockRecord(await checked.post(LOCK_PATH, lockBody(stack, infoOf(token))), stack);
        if (record) return record;
      } catch (err) {
        // The answer was lost but the record may have landed: it is found by its token, or the error stands.
        if (!(err instanceof ApiError && (err.status === 0 || err.status >= 500))) throw err;
        if (isTimeout(err)) copiesPossible = true;
        const found = await findMine();
        if (found) return found;
        // Only a timeout is repeated here (the client repeats the others through the check above, or gave up).
        if (!isTimeout(err) || attempt >= CREATE_ATTEMPTS || opts.signal?.aborted) {
          throw new EdgeopsError('E_LOCK', `could not create the lock record of stack "${stack}" (${err.message})`);
        }
        await sleep(200 * 2 ** attempt * (0.5 + random()), opts.signal);
        continue;
      }
      const found = await findMine();
      if (found) return found;
      throw new EdgeopsError('E_LOCK', `could not create the lock record of stack "${stack}"`);
    }
  }

  /** Deletes every copy of my record (the release after a POST that timed out; the answer may come late). */
  async function deleteCopies(client: Api): Promise<void> {
    if (!copiesPossible) return;
    for (const r of (await listLockRecords(client, stack)).filter((c) => c.token === token)) await deleteLockRecord(client, r.id);
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
      const records = await listLockRecords(api, stack);
      if (opts.signal?.aborted) throw interrupted();
      const own = records.filter((r) => r.token === token);
      if (own.length === 0) {
        // Taken for expired by another contender (this process was paused or its clock is off): queue again.
        mine = await create();
        continue;
      }
      // My place is my oldest copy (a POST that timed out may have committed late); the others go.
      mine = oldest(own)!;
      const others: LockRecord[] = [];
      for (const r of records) {
        if (r.id === mine.id) continue;
        if (r.token === token) {
          await deleteLockRecord(api, r.id);
          continue;
        }
        const why = isExpired(r, now()) ? 'expired' : holderState(r, identity) === 'gone' ? 'holder-gone' : undefined;
        if (why === undefined) {
          others.push(r);
          continue;
        }
        await deleteLockRecord(api, r.id);
        opts.onTakeover?.(r, why);
      }
      const where = standing(mine, others);
      if (where === 'held') {
        held = true;
        let released: Promise<void> | undefined;
        return {
          id: mine.id,
          lost: lost.signal,
          release() {
            released ??= (async () => {
              await stop();
              const urgent = withUrgency(api, RELEASE_BUDGET_MS);
              await deleteLockRecord(urgent, mine.id);
              await deleteCopies(urgent);
            })();
            return released;
          },
        };
      }
      if (where === 'tie') {
        // Nobody older: not a wait for a holder, so at first the deadline does not apply. Records are ordered
        // by whole seconds, so the pause spreads the next records over a few of them.
        if (++ties > MAX_FREE_TIES && now() >= deadline) throw new StackLockedError(stack, oldest(others)!);
        await deleteLockRecord(api, mine.id);
        await sleep(TIE_PAUSE_MS * (0.25 + random()), opts.signal);
        mine = await create();
        continue;
      }
      const blocker = oldest(others)!;
      if (now() >= deadline) throw new StackLockedError(stack, blocker);
      if (!told) opts.onWait?.(blocker);
      told = true;
      await sleep(Math.min(poll * (0.75 + 0.5 * random()), Math.max(1, deadline - now())), opts.signal);
    }
  } catch (err) {
    await stop();
    const urgent = withUrgency(api, RELEASE_BUDGET_MS);
    await deleteLockRecord(urgent, mine.id).then(() => deleteCopies(urgent)).catch(() => undefined);
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
