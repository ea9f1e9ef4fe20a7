// `npm test` runs this first. The embedded service's tests need SQLite: Node 22.13 and later have node:sqlite
// built in, Node 20 needs better-sqlite3, a native module. It is no dependency of the checkout, so `npm ci`
// compiles nothing on Node 22 and 24 (where it would be a minute of building for nothing); on a Node without
// node:sqlite this installs the pinned version into node_modules, without touching package.json or the
// lockfile (under node_modules/.cache, linked as node_modules/better-sqlite3), once: a later run finds it
// loading and does nothing; the next `npm ci` removes it. Its native build comes from source when no
// prebuilt binary can be downloaded (python3, make and a C++ compiler), about 1-2 minutes.
//   node --import tsx scripts/node20-sqlite.ts
import { spawnSync } from 'node:child_process';
import { mkdirSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import { join, resolve } from 'node:path';

/** The version the tests run on Node 20; the peer dependency's range (package.json) allows it. */
const BETTER_SQLITE3 = '12.11.1';
const ROOT = resolve(import.meta.dirname, '..');

/** Whether this Node loads node:sqlite as the store does (unflagged); Node 22 warns that it is experimental. */
async function hasNodeSqlite(): Promise<boolean> {
  process.removeAllListeners('warning');
  try {
    const name = 'node:sqlite';
    await import(name);
    return true;
  } catch {
    return false;
  }
}

/**
 * Whether the checkout's better-sqlite3 opens a database on this Node (installed, and built for its ABI). In a
 * child process: this one's module loader remembers a package it did not find, even once it is installed.
 */
function betterSqliteLoads(): boolean {
  const probe = `new (require(${JSON.stringify(join(ROOT, 'node_modules', 'better-sqlite3'))}))(':memory:').close()`;
  return spawnSync(process.execPath, ['-e', probe], { stdio: 'ignore' }).status === 0;
}

if (!(await hasNodeSqlite()) && !betterSqliteLoads()) {
  process.stdout.write(`node20-sqlite: Node ${process.version} has no node:sqlite; installing better-sqlite3@${BETTER_SQLITE3} for the tests (a native build)\n`);
  // Into a prefix of its own, then linked where require() looks: an `npm install --no-save` in the checkout
  // leaves out a package the root names only as an optional peer dependency. Node follows the link to the
  // real path, whose node_modules holds its dependencies (bindings).
  const prefix = join(ROOT, 'node_modules', '.cache', `better-sqlite3-${BETTER_SQLITE3}-node${process.versions.modules}`);
  rmSync(prefix, { recursive: true, force: true });
  mkdirSync(prefix, { recursive: true });
  // npm runs only the install scripts a package.json allows: better-sqlite3's is its native build.
  writeFileSync(join(prefix, 'package.json'), `${JSON.stringify({ name: 'edgeops-node20-sqlite', private: true, allowScripts: { 'better-sqlite3': true } }, null, 2)}\n`);
  const npm = spawnSync('npm', ['install', '--no-save', '--no-package-lock', '--no-audit', '--no-fund', '--prefix', prefix, `better-sqlite3@${BETTER_SQLITE3}`], { cwd: prefix, stdio: 'inherit' });
  const link = join(ROOT, 'node_modules', 'better-sqlite3');
  if (npm.status === 0) {
    rmSync(link, { recursive: true, force: true });
    symlinkSync(join(prefix, 'node_modules', 'better-sqlite3'), link, 'dir');
  }
  if (npm.status !== 0 || !betterSqliteLoads()) {
    process.stderr.write(`node20-sqlite: better-sqlite3@${BETTER_SQLITE3} did not install or does not load on Node ${process.version}; its build needs python3, make and g++\n`);
    process.exit(1);
  }
}
