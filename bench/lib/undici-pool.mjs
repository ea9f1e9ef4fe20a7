// undici's Pool with its request(), loaded alone as edgeops loads them (src/client/undici-pool.ts), not through
// the package's index: the models the benchmarks compare edgeops with start up as lean as it does.
import api from 'undici/lib/api/index.js';
import Dispatcher from 'undici/lib/dispatcher/dispatcher.js';
import Pool from 'undici/lib/dispatcher/pool.js';

Object.assign(Dispatcher.prototype, api);

export { Pool };
