// What action.yml runs: the entry is TypeScript, run through tsx like bin/edgeops.js, so the action needs
// no build step, only `npm ci` in its own directory (tsx is resolved from there, not from the workspace).
// tsx gets the action's own tsconfig.json, never the workspace's: a pull request's tsconfig `paths` could
// otherwise redirect the action's imports to the pull request's code, with the API key in the environment.
import { fileURLToPath } from 'node:url';
import { register } from 'tsx/esm/api';

register({ tsconfig: fileURLToPath(new URL('../../tsconfig.json', import.meta.url)) });
await import('./main.ts');
