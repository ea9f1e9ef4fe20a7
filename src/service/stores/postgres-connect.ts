// Why the service could not connect to PostgreSQL at start, in words an operator can act on: which server (host
// and port), which database and which user, and what to change. The server's own text is not repeated (it can
// quote the configuration) and the password is never part of it. Where the URL came from (--db or
// EDGEOPS_DATABASE_URL) is the caller's to say, so the sentence takes it.
import pg from 'pg';
import type { PoolConfig } from 'pg';
import type { StoreUnavailableError } from '../store.ts';

interface PostgresEndpoint {
  host: string;
  port: number;
  database: string;
  user: string;
}

type Reason = 'password' | 'role' | 'tls-required' | 'hba' | 'database' | 'refused' | 'no-host' | 'timeout' | 'tls-unsupported';

/** An error that can say itself as an operator's sentence, naming where the URL came from. */
type Explained<E extends Error> = E & { explain(source: string): string };

/** A start-up connection the server refused (a password, a role, a database, TLS), for a reason the operator can fix. */
class PostgresConnectError extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'PostgresConnectError';
  }
}

function explained<E extends Error>(err: E, reason: Reason, at: PostgresEndpoint): Explained<E> {
  return Object.assign(err, { explain: (source: string) => explain(reason, at, source) });
}

/** Host, port, database and user as pg resolves them from the URL and the PG* environment, without connecting. */
function endpointOf(config: PoolConfig): PostgresEndpoint {
  const client = new pg.Client(config);
  return { host: client.host || 'localhost', port: client.port, database: client.database ?? '', user: client.user ?? '' };
}

function reasonOf(err: unknown): Reason | undefined {
  const e = err as { code?: unknown; detail?: unknown; message?: unknown } | null;
  const code = typeof e?.code === 'string' ? e.code : typeof e?.detail === 'string' ? e.detail : '';
  const message = typeof e?.message === 'string' ? e.message : '';
  if (code === '28P01') return 'password';
  if (code === '28000') {
    if (/role .* does not exist/.test(message)) return 'role';
    if (/no encryption|SSL off|GSS encryption/.test(message)) return 'tls-required';
    return 'hba';
  }
  if (code === '3D000') return 'database';
  if (code === 'ECONNREFUSED' || code === 'ENOENT') return 'refused';
  if (code === 'ENOTFOUND' || code === 'EAI_AGAIN') return 'no-host';
  if (code === 'ETIMEDOUT' || code === 'connect_timeout' || code === 'EHOSTUNREACH' || code === 'ENETUNREACH') return 'timeout';
  if (/does not support SSL/.test(message)) return 'tls-unsupported';
  if (/connection timeout/.test(message)) return 'timeout';
  return undefined;
}

/**
 * The error with an `explain(source)` when its cause is one an operator can fix; undefined otherwise. A server
 * that cannot be reached stays the store's 503 error (`unavailable`, as the store maps it), which says neither
 * host nor URL itself; a refusal by the server becomes a PostgresConnectError.
 */
export function connectFailure(err: unknown, unavailable: StoreUnavailableError | undefined, config: PoolConfig): Explained<Error> | undefined {
  const reason = reasonOf(err);
  if (reason === undefined) return undefined;
  const at = endpointOf(config);
  if (unavailable) return explained(unavailable, reason, at);
  return explained(new PostgresConnectError(explain(reason, at, 'the database URL')), reason, at);
}

function explain(reason: Reason, at: PostgresEndpoint, source: string): string {
  const server = at.host.startsWith('/') ? `the PostgreSQL server on the socket ${at.host}/.s.PGSQL.${at.port}` : `the PostgreSQL server at ${at.host} port ${at.port}`;
  const who = `user "${at.user}" on database "${at.database}"`;
  switch (reason) {
    case 'password':
      return `${server} refused the password of ${who}; correct the password in ${source} (or the role's, ALTER ROLE "${at.user}" PASSWORD '...')`;
    case 'role':
      return `${server} has no role "${at.user}" (for database "${at.database}"); correct the user in ${source}, or create the role: CREATE ROLE "${at.user}" LOGIN PASSWORD '...'`;
    case 'tls-required':
      return `${server} accepts ${who} only over TLS; add ?sslmode=require to the URL in ${source}`;
    case 'hba':
      return `${server} does not let ${who} connect from this machine (no matching pg_hba.conf entry); allow it there, or correct the user and database in ${source}`;
    case 'database':
      return `${server} has no database "${at.database}" (user "${at.user}"); correct the database in ${source}, or create it: CREATE DATABASE "${at.database}" OWNER "${at.user}"`;
    case 'refused':
      return `nothing accepts connections for ${who} ${server.replace('the PostgreSQL server ', '')}: is PostgreSQL running and listening there? Correct the host and port in ${source} if not`;
    case 'no-host':
      return `the host ${at.host} does not resolve (${who}, port ${at.port}); correct the host in ${source}`;
    case 'timeout':
      return `${server} did not answer in time (${who}); check that it is reachable from this machine (firewall, address), or correct the host and port in ${source}`;
    case 'tls-unsupported':
      return `${server} does not offer TLS, which the sslmode in ${source} requires (${who}); enable ssl on the server, or change sslmode in ${source}`;
  }
}
