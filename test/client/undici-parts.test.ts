// The client loads undici's Pool and request() alone: undici's index (fetch, WebSocket, cookies, the cache, and
// through them Node's own copy of undici) costs every command that talks to the service about 60 ms of start-up.
// Checked in a fresh Node, which loads the client the way the CLI does and then lists the undici files it read.
import { execFileSync } from 'node:child_process';
import { join } from 'node:path';
import { expect, it } from 'vitest';
import { createApi } from '../../src/client/http.ts';
import { serviceForFile } from '../helpers/service.ts';

const ROOT = join(import.meta.dirname, '../..');
const { svc } = serviceForFile();

it('loads neither undici\'s index nor its fetch', () => {
  const probe = `
    const { createRequire } = await import('node:module');
    await import('./src/client/http.ts');
    const loaded = Object.keys(createRequire(import.meta.url).cache).filter((f) => f.includes('/node_modules/undici/'));
    console.log(JSON.stringify(loaded.map((f) => f.slice(f.indexOf('/node_modules/undici/') + 21))));
  `;
  const out = execFileSync(process.execPath, ['--import', 'tsx', '--input-type=module', '-e', probe], { cwd: ROOT, encoding: 'utf8' });
  const files = JSON.parse(out) as string[];
  expect(files).toContain('lib/dispatcher/pool.js');
  expect(files).not.toContain('index.js');
  expect(files.filter((f) => f.startsWith('lib/web/'))).toEqual([]);
});

it('still has request() on its pool: a list round-trips', async () => {
  const api = createApi({ url: svc.url, apiKey: svc.apiKey });
  expect(await api.list('/ip_policies', 'ip_policies')).toEqual([]);
  await api.close();
});
