// With no API key configured `edgeops serve` accepts any bearer token; it then listens on loopback only, and a
// non-loopback --host is refused before anything listens or any database is touched, unless a key is configured
// or --allow-any-key says so on purpose. The banner says which in every case.
import { existsSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { checkExposure } from '../../src/service/exposure.ts';
import { api, expectError } from '../helpers/service.ts';
import { serve, type ServeChild } from './serve-child.ts';

const dir = mkdtempSync(join(tmpdir(), 'edgeops-serve-exposure-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

/** The URL of a service listening on every address, reached through 127.0.0.1. */
const viaLoopback = (url: string): string => url.replace(/^http:\/\/[^/]+:(\d+)$/, 'http://127.0.0.1:$1');

async function stop(s: ServeChild): Promise<void> {
  s.child.kill('SIGTERM');
  expect(await s.exited).toBe(0);
}

describe('a keyless service and the address it listens on', () => {
  it('refuses --host 0.0.0.0 with no key: exit 1 naming the flags that add a key, before listening or opening --db', async () => {
    const db = join(dir, 'refused.db');
    const s = serve(['--host', '0.0.0.0', '--port', '0', '--db', db]);
    await expect(s.url).rejects.toThrow(/serve exited early/);
    expect(await s.exited).toBe(1);
    expect(s.output()).toBe('');
    expect(s.errors().trim()).toBe(
      'edgeops: --host 0.0.0.0: no API key is configured, so anyone who can reach this address could read and change every resource; '
      + 'add a key with --api-key KEY (or --account NAME=KEY, --accounts FILE), or pass --allow-any-key to accept any bearer token there on purpose',
    );
    expect(existsSync(db), 'the database was created before the refusal').toBe(false);
  });

  it('serves on 0.0.0.0 with a key, and only that key is accepted', async () => {
    const s = serve(['--host', '0.0.0.0', '--port', '0', '--api-key', 'exposure-key']);
    try {
      const url = viaLoopback(await s.url);
      expect(s.output()).toContain('accounts: default (1 key)');
      expect((await api({ url, apiKey: 'exposure-key' }).get('/ip_policies')).status).toBe(200);
      expectError(await api({ url, apiKey: 'anything' }).get('/ip_policies'), 401, 'ERR_AUTH_INVALID_KEY');
    } finally {
      await stop(s);
    }
  });

  it('serves on 0.0.0.0 with no key when --allow-any-key says so, and the banner says who can reach it', async () => {
    const s = serve(['--host', '0.0.0.0', '--port', '0', '--allow-any-key']);
    try {
      const url = viaLoopback(await s.url);
      expect(s.output()).toContain('accounts: none configured: any bearer token is accepted, for the default account, from anyone who can reach 0.0.0.0 (--allow-any-key)');
      expect((await api({ url, apiKey: 'anything' }).get('/ip_policies')).status).toBe(200);
    } finally {
      await stop(s);
    }
  });

  it('serves on loopback with no key, saying it is this machine only', async () => {
    const s = serve(['--port', '0']);
    try {
      const url = await s.url;
      expect(s.output()).toContain('accounts: none configured: any bearer token is accepted, for the default account, on this machine only (a non-loopback --host needs a key: --api-key, --account or --accounts)');
      expect((await api({ url, apiKey: 'anything' }).get('/ip_policies')).status).toBe(200);
    } finally {
      await stop(s);
    }
  });

  it('tells loopback addresses from the others; a key or --allow-any-key lets any address through', async () => {
    for (const host of ['127.0.0.1', '127.8.9.10', '::1', '0:0:0:0:0:0:0:1', '::ffff:127.0.0.1', 'localhost']) {
      await expect(checkExposure(true, host, false), host).resolves.toBeUndefined();
    }
    for (const host of ['0.0.0.0', '::', '10.1.2.3', '192.0.2.1', '::ffff:10.0.0.1', '2001:db8::1', '1::1']) {
      await expect(checkExposure(true, host, false), host).rejects.toThrow(`--host ${host}: no API key is configured`);
      await expect(checkExposure(false, host, false), host).resolves.toBeUndefined();
      await expect(checkExposure(true, host, true), host).resolves.toBeUndefined();
    }
  });
});
