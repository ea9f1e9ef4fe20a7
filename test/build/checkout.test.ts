// A development checkout builds the CLI with one script of the repository, `npm run build`: the package has no
// `prepare` (nor any other script that `npm ci` or an install would run), so nothing builds dist/ on install,
// and the shipped bin/edgeops.js only runs dist/, never builds it. Shown on a copy of this checkout as a fresh
// clone has it (the files git tracks or would add, a .git, no dist/), with the dependencies `npm ci` installs
// (the repository's node_modules, linked: a real `npm ci` would build better-sqlite3's native module again):
// the bin says what to run until the build, and the README's quick start runs as written.
import { execFile, execFileSync } from 'node:child_process';
import { cpSync, existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync, symlinkSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { delimiter, dirname, join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { cleanEnv, ROOT } from '../cli/run.ts';

const temp = mkdtempSync(join(tmpdir(), 'edgeops-checkout-'));
const clone = join(temp, 'edgeops');
const launcher = join(clone, 'dist', 'main.cjs');
const readme = readFileSync(join(ROOT, 'README.md'), 'utf8');
const packageVersion = (JSON.parse(readFileSync(join(ROOT, 'package.json'), 'utf8')) as { version: string }).version;

function sh(script: string): Promise<{ code: number; out: string; err: string }> {
  const env = cleanEnv({ NO_COLOR: '1', PATH: `${dirname(process.execPath)}${delimiter}${process.env.PATH ?? ''}` });
  return new Promise((resolve) => {
    execFile('bash', ['-euo', 'pipefail', '-c', script], { cwd: clone, env, maxBuffer: 16 * 1024 * 1024 }, (err, stdout, stderr) => {
      resolve({ code: err ? (typeof err.code === 'number' ? err.code : 1) : 0, out: stdout, err: stderr });
    });
  });
}

/** The quick start's first block, line by line. */
function quickStart(): string[] {
  const block = /## Quick start[\s\S]*?```sh\n([\s\S]*?)```/.exec(readme)?.[1];
  if (!block) throw new Error('README has no quick start');
  return block.split('\n').filter(Boolean);
}

beforeAll(() => {
  const files = execFileSync('git', ['ls-files', '-z', '--cached', '--others', '--exclude-standard'], { cwd: ROOT, encoding: 'utf8' }).split('\0').filter(Boolean);
  for (const file of files) {
    // node_modules is linked below (a worktree's may be a symlink, which git lists as an untracked file).
    if (file.startsWith('dist/') || file === 'node_modules' || !existsSync(join(ROOT, file))) continue;
    mkdirSync(dirname(join(clone, file)), { recursive: true });
    cpSync(join(ROOT, file), join(clone, file));
  }
  execFileSync('git', ['init', '-q'], { cwd: clone });
  symlinkSync(join(ROOT, 'node_modules'), join(clone, 'node_modules'), 'dir');
});
afterAll(() => rmSync(temp, { recursive: true, force: true }));

describe('a development checkout', () => {
  it('has no script that an install runs: `npm ci` installs and builds nothing of edgeops itself', () => {
    const scripts = (JSON.parse(readFileSync(join(clone, 'package.json'), 'utf8')) as { scripts: Record<string, string> }).scripts;
    const lifecycle = ['preinstall', 'install', 'postinstall', 'prepublish', 'preprepare', 'prepare', 'postprepare'];
    expect(Object.keys(scripts).filter((s) => lifecycle.includes(s))).toEqual([]);
    expect(scripts.prepack).toBe('npm run build');
    expect(existsSync(join(clone, 'dist'))).toBe(false);
  });

  it('before the build, the bin says what to run and runs nothing', async () => {
    const r = await sh('node bin/edgeops.js --version');
    expect(r.code).toBe(1);
    expect(r.out).toBe('');
    expect(r.err).toBe('edgeops: the built CLI (dist/) is missing: run `npm run build` in the edgeops directory\n');
    expect(existsSync(launcher)).toBe(false);
  });

  it('runs the README quick start as written: the build, an apply, and a plan with no changes', async () => {
    const [ci, build, apply, plan] = quickStart();
    expect(ci).toBe('npm ci'); // done above: the repository's node_modules
    expect(build).toMatch(/^npm run build\b/);
    const built = await sh(build!);
    expect(built.code, built.out + built.err).toBe(0);
    expect(existsSync(launcher)).toBe(true);
    const applied = await sh(apply!);
    expect(applied.code, applied.out + applied.err).toBe(0);
    expect(applied.out).toContain('Apply complete');
    expect(applied.err).toBe('');
    const planned = await sh(plan!);
    expect(planned.code, planned.out + planned.err).toBe(0);
    expect(planned.out).toContain('No changes. Live state matches the manifests.');
    const version = await sh('node bin/edgeops.js --version');
    expect(version.out).toBe(`${packageVersion}\n`);
  }, 180_000);
});
