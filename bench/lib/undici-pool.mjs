// undici's Pool with its request(), loaded alone as edgeops loads them (src/client/undici-pool.ts), not through
// the package's index: the models the benchmarks compare edgeops with start up as lean as it does.
import v8 from 'node:v8';
import api from 'undici/lib/api/index.js';
import Dispatcher from 'undici/lib/dispatcher/dispatcher.js';
import Pool from 'undici/lib/dispatcher/pool.js';

// As edgeops does on Node 20: llhttp's WebAssembly in V8's baseline tier alone, so no exit waits on its
// optimizing compile.
if (process.versions.node.startsWith('20.')) v8.setFlagsFromString('--liftoff-only');
Object.assign(Dispatcher.prototype, api);

export { Pool };
