// Data no configured key reaches is announced at start: `edgeops serve` warns once per account that holds
// resources and has no key (data written with --api-key belongs to `default`, which a restart with only
// --accounts leaves without a key). On the store the test project names: SQLite, and PostgreSQL.
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { api, storeOf, tempDbFile } from '../helpers/service.ts';
import { serve, type ServeChild } from '../cli/serve-child.ts';

const tmp = tempDbFile();
afterAll(() => tmp.cleanup());
const dir = join(tmp.dbFile, '..');

async function stop(s: ServeChild): Promise<void> {
  s.child.kill('SIGTERM');
  expect(await s.exited).toBe(0);
}

/** Starts `serve` on db with these arguments, runs fn with its URL, stops it; its stderr. */
async function serving(db: string, args: string[], fn: (url: string) => Promise<void> = async () => {}): Promise<string> {
  const s = serve(['--port', '0', '--quiet', '--db', db, ...args]);
  try {
    const url = await s.url;
    expect((await fetch(`${url}/healthz`)).status).toBe(200);
    await fn(url);
  } finally {
    await stop(s);
  }
  return s.errors();
}

describe('accounts holding data that no configured key reaches', () => {
  it('warns at start for each such account, with its count and how to add its key, and for none that has a key', async () => {
    const db = storeOf(join(dir, 'unreached.db'));
    await serving(db, ['--api-key', 'old-default-key', '--account', 'team-a=key-of-team-a'], async (url) => {
      const d = api({ url, apiKey: 'old-default-key' });
      for (const description of ['one', 'two', 'three']) expect((await d.post('/ip_policies', { description })).status).toBe(201);
      expect((await api({ url, apiKey: 'key-of-team-a' }).post('/ip_policies', { description: 'a' })).status).toBe(201);
    });

    const file = join(dir, 'accounts.yaml');
    writeFileSync(file, 'team-b:\n  - key-of-team-b\n');
    const warned = await serving(db, ['--accounts', file]);
    expect(warned.trim().split('\n')).toEqual([
      'Warning: account default holds 3 resources and no configured key reaches it; add its key with --api-key or under "default:" in accounts.yaml',
      'Warning: account team-a holds 1 resource and no configured key reaches it; add its key with --account team-a=KEY or under "team-a:" in accounts.yaml',
    ]);

    // Every account with data has a key again: nothing to say. With no key at all, the default account is reached.
    expect(await serving(db, ['--api-key', 'old-default-key', '--account', 'team-a=key-of-team-a'])).toBe('');
    expect((await serving(db, [])).trim()).toBe(
      'Warning: account team-a holds 1 resource and no configured key reaches it; add its key with --account team-a=KEY or under "team-a:" in accounts.yaml',
    );
  });

  it('says nothing for an empty database', async () => {
    expect(await serving(storeOf(join(dir, 'empty.db')), ['--accounts', join(dir, 'accounts.yaml')])).toBe('');
  });
});
