// `edgeops serve` as a child process: prints its URL, answers authenticated requests, keeps data in --db,
// and closes cleanly on SIGTERM and SIGINT.
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { api } from '../helpers/service.ts';
import { serve } from './serve-child.ts';

const dir = mkdtempSync(join(tmpdir(), 'edgeops-serve-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

describe('edgeops serve', () => {
  it('serves the API with the given key and database until SIGTERM, and the data survives a restart', async () => {
    const db = join(dir, 'edge.db');
    const first = serve(['--port', '0', '--api-key', 'k1', '--api-key', 'k2', '--db', db]);
    const url = await first.url;
    expect(url).toMatch(/^http:\/\/127\.0\.0\.1:\d+$/);
    expect(first.output()).toContain('API keys: 2 configured');
    const created = await api({ url, apiKey: 'k2' }).post('/ip_policies', { description: 'kept' });
    expect(created.status).toBe(201);
    expect((await api({ url, apiKey: 'wrong' }).get('/ip_policies')).status).toBe(401);
    first.child.kill('SIGTERM');
    expect(await first.exited).toBe(0);
    expect(first.output()).toContain('SIGTERM: closing');

    const second = serve(['--port', '0', '--api-key', 'k1', '--db', db]);
    const url2 = await second.url;
    const got = await api({ url: url2, apiKey: 'k1' }).get(`/ip_policies/${created.body.id}`);
    expect(got.status).toBe(200);
    expect(got.body.description).toBe('kept');
    second.child.kill('SIGINT');
    expect(await second.exited).toBe(0);
  });

  it('rejects a bad port', async () => {
    const bad = serve(['--port', 'eighty']);
    await expect(bad.url).rejects.toThrow(/--port: port must be an integer from 0 to 65535/);
    expect(await bad.exited).toBe(1);
  });
});
