// `npm ci` of the committed lockfile compiles nothing on Node 22 and 24: no package it installs builds native
// code. better-sqlite3 (Node 20's SQLite, a native build) is no dependency of the checkout, only the package's
// optional peer dependency, so it is not in the lockfile at all; Node 20 fetches it for its own tests
// (scripts/node20-sqlite.ts, the first step of `npm test`), and on a Node with node:sqlite that step does nothing.
//
// The one install script left is esbuild's postinstall (`node install.js`), and it compiles nothing: esbuild's
// binary comes prebuilt in a platform package npm installs beside it (@esbuild/linux-x64, an optional
// dependency), and install.js only checks that binary runs (it would download that same package from the npm
// registry if npm had left it out). The test pins exactly that: a new install script fails it until judged.
import { spawnSync } from 'node:child_process';
import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { ROOT } from '../cli/run.ts';

interface LockEntry {
  version?: string;
  dev?: boolean;
  optional?: boolean;
  hasInstallScript?: boolean;
  os?: string[];
  cpu?: string[];
}

const lock = JSON.parse(readFileSync(join(ROOT, 'package-lock.json'), 'utf8')) as { packages: Record<string, LockEntry> };
const pkg = JSON.parse(readFileSync(join(ROOT, 'package.json'), 'utf8')) as {
  scripts: Record<string, string>;
  dependencies: Record<string, string>;
  devDependencies: Record<string, string>;
  peerDependencies: Record<string, string>;
};
const nameOf = (path: string): string => path.slice(path.lastIndexOf('node_modules/') + 'node_modules/'.length);

/** Whether npm would install the entry on this machine: an optional platform package only for its os and cpu. */
const installedHere = (e: LockEntry): boolean => (!e.os || e.os.includes(process.platform)) && (!e.cpu || e.cpu.includes(process.arch));

describe('npm ci of the committed lockfile', () => {
  it('runs no install script but esbuild\'s check of its prebuilt binary', () => {
    const scripted = Object.entries(lock.packages).filter(([path, e]) => path !== '' && e.hasInstallScript && installedHere(e)).map(([path]) => nameOf(path));
    expect(scripted).toEqual(['esbuild']);
    const esbuild = JSON.parse(readFileSync(join(ROOT, 'node_modules', 'esbuild', 'package.json'), 'utf8')) as { scripts: Record<string, string>; optionalDependencies: Record<string, string> };
    expect(esbuild.scripts).toEqual({ postinstall: 'node install.js' });
    // No native build anywhere in it: no binding.gyp, and its binary is a prebuilt platform package from the lockfile.
    expect(existsSync(join(ROOT, 'node_modules', 'esbuild', 'binding.gyp'))).toBe(false);
    const platform = `@esbuild/${process.platform}-${process.arch}`;
    expect(Object.keys(esbuild.optionalDependencies)).toContain(platform);
    expect(lock.packages[`node_modules/${platform}`]).toMatchObject({ optional: true });
    expect(lock.packages[`node_modules/${platform}`]?.hasInstallScript).toBeUndefined();
  });

  it('holds no better-sqlite3 nor its build tools; the package keeps it as an optional peer dependency only', () => {
    const names = Object.keys(lock.packages).filter((p) => p !== '').map(nameOf);
    for (const name of ['better-sqlite3', 'prebuild-install', 'node-gyp', 'bindings']) expect(names).not.toContain(name);
    expect(pkg.devDependencies['better-sqlite3']).toBeUndefined();
    expect(pkg.dependencies['better-sqlite3']).toBeUndefined();
    expect(pkg.peerDependencies['better-sqlite3']).toBeDefined();
  });

  it('`npm test` first fetches what a Node without node:sqlite needs, and on any Node with SQLite the step runs no npm', () => {
    expect(pkg.scripts.test).toMatch(/^node --import tsx scripts\/node20-sqlite\.ts && /);
    // Here SQLite is there already (node:sqlite, or better-sqlite3 that `npm test` fetched on Node 20): with no
    // PATH at all the step still succeeds, so it did not call npm.
    const step = spawnSync(process.execPath, ['--import', 'tsx', 'scripts/node20-sqlite.ts'], { cwd: ROOT, encoding: 'utf8', env: { ...process.env, PATH: '/nonexistent-edgeops-path' } });
    expect({ status: step.status, stdout: step.stdout, stderr: step.stderr }).toEqual({ status: 0, stdout: '', stderr: '' });
  });
});
