// The model of an apply: the same write requests edgeops made (recorded by bench/apply-process.ts), issued with
// the same concurrency in dependency order (a request waits for the creates whose ids it uses), with undici.
// Nothing else: no manifests, no lists, no lock, no check afterwards. Plain JavaScript run by node itself.
// Usage: node bench/apply-model.mjs URL KEY REQUESTS.json CONCURRENCY ; prints {"requests","failed"}.
import { readFileSync } from 'node:fs';
import { Pool } from './lib/undici-pool.mjs';

const [url, key, file, concurrencyText] = process.argv.slice(2);
const requests = JSON.parse(readFileSync(file, 'utf8'));
const concurrency = Number(concurrencyText);
const origin = new URL(url);
const pool = new Pool(origin.origin, { connections: concurrency });
const headers = { authorization: `Bearer ${key}`, 'service-version': '2', accept: 'application/json', 'content-type': 'application/json' };

// Recorded id -> the id this run's create got.
const ids = new Map();
const created = new Map(); // recorded id -> promise of this run's create
const swap = (text, uses) => uses.reduce((t, id) => t.replaceAll(id, ids.get(id)), text);

let running = 0;
const waiting = [];
const slot = () => (running < concurrency ? (running++, Promise.resolve()) : new Promise((r) => waiting.push(r)));
const free = () => (waiting.length ? waiting.shift()() : running--);

let failed = 0;
const done = requests.map((r) => {
  const deps = r.uses.map((id) => created.get(id)).filter(Boolean);
  const run = (async () => {
    await Promise.all(deps);
    await slot();
    try {
      const body = r.body === undefined ? undefined : swap(JSON.stringify(r.body), r.uses);
      const res = await pool.request({ method: r.method, path: origin.pathname.replace(/\/$/, '') + swap(r.path, r.uses), headers, body });
      const text = await res.body.text();
      if (res.statusCode >= 300) failed++;
      else if (r.creates) ids.set(r.creates, JSON.parse(text).id);
    } finally {
      free();
    }
  })();
  if (r.creates) created.set(r.creates, run);
  return run;
});
await Promise.all(done);
await pool.close();
process.stdout.write(`${JSON.stringify({ requests: requests.length, failed })}\n`);
