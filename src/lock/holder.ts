// Who holds a stack lock, and whether that holder still runs. A lock record names its holder's host, pid
// (and pid namespace on Linux) and CI run; a contender on the same host can then ask the kernel whether the
// pid still exists, and take over the lock of a holder that was killed (kill -9, an OOM kill, a closed laptop
// lid mid-run) at once instead of after the TTL. Anywhere else only the TTL can tell.
import { readlinkSync } from 'node:fs';
import { hostname, userInfo } from 'node:os';
import type { LockInfo } from './lock-record.ts';

export interface HolderIdentity {
  /** For messages: `user@host pid N`, and the CI run when there is one. */
  holder: string;
  host: string;
  pid: number;
  pidns?: string;
  ci?: string;
}

/** The CI run this process belongs to, as the URL of the run where the CI names one. */
function ciRun(env: NodeJS.ProcessEnv): string | undefined {
  if (env.GITHUB_RUN_ID) {
    const server = env.GITHUB_SERVER_URL ?? 'https://github.com';
    const attempt = env.GITHUB_RUN_ATTEMPT ? `/attempts/${env.GITHUB_RUN_ATTEMPT}` : '';
    return env.GITHUB_REPOSITORY ? `${server}/${env.GITHUB_REPOSITORY}/actions/runs/${env.GITHUB_RUN_ID}${attempt}` : `GitHub run ${env.GITHUB_RUN_ID}`;
  }
  if (env.GITLAB_CI && env.CI_JOB_URL) return env.CI_JOB_URL;
  return env.BUILDKITE_BUILD_URL ?? env.CIRCLE_BUILD_URL ?? env.BUILD_URL ?? undefined;
}

function pidNamespace(): string | undefined {
  try {
    return readlinkSync('/proc/self/ns/pid');
  } catch {
    return undefined; // not Linux, or no /proc: the host name and pid alone
  }
}

export function currentHolder(env: NodeJS.ProcessEnv = process.env): HolderIdentity {
  let user = 'unknown';
  try {
    user = userInfo().username;
  } catch {
    // no passwd entry (some containers): the host and pid still say where it runs
  }
  const host = hostname();
  const ci = ciRun(env);
  const identity: HolderIdentity = { holder: `${user}@${host} pid ${process.pid}${ci ? ` (CI run ${ci})` : ''}`, host, pid: process.pid };
  const pidns = pidNamespace();
  if (pidns) identity.pidns = pidns;
  if (ci) identity.ci = ci;
  return identity;
}

function pidExists(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch (err) {
    // EPERM: it exists, owned by another user. Only ESRCH says it is gone.
    return (err as NodeJS.ErrnoException).code !== 'ESRCH';
  }
}

/**
 * Whether the record's holder still runs, as far as this process can tell: 'gone' when it ran on this machine
 * (same host name and pid namespace) and its process no longer exists, 'running' when that process exists,
 * 'unknown' when it ran elsewhere (or the record predates these fields). A reused pid looks 'running': the lock
 * then waits for its TTL, the safe way to be wrong.
 */
export function holderState(record: LockInfo, self: HolderIdentity): 'gone' | 'running' | 'unknown' {
  if (record.host === undefined || record.pid === undefined) return 'unknown';
  if (record.host !== self.host || record.pidns !== self.pidns) return 'unknown';
  if (record.pid === self.pid) return 'running';
  return pidExists(record.pid) ? 'running' : 'gone';
}
