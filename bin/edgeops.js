#!/usr/bin/env node
// The bin runs the TypeScript sources directly through tsx, so a fresh clone needs no build step.
// tsx is pointed at edgeops' own tsconfig.json: left to itself it reads the one in the current directory (the
// user's repository), whose `paths` could redirect edgeops' own imports to the repository's code.
import { fileURLToPath } from 'node:url';
import { register } from 'tsx/esm/api';

register({ tsconfig: fileURLToPath(new URL('../tsconfig.json', import.meta.url)) });
await import('../src/main.ts');
