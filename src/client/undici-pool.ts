// undici's Pool and its request(), without the rest of the package. undici's index also loads fetch, WebSocket,
// cookies and the cache, and through them Node's own copy of undici: about 60 ms of CPU at the start of every
// command that talks to the service, for nothing the client uses.
import type { Pool as UndiciPool } from 'undici';
import api from 'undici/lib/api/index.js';
import Dispatcher from 'undici/lib/dispatcher/dispatcher.js';
import PoolClass from 'undici/lib/dispatcher/pool.js';

// What undici's index does for every dispatcher: request(), stream() and the rest are methods of them all.
Object.assign((Dispatcher as { prototype: object }).prototype, api);

export const Pool = PoolClass as typeof UndiciPool;
