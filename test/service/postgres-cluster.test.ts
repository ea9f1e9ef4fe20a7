// The throwaway PostgreSQL of the test run (test/global-setup.ts, test/support/postgres-cluster.ts): the URL
// injected into the workers reaches a real server through the pg driver, and a cluster's stop() leaves neither
// a process nor its directory behind.
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { randomBytes } from 'node:crypto';
import pg from 'pg';
import { describe, expect, inject, it } from 'vitest';
import { startPostgresCluster } from '../support/postgres-cluster.ts';

/** True while `pid` runs (a zombie waiting to be reaped has stopped running). */
function running(pid: number): boolean {
  try {
    return !/^\d+ \(.*\) Z/.test(readFileSync(`/proc/${pid}/stat`, 'utf8'));
  } catch {
    return false;
  }
}

/** Pids of running processes whose command line names `text` (the postmaster and the watchdog name the dir). */
function processesNaming(text: string): number[] {
  return readdirSync('/proc')
    .filter((entry) => /^\d+$/.test(entry) && Number(entry) !== process.pid)
    .filter((pid) => {
      try {
        return readFileSync(`/proc/${pid}/cmdline`, 'utf8').includes(text) && running(Number(pid));
      } catch {
        return false;
      }
    })
    .map(Number);
}

/** The socket dir of a `postgresql://postgres@/postgres?host=DIR` URL (WHATWG URL refuses a user without a host). */
const socketDir = (url: string): string => decodeURIComponent(/[?&]host=([^&]+)/.exec(url)![1]!);

async function until(check: () => boolean, ms: number): Promise<boolean> {
  for (const end = Date.now() + ms; Date.now() < end; await new Promise((r) => setTimeout(r, 50))) if (check()) return true;
  return check();
}

describe('the test run PostgreSQL', () => {
  it('is reachable at the injected URL and keeps what is written', async () => {
    const client = new pg.Client({ connectionString: inject('pgUrl') });
    await client.connect();
    const schema = `t_${randomBytes(6).toString('hex')}`;
    try {
      const { rows: version } = await client.query<{ version: string }>('SELECT version()');
      expect(version[0]!.version).toMatch(/^PostgreSQL \d+/);
      await client.query(`CREATE SCHEMA ${schema}`);
      await client.query(`CREATE TABLE ${schema}.items (id serial PRIMARY KEY, name text NOT NULL, doc jsonb)`);
      await client.query(`INSERT INTO ${schema}.items (name, doc) VALUES ($1, $2), ($3, $4)`, ['a', { n: 1 }, 'b', { n: 2 }]);
      const { rows } = await client.query(`SELECT id, name, doc FROM ${schema}.items ORDER BY id`);
      expect(rows).toEqual([
        { id: 1, name: 'a', doc: { n: 1 } },
        { id: 2, name: 'b', doc: { n: 2 } },
      ]);
      await client.query(`DROP SCHEMA ${schema} CASCADE`);
      const { rows: left } = await client.query('SELECT 1 FROM information_schema.schemata WHERE schema_name = $1', [schema]);
      expect(left).toEqual([]);
    } finally {
      await client.query(`DROP SCHEMA IF EXISTS ${schema} CASCADE`);
      await client.end();
    }
  });

  it('a second cluster starts beside it, and stop() leaves no process and no directory', async () => {
    const cluster = await startPostgresCluster();
    expect(cluster.version).toMatch(/^\d+/);
    expect(cluster.settings).toMatchObject({ fsync: 'off', synchronous_commit: 'off', full_page_writes: 'off' });
    const dir = socketDir(cluster.url);
    expect(dir).not.toBe(socketDir(inject('pgUrl')));
    const postmaster = Number(readFileSync(`${dir}/data/postmaster.pid`, 'utf8').split('\n')[0]);
    expect(running(postmaster)).toBe(true);

    const client = new pg.Client({ connectionString: cluster.url });
    await client.connect();
    expect((await client.query('SELECT 1 + 1 AS two')).rows).toEqual([{ two: 2 }]);
    await client.end();

    await cluster.stop();
    await cluster.stop(); // idempotent
    expect(running(postmaster)).toBe(false);
    expect(existsSync(dir)).toBe(false);
    // The watchdog notices the dir is gone within its 500 ms poll and exits.
    expect(await until(() => processesNaming(dir).length === 0, 3_000)).toBe(true);
  });

  it('a durable cluster (the benchmarks\') keeps PostgreSQL\'s durability on, and stops as the others do', async () => {
    const cluster = await startPostgresCluster({ durable: true });
    const dir = socketDir(cluster.url);
    try {
      expect(cluster.settings).toMatchObject({ fsync: 'on', synchronous_commit: 'on', full_page_writes: 'on', max_connections: '100' });
      const client = new pg.Client({ connectionString: cluster.url });
      await client.connect();
      expect((await client.query('SHOW synchronous_commit')).rows).toEqual([{ synchronous_commit: 'on' }]);
      await client.end();
    } finally {
      await cluster.stop();
    }
    expect(existsSync(dir)).toBe(false);
  });
});
