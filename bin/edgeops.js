#!/usr/bin/env node
// The bin runs the built CLI: dist/main.cjs, written by `npm run build` (which `npm pack` runs, so a package
// always has it; in a checkout, run it once after `npm ci`, and again after changing src/). It starts the CLI
// with the code V8 compiled for the command in an earlier run (docs/design.md, "Start-up").
// CommonJS (bin/package.json says so), as is dist/main.cjs: on Node 20 an ES module entry loads Node's whole ES
// module loader first, about 7 ms of a run, and an ES module import of node:fs makes its module facade, which
// loads its promises and its streams; require() reads only what is named. Node's own compile cache is left off:
// it would keep only this file and dist/main.cjs.
'use strict';
const { existsSync } = require('node:fs');
const { join } = require('node:path');

const launcher = join(__dirname, '..', 'dist', 'main.cjs');
if (existsSync(launcher)) require(launcher);
else {
  process.stderr.write('edgeops: the built CLI (dist/) is missing: run `npm run build` in the edgeops directory\n');
  process.exitCode = 1;
}
