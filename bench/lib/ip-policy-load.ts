// The load the service benchmarks put on `edgeops serve` processes: IP policy creates and list pages, from a
// load generator in its own process (bench/scale-load-child.ts), so neither the service nor the runner shares
// its event loop, and an untimed fill so that list pages read a populated table.
import { Pool } from 'undici';
import { benchScript, spawnTs } from './child.ts';
import type { LoadOptions, LoadResult } from './load.ts';

export const CONNECTIONS = 16;
export const KEY = 'bench-key';
export const READ_PATH = '/ip_policies?limit=100';
export const CREATE_PATH = '/ip_policies';
export const CREATE_BODY = JSON.stringify({ description: 'bench write', metadata: '{"bench":true}' });
export const HEADERS = { authorization: `Bearer ${KEY}`, 'service-version': '2' };

/** One load phase in the load-generator process. */
export async function load(origin: string, path: string, opts: LoadOptions): Promise<LoadResult> {
  const child = spawnTs(benchScript('scale-load-child.ts'), [origin, path, JSON.stringify(opts)]);
  try {
    return await child.next<LoadResult>(120_000);
  } finally {
    await child.stop();
  }
}

/** `count` IP policies created with CONNECTIONS in flight (untimed), so list pages read a populated table. */
export async function fill(origin: string, count: number): Promise<void> {
  const pool = new Pool(origin, { connections: CONNECTIONS });
  let left = count;
  try {
    const worker = async () => {
      while (left-- > 0) {
        const res = await pool.request({ path: CREATE_PATH, method: 'POST', headers: { ...HEADERS, 'content-type': 'application/json' }, body: CREATE_BODY });
        const text = await res.body.text();
        if (res.statusCode !== 201) throw new Error(`fill ${origin}: ${res.statusCode} ${text.slice(0, 200)}`);
      }
    };
    await Promise.all(Array.from({ length: CONNECTIONS }, worker));
  } finally {
    await pool.close();
  }
}
