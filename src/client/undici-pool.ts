// undici's Pool and its request(), without the rest of the package. undici's index also loads fetch, WebSocket,
// cookies and the cache, and through them Node's own copy of undici: about 60 ms of CPU at the start of every
// command that talks to the service, for nothing the client uses.
import type { Pool as UndiciPool } from 'undici';
import api from 'undici/lib/api/index.js';
import Dispatcher from 'undici/lib/dispatcher/dispatcher.js';
import PoolClass from 'undici/lib/dispatcher/pool.js';

// Node 20's V8 compiles undici's HTTP parser (llhttp, WebAssembly, compiled on the first connection) with its
// optimizing tier too, in the background, and waits for that work at exit: about 110 ms of CPU and of wall time
// in every command that talks to the service. The baseline tier parses a command's responses as fast. Later
// Nodes optimize it only once it runs hot, and do not wait at exit; their V8 also ignores this flag once running.
// The CLI sets it before its code loads (src/cli/short-run.ts); this covers the Action and the other callers.
if (process.versions.node.startsWith('20.')) process.getBuiltinModule('node:v8').setFlagsFromString('--liftoff-only');

// What undici's index does for every dispatcher: request(), stream() and the rest are methods of them all.
Object.assign((Dispatcher as { prototype: object }).prototype, api);

export const Pool = PoolClass as typeof UndiciPool;
