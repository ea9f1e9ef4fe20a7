#!/usr/bin/env node
// The bin runs the built CLI (dist/, written by `npm run build`, which `npm pack` runs). In a git checkout of
// edgeops (a .git and scripts/build.ts beside bin/), a dist/ that is missing or older than a file under src/ is
// built first, quietly, so `npm ci` then `npx edgeops ...` works with no build step; an installed package has
// neither and never builds. Working on edgeops, `npm run edgeops` runs the sources through tsx instead.
// CommonJS (bin/package.json says so), as is dist/main.cjs: on Node 20 an ES module entry loads Node's whole ES
// module loader first, about 7 ms of a run, and an ES module import of node:fs makes its module facade, which
// loads its promises and its streams; require() reads only what is named.
'use strict';
const { existsSync, mkdirSync, readdirSync, rmSync, statSync, utimesSync } = require('node:fs');
const { dirname, join } = require('node:path');

// The CLI keeps the code V8 compiled for a command between runs itself (src/launch/code-cache.ts), on every
// Node. Node's own compile cache is left off: it would keep only this file and dist/main.cjs, and under a TMPDIR
// where no directory can be made (inside /proc) Node 22+'s module.enableCompileCache() never returns.
const root = join(__dirname, '..');
const launcher = join(root, 'dist', 'main.cjs');
if (existsSync(join(root, '.git')) && existsSync(join(root, 'scripts', 'build.ts'))) buildIfStale();

if (existsSync(launcher)) require(launcher);
else {
  process.stderr.write('edgeops: the built CLI (dist/) is missing: run `npm run build` in the edgeops directory\n');
  process.exitCode = 1;
}

/** The build's time (dist/main.cjs), or 0 when there is none. */
function builtAt() {
  return statSync(launcher, { throwIfNoEntry: false })?.mtimeMs ?? 0;
}

/** Whether a file under dir (or dir itself, a file) changed after `since`; stops at the first. */
function changedAfter(path, since) {
  const stat = statSync(path, { throwIfNoEntry: false });
  if (!stat) return false;
  if (!stat.isDirectory()) return stat.mtimeMs > since;
  return readdirSync(path).some((entry) => changedAfter(join(path, entry), since));
}

function stale() {
  const since = builtAt();
  return since === 0 || changedAfter(join(root, 'src'), since) || changedAfter(join(root, 'scripts', 'build.ts'), since);
}

/**
 * Builds dist/ when stale, one process at a time (a lock directory under node_modules/.cache; a second CLI
 * started meanwhile waits, then finds it fresh). dist/main.cjs is then dated to the build's start, so a source
 * saved during the build makes the next run build again.
 */
function buildIfStale() {
  if (!stale()) return;
  if (!existsSync(join(root, 'node_modules', 'tsx'))) {
    fail(`edgeops: dist/ is missing or older than src/, and the checkout's dependencies are not installed: run \`npm ci\` in ${root}\n`);
  }
  const lock = join(root, 'node_modules', '.cache', 'edgeops-build.lock');
  mkdirSync(dirname(lock), { recursive: true });
  const waitUntil = Date.now() + 180_000;
  for (;;) {
    try {
      mkdirSync(lock);
      break;
    } catch (err) {
      if (err?.code !== 'EEXIST') throw err;
      // A lock older than two minutes was left by a build that was killed.
      const heldFor = Date.now() - (statSync(lock, { throwIfNoEntry: false })?.mtimeMs ?? Date.now());
      if (heldFor > 120_000) rmSync(lock, { recursive: true, force: true });
      else if (Date.now() > waitUntil) fail(`edgeops: another build of dist/ holds ${lock}; remove it if no build runs\n`);
      else Atomics.wait(new Int32Array(new SharedArrayBuffer(4)), 0, 0, 100);
    }
  }
  let failure;
  try {
    if (!stale()) return;
    const started = new Date();
    const { spawnSync } = require('node:child_process');
    const built = spawnSync(process.execPath, ['--import', 'tsx', 'scripts/build.ts', 'cli'], { cwd: root, stdio: ['ignore', 'pipe', 'pipe'], encoding: 'utf8' });
    if (built.status === 0) utimesSync(launcher, started, started);
    else failure = `edgeops: building dist/ from the sources failed (node --import tsx scripts/build.ts cli in ${root}):\n${built.stdout ?? ''}${built.stderr ?? built.error?.message ?? ''}\n`;
  } finally {
    rmSync(lock, { recursive: true, force: true });
  }
  if (failure) fail(failure);
}

function fail(message) {
  process.stderr.write(message);
  process.exit(1);
}
