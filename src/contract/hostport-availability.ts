// Whether hostports are free for the caller's account, asked before a plan claims them: a hostport is unique
// across all accounts, and a hostport held in another account would otherwise only show when the write is
// refused (ERR_HOSTPORT_IN_USE), after the rest of the stack was written. The answer says where a hostport is
// held (free, in the caller's account, outside it) and never by what: another account's resources stay
// invisible, as everywhere else in the API.
//
//   GET /hostports/availability?hostport=1.tcp.example.com:20002&hostport=...   (1 to 100 hostports)
//   200 {"hostports": [{"hostport": "1.tcp.example.com:20002", "availability": "held_outside_account"}, ...]}
//
// One item per hostport asked, in the order asked, the hostport as sent. A value that is not a hostport is a
// 400 ERR_HOSTPORT_INVALID naming it, more than 100 a 400 ERR_FIELD_INVALID, another query parameter a 400
// ERR_QUERY_UNKNOWN_PARAM. A service that predates the endpoint answers 404 ERR_NOT_FOUND_PATH: the
// reconciler then skips the check, and the write still meets the refusal.

/** The code of a write refused because another resource, in any account, holds one of its hostports. */
export const HOSTPORT_IN_USE = 'ERR_HOSTPORT_IN_USE';

export const HOSTPORT_AVAILABILITY_PATH = '/hostports/availability';
/** The query parameter, repeated once per hostport. */
export const HOSTPORT_AVAILABILITY_PARAM = 'hostport';
/** Hostports one request may ask about; a client asks about more in batches. */
export const HOSTPORT_AVAILABILITY_MAX = 100;

export type HostportAvailability = 'free' | 'held_in_account' | 'held_outside_account';

export interface HostportAvailabilityReply {
  hostports: { hostport: string; availability: HostportAvailability }[];
}

const AVAILABILITIES: readonly string[] = ['free', 'held_in_account', 'held_outside_account'] satisfies HostportAvailability[];

/** The request path asking about `hostports` (at most HOSTPORT_AVAILABILITY_MAX). */
export function availabilityPath(hostports: readonly string[]): string {
  const query = new URLSearchParams(hostports.map((h) => [HOSTPORT_AVAILABILITY_PARAM, h]));
  return `${HOSTPORT_AVAILABILITY_PATH}?${query.toString()}`;
}

/** The answer as hostport -> availability; throws when the body is not the reply this contract describes. */
export function readAvailabilityReply(body: unknown): Map<string, HostportAvailability> {
  const items = (body as { hostports?: unknown } | null)?.hostports;
  if (!Array.isArray(items)) throw new TypeError(`${HOSTPORT_AVAILABILITY_PATH} answered without a hostports list`);
  const out = new Map<string, HostportAvailability>();
  for (const item of items as unknown[]) {
    const { hostport, availability } = (item ?? {}) as { hostport?: unknown; availability?: unknown };
    if (typeof hostport !== 'string' || typeof availability !== 'string' || !AVAILABILITIES.includes(availability)) {
      throw new TypeError(`${HOSTPORT_AVAILABILITY_PATH} answered an item that is not {hostport, availability}`);
    }
    out.set(hostport, availability as HostportAvailability);
  }
  return out;
}
