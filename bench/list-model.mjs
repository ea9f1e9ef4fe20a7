// The list-everything model of a plan (the way decK works): parse the same YAML files, then list every
// collection with 10 requests in flight, following next_page_uri, with the same HTTP client as edgeops
// (undici's Pool and request(), loaded alone: bench/lib/undici-pool.mjs). Plain JavaScript
// run by node itself, so its start-up is node's and nothing more.
// Usage: node bench/list-model.mjs URL KEY DIR PATH... ; prints {"docs","items","pages":{path:n}}.
// DIR `-` is the fetch floor of a plan (bench/plan-process.ts): no manifests, and every list at once, each
// following its own pages in order.
import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { Pool } from './lib/undici-pool.mjs';

const [url, key, dir, ...paths] = process.argv.slice(2);
let docs = 0;
const bare = dir === '-';
// The floor reads no manifests, so it loads no YAML parser either.
const { parseAllDocuments } = bare ? {} : await import('yaml');
for (const name of bare ? [] : readdirSync(dir).filter((n) => /\.ya?ml$/.test(n)).sort()) {
  for (const doc of parseAllDocuments(readFileSync(join(dir, name), 'utf8'))) if (doc.toJS() !== null) docs++;
}
const origin = new URL(url);
const inFlight = bare ? paths.length : 10;
const pool = new Pool(origin.origin, { connections: inFlight });
const headers = { authorization: `Bearer ${key}`, 'service-version': '2', accept: 'application/json' };
const pages = {};
let items = 0;
async function listAll(path) {
  pages[path] = 0;
  for (let next = origin.pathname.replace(/\/$/, '') + path; next; ) {
    const res = await pool.request({ method: 'GET', path: next, headers });
    const body = JSON.parse(await res.body.text());
    if (res.statusCode !== 200) throw new Error(`${path}: ${res.statusCode}`);
    pages[path]++;
    const list = Object.values(body).find(Array.isArray) ?? [];
    items += list.length;
    next = body.next_page_uri ? new URL(body.next_page_uri).pathname + new URL(body.next_page_uri).search : null;
  }
}
// At most 10 lists at once (one request each in flight); the floor lists every kind at once.
const queue = [...paths];
await Promise.all(Array.from({ length: Math.min(inFlight, queue.length) }, async () => {
  while (queue.length) await listAll(queue.shift());
}));
await pool.close();
process.stdout.write(`${JSON.stringify({ docs, items, pages })}\n`);
