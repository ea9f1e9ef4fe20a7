// The service in its own process for the benchmarks: `node --import tsx bench/serve-child.ts --db FILE
// [--key KEY] [--faults JSON] [--no-read-cache] [--durability full|relaxed]`. Prints {"url"} once listening, closes cleanly on SIGTERM.
import { parseArgs } from 'node:util';
import { startService } from '../src/service/server.ts';

const { values } = parseArgs({
  options: {
    db: { type: 'string' },
    key: { type: 'string', default: 'bench-key' },
    faults: { type: 'string' },
    'no-read-cache': { type: 'boolean' },
    durability: { type: 'string', default: 'full' },
  },
});

const service = await startService({
  host: '127.0.0.1',
  port: 0,
  apiKeys: [values.key!],
  db: values.db,
  faults: values.faults ? (JSON.parse(values.faults) as unknown) : undefined,
  quiet: true,
  readCache: !values['no-read-cache'],
  durability: values.durability === 'relaxed' ? 'relaxed' : 'full',
});
process.stdout.write(`${JSON.stringify({ url: service.url, pid: process.pid })}\n`);

let closing = false;
for (const sig of ['SIGTERM', 'SIGINT'] as const) {
  process.on(sig, () => {
    if (closing) return;
    closing = true;
    // Close so SQLite checkpoints its WAL: a seeded file is copied and reused by later benchmarks.
    void service.close().then(() => process.exit(0));
  });
}
