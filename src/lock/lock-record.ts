// The record behind a stack lock. The service has no lock endpoint, so the lock is an IP policy: the smallest
// resource there is (a description and metadata, no references, nothing uses it unless a rule or an edge names
// it), whose metadata carries the ownership marker `"edgeops": {"stack": S, "name": "Lock/S", "lock": {...}}`.
// `Lock/` is no manifest kind, so the planner, drift and adoption see a resource of another owner and leave it
// alone; export leaves lock records out by `isLockRecord`.
import { isObj } from '../contract/json.ts';
import { MARKER_KEY, serializeMetadata } from '../kinds/marker.ts';
import type { Obj } from '../kinds/resource-kind.ts';

export const LOCK_PATH = '/ip_policies';
export const LOCK_LIST_KEY = 'ip_policies';
const LOCK_PREFIX = 'Lock/';

/** What a lock record says about itself; times are ISO 8601 UTC on the holder's clock. */
export interface LockInfo {
  /** Who holds it, for the message of whoever waits: `user@host pid N` (and the CI run, if any). */
  holder: string;
  /** Random, per acquisition: finds the record again after a POST whose answer was lost. */
  token: string;
  acquired: string;
  expires: string;
  /**
   * Where the holder runs, so a contender on the same machine can see that it died: the host name, the process
   * id, and on Linux the pid namespace (a container on the same host name has pids of its own). Records made
   * before these fields existed have none.
   */
  host?: string;
  pid?: number;
  pidns?: string;
  /** The CI run holding it, when there is one (a URL where the CI gives one). */
  ci?: string;
}

const OPTIONAL_STRINGS = ['host', 'pidns', 'ci'] as const;

export interface LockRecord extends LockInfo {
  id: string;
  stack: string;
  /** The service's creation time (RFC 3339, whole seconds): the order in which contenders queued. */
  createdAt?: string;
}

function lockAddress(stack: string): string {
  return `${LOCK_PREFIX}${stack}`;
}

/** The POST body of a lock record (PATCHing `metadata` alone renews it). */
export function lockBody(stack: string, info: LockInfo): Obj {
  return { description: `edgeops apply lock of stack ${stack}`.slice(0, 255), metadata: lockMetadata(stack, info) };
}

export function lockMetadata(stack: string, info: LockInfo): string {
  const lock: Obj = { holder: info.holder, token: info.token, acquired: info.acquired, expires: info.expires };
  for (const key of OPTIONAL_STRINGS) if (info[key] !== undefined) lock[key] = info[key];
  if (info.pid !== undefined) lock.pid = info.pid;
  return serializeMetadata(undefined, { stack, name: lockAddress(stack) }, { lock });
}

function markerOf(raw: Obj): Record<string, unknown> | undefined {
  if (typeof raw.metadata !== 'string' || !raw.metadata.includes(LOCK_PREFIX)) return undefined;
  let parsed: unknown;
  try {
    parsed = JSON.parse(raw.metadata);
  } catch {
    return undefined;
  }
  const marker = isObj(parsed) ? parsed[MARKER_KEY] : undefined;
  return isObj(marker) && typeof marker.name === 'string' && marker.name.startsWith(LOCK_PREFIX) ? marker : undefined;
}

/** True for a live item that is a lock record of any stack (export and other listings leave these out). */
export function isLockRecord(raw: Obj): boolean {
  return markerOf(raw) !== undefined;
}

/** The lock record a raw IP policy is, for `stack`; undefined for anything else (or a malformed record). */
export function parseLockRecord(raw: Obj, stack: string): LockRecord | undefined {
  const marker = markerOf(raw);
  if (!marker || marker.stack !== stack || marker.name !== lockAddress(stack)) return undefined;
  const lock = marker.lock;
  if (!isObj(lock)) return undefined;
  const { holder, token, acquired, expires } = lock;
  if (typeof holder !== 'string' || typeof token !== 'string' || typeof acquired !== 'string' || typeof expires !== 'string') return undefined;
  const record: LockRecord = { id: String(raw.id), stack, holder, token, acquired, expires };
  for (const key of OPTIONAL_STRINGS) if (typeof lock[key] === 'string') record[key] = lock[key];
  if (Number.isSafeInteger(lock.pid) && (lock.pid as number) > 0) record.pid = lock.pid as number;
  if (typeof raw.created_at === 'string') record.createdAt = raw.created_at;
  return record;
}

/** An expiry that does not parse counts as passed: a record nobody can interpret must not block forever. */
export function isExpired(record: LockInfo, now: number): boolean {
  const at = Date.parse(record.expires);
  return !Number.isFinite(at) || at <= now;
}
