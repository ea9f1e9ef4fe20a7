// What a user installs: the packed tarball (`npm pack`, which builds dist/ first), installed into an empty
// project with install scripts off, and globally into a temporary prefix as the README's Install section says.
// Neither brings better-sqlite3 (an optional peer dependency), tsx, esbuild or any compiler, and the global
// install prints no warning about install scripts (allowScripts): no package in the tree has one. From there,
// away from the repository and its node_modules, the CLI runs validate, plan --against a snapshot and a real
// apply against the service.
// Then the embedded service (`serve`, `--local`), by the Node that runs this test:
// - Node 22.13 and later (node:sqlite): it just works, with no better-sqlite3 anywhere: serve answers a smoke
//   test of the API and `apply --local` converges on examples/full.
// - Node 20: serve and --local stop with exit 1 and the commands to run; the test runs those commands as
//   printed (`npm install -g better-sqlite3` beside the global edgeops; `npm rebuild better-sqlite3` in the
//   project, where better-sqlite3 was installed without its native build), after which both work. The native
//   module comes as a prebuilt binary, the way a user with GitHub access gets it (prebuild-install, pointed by
//   an rc file in the test's temporary directory at a tarball of the checkout's own build), so the test does not
//   compile SQLite twice; where the checkout's build does not load on this Node, each compiles it from source.
import { execFile } from 'node:child_process';
import { cpSync, existsSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { delimiter, dirname, join } from 'node:path';
import { createRequire } from 'node:module';
import { promisify } from 'node:util';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { api, serviceForFile } from '../helpers/service.ts';
import { ROOT, cleanEnv, makeCerts, type RunResult } from '../cli/run.ts';
import { runnableExamples } from '../cli/help-examples.ts';
import { hasNodeSqlite, startServe } from './serve-process.ts';

const run = promisify(execFile);
const { svc } = serviceForFile();
const temp = mkdtempSync(join(tmpdir(), 'edgeops-packed-'));
const project = join(temp, 'project');
const manifests = join(project, 'infra');
const prefix = join(temp, 'global');
const projectBin = join(project, 'node_modules', 'edgeops', 'bin', 'edgeops.js');
const globalBin = join(prefix, 'bin', 'edgeops');
const NPM_QUIET = ['--no-audit', '--no-fund', '--prefer-offline'];
/** The running Node first on PATH, so npm's scripts and `#!/usr/bin/env node` bins run on it too. */
const PATH = `${dirname(process.execPath)}${delimiter}${process.env.PATH ?? ''}`;
let packedFiles: string[] = [];
let tarball = '';
let globalInstallOutput = '';

/** A bin, run with the project as the working directory and nothing of the repository around. */
async function runBin(bin: string, args: string[], env: Record<string, string> = {}, cwd = project): Promise<RunResult> {
  const [file, argv] = bin.endsWith('.js') ? [process.execPath, [bin, ...args]] : [bin, args];
  return new Promise((done) => {
    execFile(file, argv, { cwd, env: cleanEnv({ NODE_PATH: undefined, NO_COLOR: '1', PATH, ...env }) }, (err, stdout, stderr) => {
      const code = err ? (typeof err.code === 'number' ? err.code : 1) : 0;
      done({ code, signal: null, stdout, stderr });
    });
  });
}

const installed = (args: string[], env: Record<string, string> = {}) => runBin(projectBin, args, env);
const output = (r: RunResult): string => `${r.stdout}\n${r.stderr}`;
const npm = (args: string[], cwd: string) => run('npm', [...args, ...NPM_QUIET], { cwd, env: { ...process.env, PATH }, maxBuffer: 64 * 1024 * 1024 });

/** Every package.json under a node_modules tree, nested ones too. */
function packagesUnder(modules: string): { name: string; dir: string; scripts: Record<string, string>; gypfile: boolean }[] {
  if (!existsSync(modules)) return [];
  return readdirSync(modules).flatMap((entry) => {
    if (entry.startsWith('.')) return [];
    const dir = join(modules, entry);
    if (entry.startsWith('@')) return packagesUnder(dir);
    const manifest = join(dir, 'package.json');
    if (!existsSync(manifest)) return [];
    const pkg = JSON.parse(readFileSync(manifest, 'utf8')) as { name: string; scripts?: Record<string, string>; gypfile?: boolean };
    return [{ name: pkg.name, dir, scripts: pkg.scripts ?? {}, gypfile: pkg.gypfile !== false && existsSync(join(dir, 'binding.gyp')) }, ...packagesUnder(join(dir, 'node_modules'))];
  });
}

/** The service's smoke test: an IP policy created, listed, read and deleted with the API key; none without. */
async function smokeTest(url: string, apiKey: string): Promise<void> {
  const c = api({ url, apiKey });
  expect((await api({ url, apiKey: 'wrong' }).get('/ip_policies')).status).toBe(401);
  const created = await c.post('/ip_policies', { description: 'smoke' });
  expect(created.status, created.text).toBe(201);
  const id = created.body.id as string;
  expect((await c.get('/ip_policies')).body.ip_policies.map((p: { id: string }) => p.id)).toEqual([id]);
  const got = await c.get(`/ip_policies/${id}`);
  expect(got.status).toBe(200);
  expect(got.body.description).toBe('smoke');
  expect((await c.del(`/ip_policies/${id}`)).status).toBe(204);
  expect((await c.get(`/ip_policies/${id}`)).status).toBe(404);
  expect((await c.get('/ip_policies')).body.ip_policies).toEqual([]);
}

/** `serve` from an install: it listens on the SQLite driver named, passes the smoke test and stops cleanly. */
async function serves(bin: string, driver: 'node:sqlite' | 'better-sqlite3'): Promise<void> {
  const command = bin.endsWith('.js') ? [process.execPath, bin] : [bin];
  const s = await startServe(command, ['--port', '0', '--api-key', 'smoke-key', '--db', join(temp, `smoke-${driver.replace(':', '-')}-${Date.now()}.db`)], {
    cwd: project, env: { NODE_PATH: undefined, PATH },
  });
  try {
    expect(s.storage).toContain(`sqlite (${driver})`);
    await smokeTest(s.url, 'smoke-key');
  } finally {
    expect((await s.stop()).code).toBe(0);
  }
  expect(s.stderr()).not.toMatch(/warning/i);
}

beforeAll(async () => {
  const packDir = join(temp, 'pack');
  mkdirSync(packDir);
  // npm pack runs prepack (the build) itself.
  const packed = await run('npm', ['pack', '--json', '--pack-destination', packDir], { cwd: ROOT, env: { ...process.env, PATH }, maxBuffer: 64 * 1024 * 1024 });
  const [info] = JSON.parse(packed.stdout) as { filename: string; files: { path: string }[] }[];
  packedFiles = info!.files.map((f) => f.path);
  tarball = join(packDir, info!.filename);
  mkdirSync(project);
  writeFileSync(join(project, 'package.json'), JSON.stringify({ name: 'infra', private: true }));
  const [, global] = await Promise.all([
    npm(['install', tarball, '--ignore-scripts'], project),
    // As the README says, with what npm says about scripts in the output.
    npm(['install', '-g', '--prefix', prefix, tarball, '--foreground-scripts', '--loglevel=notice'], temp),
  ]);
  globalInstallOutput = `${global.stdout}\n${global.stderr}`;
  cpSync(join(ROOT, 'examples/basic'), manifests, { recursive: true, filter: (src) => !src.includes('.edgeops') });
  copyExamplePolicies(manifests);
}, 240_000);
afterAll(() => rmSync(temp, { recursive: true, force: true }));

/** The examples' shared policy directory, beside a copied example, where its edgeops.yaml looks for it. */
function copyExamplePolicies(example: string): void {
  cpSync(join(ROOT, 'examples/policies'), join(dirname(example), 'policies'), { recursive: true });
}

describe('the packed tarball', () => {
  it('ships the built CLI, the schemas and the documents, not the sources or the tests', () => {
    expect(packedFiles).toEqual(expect.arrayContaining(['package.json', 'bin/edgeops.js', 'bin/package.json', 'dist/main.cjs', 'README.md', 'CHANGELOG.md', 'LICENSE', 'schemas/manifest.schema.json']));
    const unexpected = packedFiles.filter((f) => !/^(bin|dist|schemas)\//.test(f) && !['package.json', 'README.md', 'CHANGELOG.md', 'LICENSE'].includes(f));
    expect(unexpected).toEqual([]);
  });

  it('declares better-sqlite3 an optional peer dependency only, and no install-time script of its own', () => {
    const pkg = JSON.parse(readFileSync(join(project, 'node_modules', 'edgeops', 'package.json'), 'utf8'));
    expect(pkg.peerDependencies).toEqual({ 'better-sqlite3': expect.any(String) });
    expect(pkg.peerDependenciesMeta).toEqual({ 'better-sqlite3': { optional: true } });
    expect(pkg.dependencies?.['better-sqlite3']).toBeUndefined();
    expect(pkg.optionalDependencies).toBeUndefined();
    expect(Object.keys(pkg.scripts ?? {}).filter((s) => ['preinstall', 'install', 'postinstall', 'prepare'].includes(s))).toEqual([]);
  });

  it('installs without better-sqlite3, tsx or esbuild, and no package installed has an install script or a native build', () => {
    expect(existsSync(join(project, 'node_modules', 'edgeops', 'dist', 'main.cjs'))).toBe(true);
    for (const modules of [join(project, 'node_modules'), join(prefix, 'lib', 'node_modules')]) {
      const packages = packagesUnder(modules);
      expect(packages.map((p) => p.name)).toContain('edgeops');
      expect(packages.map((p) => p.name)).not.toEqual(expect.arrayContaining(['better-sqlite3']));
      for (const name of ['better-sqlite3', 'tsx', 'esbuild', 'prebuild-install', 'node-gyp']) expect(packages.map((p) => p.name), modules).not.toContain(name);
      const withScripts = packages.filter((p) => p.gypfile || ['preinstall', 'install', 'postinstall'].some((s) => s in p.scripts)).map((p) => p.name);
      expect(withScripts, modules).toEqual([]);
    }
  });

  it('installs globally into a prefix with no warning about install scripts (allowScripts)', () => {
    expect(existsSync(globalBin)).toBe(true);
    expect(globalInstallOutput).toMatch(/added \d+ packages?/);
    expect(globalInstallOutput).not.toMatch(/allow-?scripts|install-scripts|install scripts/i);
  });

  it('prints its version, from the project and from the global prefix', async () => {
    const version = JSON.parse(readFileSync(join(ROOT, 'package.json'), 'utf8')).version as string;
    for (const bin of [projectBin, globalBin]) {
      const result = await runBin(bin, ['--version']);
      expect(result.stdout, output(result)).toBe(`${version}\n`);
      expect(result.code).toBe(0);
    }
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

  it('never builds: without dist/ it says to build, and leaves the directory as it was', async () => {
    const copy = join(temp, 'no-dist', 'edgeops');
    cpSync(join(project, 'node_modules', 'edgeops'), copy, { recursive: true, filter: (src) => !src.includes(`${join('edgeops', 'dist')}`) });
    const r = await runBin(join(copy, 'bin', 'edgeops.js'), ['--version']);
    expect(r.code).toBe(1);
    expect(r.stderr).toBe('edgeops: the built CLI (dist/) is missing: run `npm run build` in the edgeops directory\n');
    expect(readdirSync(copy).sort()).toEqual(readdirSync(join(project, 'node_modules', 'edgeops')).filter((e) => e !== 'dist').sort());
  });
});

describe.runIf(hasNodeSqlite())(`on Node ${process.versions.node} (node:sqlite built in): the embedded service with no better-sqlite3 anywhere`, () => {
  it('serve answers the smoke test, from the project install and from the global one', async () => {
    expect(packagesUnder(join(project, 'node_modules')).map((p) => p.name)).not.toContain('better-sqlite3');
    await serves(projectBin, 'node:sqlite');
    await serves(globalBin, 'node:sqlite');
  }, 60_000);

  it('apply --local converges on examples/full, then plan --local has no changes, with no warning', async () => {
    const full = join(project, 'full');
    cpSync(join(ROOT, 'examples/full'), full, { recursive: true, filter: (src) => !/[/\\](\.edgeops|certs)$/.test(src) });
    copyExamplePolicies(full);
    await makeCerts(full);
    const applied = await installed(['apply', 'full', '--local', '--auto-approve']);
    expect(applied.code, output(applied)).toBe(0);
    expect(applied.stdout).toMatch(/Apply complete: [1-9]\d* created, 0 updated, 0 replaced, 0 deleted\./);
    expect(applied.stderr).not.toMatch(/warning/i);
    const planned = await installed(['plan', 'full', '--local', '--detailed-exitcode']);
    expect(planned.code, output(planned)).toBe(0);
    expect(planned.stdout).toContain('No changes. Live state matches the manifests.');
    expect(planned.stderr).not.toMatch(/warning/i);
    expect(existsSync(join(full, '.edgeops', 'local.db'))).toBe(true);
  }, 120_000);

  it('runs every self-contained example of its --help, in order, from a stack directory (global install)', async () => {
    const basic = join(temp, 'basic');
    cpSync(join(ROOT, 'examples/basic'), basic, { recursive: true, filter: (src) => !/[/\\]\.edgeops$/.test(src) });
    copyExamplePolicies(basic);
    const help = await runBin(globalBin, ['--help']);
    const examples = runnableExamples(help.stdout);
    expect(examples.length).toBeGreaterThanOrEqual(9);
    for (const args of examples) {
      const r = await runBin(globalBin, args, {}, basic);
      expect(r.code, `edgeops ${args.join(' ')}\n${output(r)}`).toBe(0);
    }
    const completion = await runBin(globalBin, ['completion', 'bash'], {}, basic);
    expect(completion.code, output(completion)).toBe(0);
    expect(completion.stdout).toMatch(/^complete .*edgeops$/m);
  }, 120_000);
});

/**
 * A prebuilt better-sqlite3 for this Node, made from the checkout's own build, where prebuild-install run under
 * `dir` finds it (its rc file, looked up from the working directory upwards, names a local prebuilds directory):
 * what a download from the package's releases gives a user. Nothing when the checkout's build does not load
 * here or the platform's name for it is not the plain glibc one; then the install compiles it.
 */
async function offerCheckoutPrebuild(dir: string): Promise<void> {
  const pkgDir = join(ROOT, 'node_modules', 'better-sqlite3');
  const glibc = (process.report.getReport() as { header?: { glibcVersionRuntime?: string } }).header?.glibcVersionRuntime;
  if (process.platform !== 'linux' || !glibc) return;
  try {
    const Database = createRequire(join(ROOT, 'package.json'))('better-sqlite3') as new (file: string) => { close(): void };
    new Database(':memory:').close();
  } catch {
    return;
  }
  const { version } = JSON.parse(readFileSync(join(pkgDir, 'package.json'), 'utf8')) as { version: string };
  const prebuilds = join(dir, 'prebuilds');
  mkdirSync(prebuilds, { recursive: true });
  const name = `better-sqlite3-v${version}-node-v${process.versions.modules}-linux-${process.arch}.tar.gz`;
  await run('tar', ['-czf', join(prebuilds, name), '-C', pkgDir, 'build/Release/better_sqlite3.node']);
  writeFileSync(join(dir, '.prebuild-installrc'), `local-prebuilds=${prebuilds}\n`);
}

describe.runIf(!hasNodeSqlite())(`on Node ${process.versions.node} (no node:sqlite): the documented path to the embedded service`, () => {
  beforeAll(() => offerCheckoutPrebuild(temp));

  /** The commands an error prints, in `backticks`. */
  const commandsIn = (message: string): string[] => [...message.matchAll(/`([^`]+)`/g)].map((m) => m[1]!);

  it('serve and --local stop with exit 1 and the commands that add better-sqlite3, without an internal error', async () => {
    const expected = (what: string) =>
      `edgeops: ${what} needs SQLite: Node ${process.version} has no node:sqlite and better-sqlite3 is not installed; run edgeops on Node 22.13 or later (SQLite is built in), or install better-sqlite3 beside edgeops: \`npm install -g better-sqlite3\` for a global edgeops, \`npm install better-sqlite3\` in a project\n`;
    for (const bin of [projectBin, globalBin]) {
      const served = await runBin(bin, ['serve', '--port', '0']);
      expect(served.code, output(served)).toBe(1);
      expect(served.stderr).toBe(expected('edgeops serve'));
    }
    const local = await installed(['plan', 'infra', '--local']);
    expect(local.code).toBe(1);
    expect(local.stderr).toBe(expected('--local (the embedded service)'));
    expect(existsSync(join(manifests, '.edgeops', 'local.db'))).toBe(false);
  });

  it.concurrent('global: the printed `npm install -g better-sqlite3`, run in the prefix, makes serve work', async () => {
    const before = await runBin(globalBin, ['serve', '--port', '0']);
    const command = commandsIn(before.stderr).find((c) => c.includes(' -g '));
    expect(command).toBe('npm install -g better-sqlite3');
    const [, ...args] = command!.split(' ');
    await npm([...args, '--prefix', prefix], temp);
    expect(existsSync(join(prefix, 'lib', 'node_modules', 'better-sqlite3', 'package.json'))).toBe(true);
    expect(existsSync(join(prefix, 'lib', 'node_modules', 'edgeops', 'node_modules', 'better-sqlite3'))).toBe(false);
    await serves(globalBin, 'better-sqlite3');
  }, 600_000);

  it.concurrent('project: better-sqlite3 without its native build is named so, and the printed `npm rebuild better-sqlite3` makes --local work', async () => {
    await npm(['install', 'better-sqlite3', '--ignore-scripts', '--no-save'], project);
    const local = await installed(['plan', 'infra', '--local']);
    expect(local.code).toBe(1);
    expect(local.stderr).toMatch(new RegExp(`^edgeops: --local \\(the embedded service\\) needs SQLite: Node ${process.version.replaceAll('.', '\\.')} has no node:sqlite and better-sqlite3 is installed but its native module does not load \\(.+\\); run edgeops on Node 22\\.13 or later \\(SQLite is built in\\), or build it for this Node: \`npm rebuild -g better-sqlite3\` for a global edgeops, \`npm rebuild better-sqlite3\` in a project\\n$`));
    expect(local.stderr).not.toContain('internal error');
    const command = commandsIn(local.stderr).find((c) => !c.includes(' -g '));
    expect(command).toBe('npm rebuild better-sqlite3');
    const [, ...args] = command!.split(' ');
    await npm(args, project);
    const applied = await installed(['apply', 'infra', '--local', '--auto-approve']);
    expect(applied.code, output(applied)).toBe(0);
    expect(applied.stdout).toContain('Apply complete');
    const planned = await installed(['plan', 'infra', '--local', '--detailed-exitcode']);
    expect(planned.code, output(planned)).toBe(0);
    expect(planned.stdout).toContain('No changes. Live state matches the manifests.');
    await serves(projectBin, 'better-sqlite3');
  }, 600_000);
});
