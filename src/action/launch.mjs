// What action.yml runs: the entry is TypeScript, run through tsx like bin/edgeops.js, so the action needs
// no build step, only `npm ci` in its own directory (tsx is resolved from there, not from the workspace).
import { register } from 'tsx/esm/api';

register();
await import('./main.ts');
