#!/usr/bin/env node
// The bin runs the built CLI (dist/, written by `npm run build`, which `npm pack` runs). Working on edgeops,
// `npm run edgeops` runs the sources through tsx instead.
try {
  await import('../dist/main.js');
} catch (err) {
  if (err?.code !== 'ERR_MODULE_NOT_FOUND' || !String(err.message).includes('dist/main.js')) throw err;
  process.stderr.write('edgeops: the built CLI (dist/) is missing: run `npm run build` in the edgeops directory\n');
  process.exitCode = 1;
}
