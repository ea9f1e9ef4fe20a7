// Which PolicyException covers a violation: same policy, exact target, not expired (a violation again from the
// day after `expires`), warned about 14 days ahead. In the Action an exception the pull request adds or changes
// counts only once an owner other than its author approved (ExceptionApproval says so, or who must).
import type { PolicyDoc, PolicyExceptionDoc } from './documents.ts';

/** Whether an exception counts now: `pending` names the owners whose approval it awaits. */
export type ExceptionApproval = (exception: PolicyExceptionDoc, policy: PolicyDoc) => { pending?: string[] };

const DAY = 86_400_000;
const WARN_DAYS = 14;

interface ExceptionVerdict {
  /** The exception applied (honoured, or pending with `pending`). */
  used?: PolicyExceptionDoc;
  pending?: string[];
  /** An expiry warning, or why an expired one no longer counts. */
  note?: string;
}

export function exceptionFor(all: readonly PolicyExceptionDoc[], policy: PolicyDoc, address: string, opts: { now: Date; approval?: ExceptionApproval }): ExceptionVerdict {
  if (policy.exceptions === 'none') return {};
  const today = Date.UTC(opts.now.getUTCFullYear(), opts.now.getUTCMonth(), opts.now.getUTCDate());
  let note: string | undefined;
  for (const exception of all) {
    if (exception.policy !== policy.name || !exception.targets.includes(address)) continue;
    const expires = Date.parse(`${exception.expires}T00:00:00Z`);
    if (today > expires) {
      note = `exception ${exception.name} (${policy.name} on ${address}) expired on ${exception.expires}: the violation counts again`;
      continue;
    }
    const days = Math.round((expires - today) / DAY);
    const soon = days <= WARN_DAYS ? `exception ${exception.name} (${policy.name} on ${address}) expires on ${exception.expires}, in ${days} day${days === 1 ? '' : 's'}` : undefined;
    const pending = opts.approval?.(exception, policy).pending;
    return { used: exception, ...(pending ? { pending } : {}), ...(soon ? { note: soon } : {}) };
  }
  return note ? { note } : {};
}
