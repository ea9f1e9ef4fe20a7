// The baseline for service throughput: a bare node:http server answering every request with the same bytes
// the service returned for the list page. `node --import tsx bench/bare-child.ts --body FILE --type MIME`.
import { readFileSync } from 'node:fs';
import { createServer } from 'node:http';
import { parseArgs } from 'node:util';

const { values } = parseArgs({ options: { body: { type: 'string' }, type: { type: 'string', default: 'application/json' } } });
const body = readFileSync(values.body!);
const headers = { 'content-type': values.type!, 'content-length': String(body.length) };

const server = createServer((req, res) => {
  // Drain the request so keep-alive connections stay usable, as any real server must.
  req.resume();
  res.writeHead(200, headers);
  res.end(body);
});
server.keepAliveTimeout = 60_000;
server.listen(0, '127.0.0.1', () => {
  const addr = server.address();
  const port = typeof addr === 'object' && addr ? addr.port : 0;
  process.stdout.write(`${JSON.stringify({ url: `http://127.0.0.1:${port}`, pid: process.pid })}\n`);
});
for (const sig of ['SIGTERM', 'SIGINT'] as const) process.on(sig, () => server.close(() => process.exit(0)));
