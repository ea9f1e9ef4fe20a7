// A PostgreSQL URL as edgeops takes it: pg's own URL, plus a `schema` parameter that pg does not know (every
// connection's search_path) and an `options` parameter merged with it.

/** What a schema name may be: unquoted in SQL, and at most PostgreSQL's 63 bytes. */
const SCHEMA_NAME = /^[a-z_][a-z0-9_]{0,62}$/;

export interface PostgresTarget {
  /** The URL for pg, without our own parameters. */
  connectionString: string;
  /** From `?schema=`: every connection's search_path, created by the migration if missing. */
  schema?: string;
  /** The URL's own `options` parameter, which pg would otherwise let override ours. */
  options?: string;
}

/** Splits off our `schema` parameter (and `options`, to merge with the search_path) from a postgres URL. */
export function parsePostgresUrl(url: string): PostgresTarget {
  const hash = url.indexOf('#');
  const withoutHash = hash < 0 ? url : url.slice(0, hash);
  const q = withoutHash.indexOf('?');
  if (q < 0) return { connectionString: url };
  const params = withoutHash.slice(q + 1).split('&').filter((p) => p !== '');
  let schema: string | undefined;
  let options: string | undefined;
  const kept: string[] = [];
  for (const param of params) {
    const eq = param.indexOf('=');
    const key = decode(eq < 0 ? param : param.slice(0, eq));
    const value = eq < 0 ? '' : decode(param.slice(eq + 1));
    if (key === 'schema') schema = value;
    else if (key === 'options') options = value;
    else kept.push(param);
  }
  if (schema !== undefined && !SCHEMA_NAME.test(schema)) {
    throw new Error(`the database URL's schema parameter must match ${SCHEMA_NAME} (lowercase letters, digits, _; at most 63), got ${JSON.stringify(schema.slice(0, 80))}`);
  }
  const connectionString = withoutHash.slice(0, q) + (kept.length > 0 ? `?${kept.join('&')}` : '');
  return { connectionString, ...(schema !== undefined ? { schema } : {}), ...(options !== undefined ? { options } : {}) };
}

function decode(s: string): string {
  try {
    return decodeURIComponent(s.replace(/\+/g, ' '));
  } catch {
    return s;
  }
}
