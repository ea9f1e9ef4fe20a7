// The PostgreSQL store against a real server: the Store contract as the SQLite store keeps it (order, paging,
// tombstones, accounts, claims, refs, rollback, versions), and what only several instances on one database can
// break: lost updates, the shared rate limit, concurrent migrations, lock timeouts, lost connections.
import { randomBytes } from 'node:crypto';
import pg from 'pg';
import { afterAll, describe, expect, inject, it, vi } from 'vitest';
import { ClaimTakenError, StoreSchemaError, StoreUnavailableError, timestampOf, type Store } from '../../src/service/store.ts';
import { migratePostgres, openPostgresStore } from '../../src/service/stores/postgres.ts';
import { parsePostgresUrl } from '../../src/service/stores/postgres-url.ts';
import { POSTGRES_MIGRATIONS } from '../../src/service/stores/postgres-migrations.ts';

const BASE = process.env.EDGEOPS_TEST_PG || inject('pgUrl');
if (!BASE) throw new Error('postgres-store.test.ts needs EDGEOPS_TEST_PG (or the globalSetup that provides pgUrl)');
const LATEST = POSTGRES_MIGRATIONS.at(-1)!.version;

const schemas: string[] = [];
const stores: Store[] = [];

/** A fresh schema name, dropped after the file. */
function newSchema(): string {
  const name = `t_${randomBytes(6).toString('hex')}`;
  schemas.push(name);
  return name;
}

function urlOf(schema: string, extra = ''): string {
  return `${BASE}${BASE.includes('?') ? '&' : '?'}schema=${schema}${extra}`;
}

async function open(schema: string, opts: Parameters<typeof openPostgresStore>[1] = {}): Promise<Store> {
  const store = await openPostgresStore(urlOf(schema), opts);
  stores.push(store);
  return store;
}

/** A plain pg client on the test server, outside any store. */
async function raw(): Promise<pg.Client> {
  const client = new pg.Client({ connectionString: parsePostgresUrl(BASE).connectionString });
  client.on('error', () => undefined);
  await client.connect();
  return client;
}

/** One store per file section, shared by its tests: every test uses its own ids and kinds. */
const main = newSchema();
let mainStore: Store | undefined;
async function store(): Promise<Store> {
  return (mainStore ??= await open(main));
}

let counter = 0;
const uid = (prefix: string): string => `${prefix}_${Date.now().toString(36)}${(counter++).toString(36)}${randomBytes(4).toString('hex')}`;

afterAll(async () => {
  await Promise.all(stores.map((s) => s.close()));
  const client = await raw();
  try {
    for (const s of schemas) await client.query(`DROP SCHEMA IF EXISTS "${s}" CASCADE`);
  } finally {
    await client.end();
  }
});

describe('documents', () => {
  it('insert then get, list newest first, and paging with beforeSeq', async () => {
    const s = await store();
    const kind = uid('kind');
    const inserted = await s.write('default', async (tx) => {
      const out = [];
      for (let i = 0; i < 5; i++) out.push(await tx.insert({ id: uid('d'), kind }, { i, 'x-b': 1, 'X-A': 2, n: 1.5 }));
      return out;
    });
    expect(inserted.map((d) => d.seq)).toEqual([...inserted.map((d) => d.seq)].sort((a, b) => a - b));
    expect(new Set(inserted.map((d) => d.seq)).size).toBe(5);

    const { value } = await s.read('default', async (tx) => ({
      one: await tx.get(inserted[2]!.id),
      page1: await tx.list(kind, { limit: 2 }),
      page2: await tx.list(kind, { limit: 2, beforeSeq: inserted[3]!.seq }),
      page3: await tx.list(kind, { limit: 2, beforeSeq: inserted[1]!.seq }),
      none: await tx.get('nope'),
    }));
    expect(value.one).toEqual(inserted[2]);
    // The JSON text comes back as written: key order kept.
    expect(Object.keys(value.one!.data)).toEqual(['i', 'x-b', 'X-A', 'n']);
    expect({ kind: value.one!.kind, parentId: value.one!.parentId }).toEqual({ kind, parentId: null });
    expect(value.page1.map((d) => d.data.i)).toEqual([4, 3]);
    expect(value.page2.map((d) => d.data.i)).toEqual([2, 1]);
    expect(value.page3.map((d) => d.data.i)).toEqual([0]);
    expect(value.none).toBeUndefined();
  });

  it('children list under their parent only, and update replaces data', async () => {
    const s = await store();
    const kind = uid('child');
    const [p1, p2] = [uid('p'), uid('p')];
    const ids = await s.write('default', async (tx) => {
      const a = await tx.insert({ id: uid('c'), kind, parentId: p1 }, { n: 1 });
      const b = await tx.insert({ id: uid('c'), kind, parentId: p2 }, { n: 2 });
      const c = await tx.insert({ id: uid('c'), kind, parentId: p1 }, { n: 3 });
      await tx.update(a.id, { n: 10 });
      return [a.id, b.id, c.id];
    });
    const { value } = await s.read('default', async (tx) => ({
      under1: await tx.list(kind, { parentId: p1, limit: 10 }),
      all: await tx.list(kind, { limit: 10 }),
      located: await tx.get(ids[0]!),
    }));
    expect(value.under1.map((d) => d.data)).toEqual([{ n: 3 }, { n: 10 }]);
    expect(value.all.map((d) => d.id)).toEqual([ids[2], ids[1], ids[0]]);
    expect({ kind: value.located!.kind, parentId: value.located!.parentId }).toEqual({ kind, parentId: p1 });
  });

  it('a deleted id keeps its position for seqOf (its kind only), and is gone from get and list', async () => {
    const s = await store();
    const kind = uid('tomb');
    const doc = await s.write('default', (tx) => tx.insert({ id: uid('t'), kind }, { a: 1 }));
    await s.write('default', async (tx) => tx.delete((await tx.get(doc.id))!));
    const { value } = await s.read('default', async (tx) => ({
      seq: await tx.seqOf(doc.id, kind),
      otherKind: await tx.seqOf(doc.id, 'other'),
      got: await tx.get(doc.id),
      listed: await tx.list(kind, { limit: 10 }),
    }));
    expect(value).toEqual({ seq: doc.seq, otherKind: undefined, got: undefined, listed: [] });
    // A live id's seqOf as well.
    const live = await s.write('default', (tx) => tx.insert({ id: uid('t'), kind }, {}));
    expect((await s.read('default', (tx) => tx.seqOf(live.id, kind))).value).toBe(live.seq);
  });

  it('created_at and now() come from the database clock, not this process', async () => {
    const s = await store();
    const client = await raw();
    try {
      const dbNow = async (): Promise<number> => Number((await client.query('SELECT (extract(epoch FROM clock_timestamp()) * 1000)::bigint AS ms')).rows[0].ms);
      const before = await dbNow();
      // This process's clock is moved 20 years back: only the database's can give a current created_at.
      vi.useFakeTimers({ toFake: ['Date'] });
      vi.setSystemTime(new Date('2001-02-03T04:05:06Z'));
      let doc;
      let now;
      try {
        [doc, now] = await s.write('default', async (tx) => [await tx.insert({ id: uid('clock'), kind: uid('clock') }, {}), tx.now()] as const);
      } finally {
        vi.useRealTimers();
      }
      const after = await dbNow();
      expect(now.getTime()).toBeGreaterThanOrEqual(before);
      expect(now.getTime()).toBeLessThanOrEqual(after);
      expect(doc.createdAt).toBe(timestampOf(now));
      expect(doc.createdAt).toMatch(/^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\dZ$/);
      expect(doc.createdAt.startsWith('2001')).toBe(false);
    } finally {
      await client.end();
    }
  });
});

describe('accounts', () => {
  it("another account's id is invisible to get, seqOf, list and update", async () => {
    const s = await store();
    const kind = uid('acct');
    const a = await s.write('acct-a', (tx) => tx.insert({ id: uid('a'), kind }, { owner: 'a' }));
    const gone = await s.write('acct-a', (tx) => tx.insert({ id: uid('a'), kind }, {}));
    await s.write('acct-a', (tx) => tx.delete(gone));
    await s.write('acct-b', (tx) => tx.update(a.id, { owner: 'b' }));
    const fromB = await s.read('acct-b', async (tx) => ({
      get: await tx.get(a.id),
      seqOf: await tx.seqOf(a.id, kind),
      tombstone: await tx.seqOf(gone.id, kind),
      list: await tx.list(kind, { limit: 10 }),
    }));
    expect(fromB.value).toEqual({ get: undefined, seqOf: undefined, tombstone: undefined, list: [] });
    const fromA = await s.read('acct-a', async (tx) => ({ get: await tx.get(a.id), tombstone: await tx.seqOf(gone.id, kind), list: await tx.list(kind, { limit: 10 }) }));
    expect(fromA.value.get?.data).toEqual({ owner: 'a' });
    expect(fromA.value.tombstone).toBe(gone.seq);
    expect(fromA.value.list.map((d) => d.id)).toEqual([a.id]);
    // The tx says which account it is.
    expect((await s.read('acct-b', async (tx) => tx.accountId)).value).toBe('acct-b');
  });
});

describe('claims', () => {
  it('a value another document holds (any account) throws ClaimTakenError; claimHolder tells the account apart', async () => {
    const s = await store();
    const key = uid('host') + '.tcp.ngrok.io:1234';
    const owner = await s.write('acct-a', async (tx) => {
      const doc = await tx.insert({ id: uid('edge'), kind: 'edge' }, {});
      await tx.setClaims(doc.id, [{ scope: 'hostport', key }]);
      return doc;
    });
    // Re-claiming its own value is fine (replaces its claims).
    await s.write('acct-a', (tx) => tx.setClaims(owner.id, [{ scope: 'hostport', key }]));

    for (const account of ['acct-a', 'acct-b']) {
      const err = await s.write(account, async (tx) => {
        const other = await tx.insert({ id: uid('edge'), kind: 'edge' }, {});
        await tx.setClaims(other.id, [{ scope: 'hostport', key }]);
      }).catch((e: unknown) => e);
      expect(err).toBeInstanceOf(ClaimTakenError);
      expect(err).toMatchObject({ scope: 'hostport', key });
    }
    const holders = await Promise.all(['acct-a', 'acct-b'].map(async (acct) => (await s.read(acct, (tx) => tx.claimHolder('hostport', key))).value));
    expect(holders).toEqual([{ ownerId: owner.id, sameAccount: true }, { ownerId: owner.id, sameAccount: false }]);
    expect((await s.read('acct-a', (tx) => tx.claimHolder('other-scope', key))).value).toBeUndefined();

    // After a ClaimTakenError the transaction is still usable, as in SQLite: the caller decides.
    const usable = await s.write('acct-b', async (tx) => {
      const other = await tx.insert({ id: uid('edge'), kind: 'edge' }, {});
      const caught = await tx.setClaims(other.id, [{ scope: 'hostport', key }]).catch((e: unknown) => e);
      return { caught, again: await tx.get(other.id) };
    });
    expect(usable.caught).toBeInstanceOf(ClaimTakenError);
    expect(usable.again).toBeDefined();

    // Deleting the owner frees the value.
    await s.write('acct-a', (tx) => tx.delete(owner));
    expect((await s.read('acct-b', (tx) => tx.claimHolder('hostport', key))).value).toBeUndefined();
    await s.write('acct-b', async (tx) => {
      const doc = await tx.insert({ id: uid('edge'), kind: 'edge' }, {});
      await tx.setClaims(doc.id, [{ scope: 'hostport', key }]);
    });
  });
});

describe('references', () => {
  it('referrers in the referrer order, replaced by setRefs; deleting a referenced doc fails loudly', async () => {
    const s = await store();
    const kind = uid('ref');
    const [x, y, z] = await s.write('default', async (tx) => {
      const x = await tx.insert({ id: uid('x'), kind }, {});
      const y = await tx.insert({ id: uid('y'), kind: 'y-kind' }, {});
      const z = await tx.insert({ id: uid('z'), kind: 'z-kind' }, {});
      await tx.setRefs(z.id, [{ toId: x.id, field: 'b' }, { toId: x.id, field: 'a' }]);
      await tx.setRefs(y.id, [{ toId: x.id, field: 'f' }, { toId: x.id, field: 'f' }]);
      return [x, y, z];
    });
    expect((await s.read('default', (tx) => tx.referrers(x!.id))).value).toEqual([
      { fromId: y!.id, kind: 'y-kind', field: 'f' },
      { fromId: z!.id, kind: 'z-kind', field: 'b' },
      { fromId: z!.id, kind: 'z-kind', field: 'a' },
    ]);
    await s.write('default', (tx) => tx.setRefs(z!.id, [{ toId: y!.id, field: 'g' }]));
    expect((await s.read('default', (tx) => tx.referrers(x!.id))).value).toEqual([{ fromId: y!.id, kind: 'y-kind', field: 'f' }]);

    // The service checks referrers first; the database refuses anyway, with its own error, not a silent delete.
    const err = await s.write('default', (tx) => tx.delete(x!)).catch((e: unknown) => e);
    expect(err).toMatchObject({ code: '23503' });
    expect(err).not.toBeInstanceOf(StoreUnavailableError);
    expect((await s.read('default', (tx) => tx.get(x!.id))).value).toBeDefined();

    // Deleting the referrer drops its refs, then the target can go.
    await s.write('default', (tx) => tx.setRefs(z!.id, []));
    await s.write('default', (tx) => tx.delete(y!));
    expect((await s.read('default', (tx) => tx.referrers(x!.id))).value).toEqual([]);
    await s.write('default', (tx) => tx.delete(x!));
    expect((await s.read('default', (tx) => tx.referrers(y!.id))).value).toEqual([]);
  });
});

describe('transactions and versions', () => {
  it('a throw rolls back everything and comes out unchanged, even one that looks like a connection error', async () => {
    const s = await store();
    const kind = uid('rb');
    const before = await s.version();
    const boom = Object.assign(new Error('boom'), { code: 'ECONNRESET' });
    const id = uid('rb');
    const err = await s.write('default', async (tx) => {
      const doc = await tx.insert({ id, kind }, {});
      await tx.setClaims(doc.id, [{ scope: 'rb', key: id }]);
      throw boom;
    }).catch((e: unknown) => e);
    expect(err).toBe(boom);
    const { value } = await s.read('default', async (tx) => ({
      got: await tx.get(id),
      list: await tx.list(kind, { limit: 5 }),
      holder: await tx.claimHolder('rb', id),
    }));
    expect(value).toEqual({ got: undefined, list: [], holder: undefined });
    expect(await s.version()).toBe(before);
    // The read's own throw comes out unchanged too.
    const readErr = new Error('read boom');
    await expect(s.read('default', async () => { throw readErr; })).rejects.toBe(readErr);
  });

  it('version() changes with a write, not with a read; a read reports the version of its snapshot', async () => {
    const s = await store();
    const v0 = await s.version();
    const r0 = await s.read('default', (tx) => tx.list('anything', { limit: 1 }));
    expect(r0.version).toBe(v0);
    expect(await s.version()).toBe(v0);
    await s.write('default', (tx) => tx.insert({ id: uid('v'), kind: uid('v') }, {}));
    const v1 = await s.version();
    expect(v1).not.toBe(v0);
    expect((await s.read('default', async () => 0)).version).toBe(v1);
  });

  it("durability 'relaxed' writes and reads like 'full'", async () => {
    const relaxed = await open(main, { durability: 'relaxed', poolSize: 2 });
    const doc = await relaxed.write('default', (tx) => tx.insert({ id: uid('rel'), kind: uid('rel') }, { a: 1 }));
    expect((await (await store()).read('default', (tx) => tx.get(doc.id))).value).toEqual(doc);
  });
});

describe('two instances on one schema', () => {
  it('10 concurrent read-modify-writes of one document through two stores lose nothing', async () => {
    const schema = newSchema();
    const [a, b] = [await open(schema), await open(schema)];
    const doc = await a.write('default', (tx) => tx.insert({ id: uid('esb'), kind: 'esb' }, { sources: [] as number[] }));
    await Promise.all(
      Array.from({ length: 10 }, (_, i) =>
        (i % 2 ? a : b).write('default', async (tx) => {
          const current = await tx.get<{ sources: number[] }>(doc.id);
          await new Promise((r) => setTimeout(r, 5));
          await tx.update(doc.id, { sources: [...current!.data.sources, i] });
        }),
      ),
    );
    const final = (await b.read('default', (tx) => tx.get<{ sources: number[] }>(doc.id))).value!;
    expect([...final.data.sources].sort((x, y) => x - y)).toEqual([0, 1, 2, 3, 4, 5, 6, 7, 8, 9]);
    // Each instance sees the other's writes in its next version and read.
    expect(await a.version()).toBe(await b.version());
  });

  it('seq and created_at follow commit order across instances', async () => {
    const schema = newSchema();
    const [a, b] = [await open(schema), await open(schema)];
    const docs = await Promise.all(
      Array.from({ length: 12 }, (_, i) => (i % 2 ? a : b).write('default', (tx) => tx.insert({ id: uid('o'), kind: 'o' }, { i }))),
    );
    const listed = (await a.read('default', (tx) => tx.list('o', { limit: 20 }))).value;
    expect(listed).toHaveLength(12);
    const bySeq = [...listed].sort((x, y) => x.seq - y.seq);
    const created = bySeq.map((d) => d.createdAt);
    expect(created).toEqual([...created].sort());
    expect(new Set(docs.map((d) => d.seq)).size).toBe(12);
  });

  it('20 concurrent rateTake at limit 5 over two stores admit exactly 5', async () => {
    const schema = newSchema();
    const [a, b] = [await open(schema, { poolSize: 5 }), await open(schema, { poolSize: 5 })];
    const key = uid('key');
    const verdicts = await Promise.all(Array.from({ length: 20 }, (_, i) => (i % 2 ? a : b).rateTake(key, 5, 60_000)));
    expect(verdicts.filter((v) => v.ok)).toHaveLength(5);
    const refused = verdicts.filter((v) => !v.ok) as { ok: false; retryAfterSeconds: number }[];
    expect(refused).toHaveLength(15);
    for (const v of refused) {
      expect(v.retryAfterSeconds).toBeGreaterThanOrEqual(59);
      expect(v.retryAfterSeconds).toBeLessThanOrEqual(60);
    }
    // Another key has its own window; a short window frees its slot.
    expect(await a.rateTake(uid('key'), 5, 60_000)).toEqual({ ok: true });
    const short = uid('key');
    expect(await a.rateTake(short, 1, 300)).toEqual({ ok: true });
    expect(await b.rateTake(short, 1, 300)).toEqual({ ok: false, retryAfterSeconds: 1 });
    await new Promise((r) => setTimeout(r, 350));
    expect(await b.rateTake(short, 1, 300)).toEqual({ ok: true });
  });

  it('a write waiting over 2 s for the write lock is StoreUnavailableError busy, and changes nothing', async () => {
    const schema = newSchema();
    const s = await open(schema);
    const client = await raw();
    try {
      await client.query('BEGIN');
      await client.query(`UPDATE "${schema}".meta SET version = version`);
      const started = Date.now();
      const err = await s.write('default', (tx) => tx.insert({ id: uid('busy'), kind: 'busy' }, {})).catch((e: unknown) => e);
      const waited = Date.now() - started;
      expect(err).toBeInstanceOf(StoreUnavailableError);
      expect(err).toMatchObject({ reason: 'busy', detail: '55P03' });
      expect(waited).toBeGreaterThanOrEqual(1900);
      expect(waited).toBeLessThan(10_000);
      // Reads are not blocked by writers.
      expect((await s.read('default', (tx) => tx.list('busy', { limit: 5 }))).value).toEqual([]);
    } finally {
      await client.query('ROLLBACK');
      await client.end();
    }
    // The connection went back to the pool in good order.
    await s.write('default', (tx) => tx.insert({ id: uid('busy'), kind: 'busy' }, {}));
    expect((await s.read('default', (tx) => tx.list('busy', { limit: 5 }))).value).toHaveLength(1);
  });
});

describe('migrations', () => {
  it('two stores opening a fresh schema at once both succeed; migratePostgres reports from and to', async () => {
    const schema = newSchema();
    const [a, b] = await Promise.all([open(schema), open(schema)]);
    await a.write('default', (tx) => tx.insert({ id: uid('m'), kind: 'm' }, {}));
    expect((await b.read('default', (tx) => tx.list('m', { limit: 5 }))).value).toHaveLength(1);
    expect(await migratePostgres(urlOf(schema))).toEqual({ from: LATEST, to: LATEST });
    const fresh = newSchema();
    expect(await migratePostgres(urlOf(fresh))).toEqual({ from: 0, to: LATEST });
    const client = await raw();
    try {
      const row = (await client.query(`SELECT schema_version, version FROM "${fresh}".meta`)).rows[0];
      expect(row).toEqual({ schema_version: LATEST, version: '0' });
    } finally {
      await client.end();
    }
  });

  it('a schema newer than this build is refused with StoreSchemaError', async () => {
    const schema = newSchema();
    await migratePostgres(urlOf(schema));
    const client = await raw();
    try {
      await client.query(`UPDATE "${schema}".meta SET schema_version = ${LATEST + 7}`);
    } finally {
      await client.end();
    }
    const err = await openPostgresStore(urlOf(schema)).catch((e: unknown) => e);
    expect(err).toBeInstanceOf(StoreSchemaError);
    expect((err as Error).message).toContain(`schema version ${LATEST + 7}`);
    expect((err as Error).message).toContain(`(${LATEST})`);
    expect((err as Error).message).toContain('use a newer edgeops');
    await expect(migratePostgres(urlOf(schema))).rejects.toBeInstanceOf(StoreSchemaError);
  });

  it('an invalid schema name is refused before connecting', async () => {
    await expect(openPostgresStore(urlOf('Bad-Name'))).rejects.toThrow(/schema parameter/);
    await expect(openPostgresStore(urlOf('x; drop'))).rejects.toThrow(/schema parameter/);
  });

  it('the URL keeps everything but our own schema parameter', () => {
    expect(parsePostgresUrl('postgresql://postgres@/postgres?host=/tmp/d&schema=t_1')).toEqual({
      connectionString: 'postgresql://postgres@/postgres?host=/tmp/d',
      schema: 't_1',
    });
    expect(parsePostgresUrl('postgres://u:p@h:5432/db?schema=s&sslmode=disable')).toEqual({ connectionString: 'postgres://u:p@h:5432/db?sslmode=disable', schema: 's' });
    expect(parsePostgresUrl('postgres://u:p@h/db')).toEqual({ connectionString: 'postgres://u:p@h/db' });
  });
});

describe('a database that is not there, or goes away', () => {
  it('no server behind the socket: open and migrate fail as unavailable, without the URL', async () => {
    const url = 'postgresql://postgres:s3cret@/postgres?host=/nonexistent-edgeops-dir&schema=t_x';
    for (const attempt of [openPostgresStore(url), migratePostgres(url)]) {
      const err = await attempt.catch((e: unknown) => e);
      expect(err).toBeInstanceOf(StoreUnavailableError);
      expect(err).toMatchObject({ reason: 'unavailable', detail: 'ENOENT' });
      expect((err as Error).message).not.toContain('s3cret');
      expect((err as Error).message).not.toContain('nonexistent');
    }
  });

  it('connections killed by the server (idle or mid-transaction) are 503s, never crashes, and the store recovers', async () => {
    const schema = newSchema();
    const appName = `edgeops_${schema}`;
    const s = await openPostgresStore(urlOf(schema, `&application_name=${appName}`), { poolSize: 3, log: () => undefined });
    stores.push(s);
    // Fill the pool with idle connections.
    await Promise.all(Array.from({ length: 3 }, (_, i) => s.write('default', (tx) => tx.insert({ id: uid('k'), kind: 'k' }, { i }))));
    const client = await raw();
    const kill = (): Promise<unknown> =>
      client.query('SELECT pg_terminate_backend(pid) FROM pg_stat_activity WHERE application_name = $1 AND pid <> pg_backend_pid()', [appName]);
    try {
      // Mid-transaction: the connection dies under the handler.
      const err = await s.write('default', async (tx) => {
        await tx.get('anything');
        await kill();
        await new Promise((r) => setTimeout(r, 100));
        return tx.get('anything');
      }).catch((e: unknown) => e);
      expect(err).toBeInstanceOf(StoreUnavailableError);
      expect((err as StoreUnavailableError).reason).toBe('unavailable');
      expect((err as Error).message).not.toMatch(/terminat|administrator/i);

      // Idle ones: whichever requests still meet a dead connection are 503s, and the pool soon opens new ones.
      await kill();
      let ok = false;
      for (let i = 0; i < 10 && !ok; i++) {
        try {
          await s.write('default', (tx) => tx.insert({ id: uid('k'), kind: 'k' }, {}));
          ok = true;
        } catch (e) {
          expect(e).toBeInstanceOf(StoreUnavailableError);
        }
      }
      expect(ok).toBe(true);
      await s.ping();
      expect((await s.read('default', (tx) => tx.list('k', { limit: 10 }))).value).toHaveLength(4);
    } finally {
      await client.end();
    }
  });

  it('a closed store refuses as unavailable, and close is idempotent', async () => {
    const s = await openPostgresStore(urlOf(main));
    await s.ping();
    await s.close();
    await s.close();
    await expect(s.write('default', async () => 1)).rejects.toBeInstanceOf(StoreUnavailableError);
    await expect(s.read('default', async () => 1)).rejects.toBeInstanceOf(StoreUnavailableError);
    await expect(s.version()).rejects.toBeInstanceOf(StoreUnavailableError);
    await expect(s.ping()).rejects.toBeInstanceOf(StoreUnavailableError);
  });

  it('backend names itself', async () => {
    expect((await store()).backend).toBe('postgres');
  });
});
