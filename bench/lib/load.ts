// A closed-loop load generator: `connections` workers on one undici Pool, each sending the next request as
// soon as the previous answer's body is read. Throughput = completed requests / measured seconds.
import { Pool } from 'undici';
import { nowMs } from './measure.ts';

export interface LoadResult {
  requests: number;
  errors: number;
  seconds: number;
  rps: number;
  bytes: number;
}

export interface LoadOptions {
  connections: number;
  warmupMs: number;
  durationMs: number;
  headers?: Record<string, string>;
  /** Default GET; a POST sends `body` (JSON) and counts 201 answers. */
  method?: 'GET' | 'POST';
  body?: string;
}

export async function runLoad(origin: string, path: string, opts: LoadOptions): Promise<LoadResult> {
  const pool = new Pool(origin, { connections: opts.connections, pipelining: 1, keepAliveTimeout: 60_000 });
  try {
    await drive(pool, path, opts, opts.warmupMs);
    return await drive(pool, path, opts, opts.durationMs);
  } finally {
    await pool.close();
  }
}

async function drive(pool: Pool, path: string, opts: LoadOptions, durationMs: number): Promise<LoadResult> {
  let requests = 0;
  let errors = 0;
  let bytes = 0;
  const start = nowMs();
  const end = start + durationMs;
  const worker = async () => {
    while (nowMs() < end) {
      const res = await pool.request({ path, method: opts.method ?? 'GET', headers: opts.headers, body: opts.body });
      const buf = await res.body.arrayBuffer();
      if (res.statusCode === (opts.method === 'POST' ? 201 : 200)) {
        requests++;
        bytes += buf.byteLength;
      } else errors++;
    }
  };
  await Promise.all(Array.from({ length: opts.connections }, worker));
  const seconds = (nowMs() - start) / 1000;
  return { requests, errors, seconds, rps: requests / seconds, bytes };
}
