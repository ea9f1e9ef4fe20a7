// The load generator of service-scale in its own process, so neither the service nor the proxy shares its event
// loop: `node --import tsx bench/scale-load-child.ts ORIGIN PATH OPTIONS-JSON` runs bench/lib/load.ts (undici
// Pool, keep-alive, a fixed number of connections, warm-up then the measured phase) and prints one JSON line
// with the result.
import { runLoad, type LoadOptions } from './lib/load.ts';

const [origin, path, json] = process.argv.slice(2);
const result = await runLoad(origin!, path!, JSON.parse(json!) as LoadOptions);
process.stdout.write(`${JSON.stringify(result)}\n`);
