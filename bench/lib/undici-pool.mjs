// undici's Pool with its request(), loaded alone, not through the package's index as edgeops loads it
// (src/client/http.ts): the models the benchmarks compare edgeops with start up as lean as undici allows, a
// stricter yardstick than edgeops itself. Benchmark code only: no shipped file imports a dependency's own files.
import api from 'undici/lib/api/index.js';
import Dispatcher from 'undici/lib/dispatcher/dispatcher.js';
import Pool from 'undici/lib/dispatcher/pool.js';

Object.assign(Dispatcher.prototype, api);

export { Pool };
