// Which store a `--db` value names: a postgres:// or postgresql:// URL is PostgreSQL, anything else an SQLite
// file, and nothing at all an in-memory SQLite database. The PostgreSQL backend (and its driver) is loaded only
// when asked for.
import type { Store, StoreOptions } from '../store.ts';

export function isPostgresUrl(target: string | undefined): target is string {
  return target !== undefined && /^postgres(?:ql)?:\/\//i.test(target);
}

/** Brings the schema of `target` up to date; the versions before and after. */
export async function migrateStore(target: string): Promise<{ from: number; to: number }> {
  if (isPostgresUrl(target)) {
    const { migratePostgres } = await import('./postgres.ts');
    return migratePostgres(target);
  }
  const { openSqliteStore } = await import('./sqlite.ts');
  const store = await openSqliteStore(target);
  await store.close();
  return store.migrated;
}

export async function openStore(target: string | undefined, opts: StoreOptions = {}): Promise<Store> {
  if (isPostgresUrl(target)) {
    const { openPostgresStore } = await import('./postgres.ts');
    return openPostgresStore(target, opts);
  }
  const { openSqliteStore } = await import('./sqlite.ts');
  return openSqliteStore(target, opts.durability);
}
