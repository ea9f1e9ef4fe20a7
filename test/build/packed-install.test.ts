// What a user installs: the packed tarball (`npm pack`, which builds dist/ first), installed into an empty
// directory without optional dependencies and without install scripts, so without better-sqlite3 and without
// any compiler. From there, away from the repository and its node_modules, the CLI runs validate, plan
// --against a snapshot and a real apply against the service; serve and --local fail with the install hint, also
// when better-sqlite3 is there but its native module was never built.
import { execFile } from 'node:child_process';
import { cpSync, existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { serviceForFile } from '../helpers/service.ts';
import { ROOT, cleanEnv, type RunResult } from '../cli/run.ts';

const run = promisify(execFile);
const { svc } = serviceForFile();
const temp = mkdtempSync(join(tmpdir(), 'edgeops-packed-'));
const project = join(temp, 'project');
const manifests = join(project, 'infra');
let packedFiles: string[] = [];

/** The installed bin, run with the project as the working directory and nothing of the repository around. */
async function installed(args: string[], env: Record<string, string> = {}): Promise<RunResult> {
  const bin = join(project, 'node_modules', 'edgeops', 'bin', 'edgeops.js');
  return new Promise((done) => {
    execFile(process.execPath, [bin, ...args], { cwd: project, env: cleanEnv({ NODE_PATH: undefined, NO_COLOR: '1', ...env }) }, (err, stdout, stderr) => {
      const code = err ? (typeof err.code === 'number' ? err.code : 1) : 0;
      done({ code, signal: null, stdout, stderr });
    });
  });
}

const output = (r: RunResult): string => `${r.stdout}\n${r.stderr}`;

beforeAll(async () => {
  const packDir = join(temp, 'pack');
  mkdirSync(packDir);
  // npm pack runs prepack (the build) itself.
  const packed = await run('npm', ['pack', '--json', '--pack-destination', packDir], { cwd: ROOT, maxBuffer: 64 * 1024 * 1024 });
  const [info] = JSON.parse(packed.stdout) as { filename: string; files: { path: string }[] }[];
  packedFiles = info!.files.map((f) => f.path);
  mkdirSync(project);
  writeFileSync(join(project, 'package.json'), JSON.stringify({ name: 'infra', private: true }));
  await run('npm', ['install', join(packDir, info!.filename), '--omit=optional', '--ignore-scripts', '--no-audit', '--no-fund', '--prefer-offline'], { cwd: project });
  cpSync(join(ROOT, 'examples/basic'), manifests, { recursive: true, filter: (src) => !src.includes('.edgeops') });
}, 240_000);
afterAll(() => rmSync(temp, { recursive: true, force: true }));

describe('the packed tarball', () => {
  it('ships the built CLI, the schemas and the documents, not the sources or the tests', () => {
    expect(packedFiles).toEqual(expect.arrayContaining(['package.json', 'bin/edgeops.js', 'dist/main.js', 'README.md', 'CHANGELOG.md', 'LICENSE', 'schemas/manifest.schema.json']));
    const unexpected = packedFiles.filter((f) => !/^(bin|dist|schemas)\//.test(f) && !['package.json', 'README.md', 'CHANGELOG.md', 'LICENSE'].includes(f));
    expect(unexpected).toEqual([]);
  });

  it('installs without better-sqlite3 and without tsx', () => {
    expect(existsSync(join(project, 'node_modules', 'edgeops', 'dist', 'main.js'))).toBe(true);
    expect(existsSync(join(project, 'node_modules', 'better-sqlite3'))).toBe(false);
    expect(existsSync(join(project, 'node_modules', 'tsx'))).toBe(false);
    expect(existsSync(join(project, 'node_modules', 'esbuild'))).toBe(false);
  });

  it('prints its version', async () => {
    const version = JSON.parse(readFileSync(join(ROOT, 'package.json'), 'utf8')).version as string;
    const result = await installed(['--version']);
    expect(result.stdout, output(result)).toBe(`${version}\n`);
    expect(result.code).toBe(0);
  });

  it('validates, applies against the service, exports a snapshot and plans against it', async () => {
    const validated = await installed(['validate', 'infra']);
    expect(validated.code, output(validated)).toBe(0);
    expect(validated.stdout).toMatch(/^\d+ resources valid\n$/);
    const env = { EDGEOPS_API_URL: svc.url, EDGEOPS_API_KEY: svc.apiKey, EDGEOPS_STACK: 'packed' };
    const applied = await installed(['apply', 'infra', '--auto-approve'], env);
    expect(applied.code, output(applied)).toBe(0);
    expect(applied.stdout).toContain('Apply complete');
    const exported = await installed(['export', '--snapshot', 'live.json'], env);
    expect(exported.code, output(exported)).toBe(0);
    const planned = await installed(['plan', 'infra', '--against', 'live.json'], { EDGEOPS_STACK: 'packed' });
    expect(planned.code, output(planned)).toBe(0);
    expect(planned.stdout).toContain('No changes. Live state matches the manifests.');
  });

  it('fails serve and --local with exit 1 and how to install better-sqlite3, without an internal error', async () => {
    const served = await installed(['serve', '--port', '0']);
    expect(served.code).toBe(1);
    expect(served.stderr).toBe('edgeops: edgeops serve needs SQLite: this Node has no node:sqlite and better-sqlite3, an optional dependency, is not installed; run edgeops on Node 22.13 or later (SQLite is built in), or install better-sqlite3 with `npm install better-sqlite3` (for a global edgeops: `npm install -g better-sqlite3`)\n');
    const local = await installed(['plan', 'infra', '--local']);
    expect(local.code).toBe(1);
    expect(local.stderr).toContain('--local (the embedded service) needs SQLite');
    expect(local.stderr).toContain('npm install better-sqlite3');
    expect(local.stderr).not.toContain('internal error');
    expect(existsSync(join(manifests, '.edgeops', 'local.db'))).toBe(false);
  });
});

describe('better-sqlite3 installed without its native build (install scripts off)', () => {
  it('fails --local with exit 1 naming the native module, not "internal error: Could not locate the bindings file"', async () => {
    await run('npm', ['install', 'better-sqlite3', '--ignore-scripts', '--no-audit', '--no-fund', '--prefer-offline', '--no-save'], { cwd: project });
    const local = await installed(['plan', 'infra', '--local']);
    expect(local.code).toBe(1);
    expect(local.stderr).toMatch(/^edgeops: --local \(the embedded service\) needs SQLite: better-sqlite3 is installed but its native module does not load \(.+\); run edgeops on Node 22.13 or later \(SQLite is built in\), or install better-sqlite3 with `npm install better-sqlite3`/);
    expect(local.stderr).not.toContain('internal error');
  }, 120_000);
});
