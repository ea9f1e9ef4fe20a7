// Start the real service in a child process on 127.0.0.1 with a SQLite file, as every benchmark does.
import { benchScript, spawnTs, type Child } from './child.ts';

export const BENCH_KEY = 'bench-key';

export interface ServiceChild {
  url: string;
  apiKey: string;
  dbFile: string;
  child: Child;
  stop(): Promise<void>;
}

export async function startServiceChild(opts: { dbFile: string; faults?: unknown; nodeArgs?: string[]; readCache?: boolean; durability?: 'full' | 'relaxed' }): Promise<ServiceChild> {
  const args = ['--db', opts.dbFile, '--key', BENCH_KEY];
  if (opts.durability) args.push('--durability', opts.durability);
  if (opts.readCache === false) args.push('--no-read-cache');
  if (opts.faults !== undefined) args.push('--faults', JSON.stringify(opts.faults));
  const child = spawnTs(benchScript('serve-child.ts'), args, { nodeArgs: opts.nodeArgs });
  const ready = await child.next<{ url: string }>(60_000);
  return { url: ready.url, apiKey: BENCH_KEY, dbFile: opts.dbFile, child, stop: () => child.stop() };
}
