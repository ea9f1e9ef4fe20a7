// A development checkout needs no build step: the package has no `prepare` (nor any other script that `npm ci`
// or an install would run), so nothing builds dist/ on install, and bin/edgeops.js builds it itself in a git
// checkout when it is missing or older than src/. Shown on a copy of this checkout as a fresh clone has it
// (the files git tracks or would add, a .git, no dist/), with the dependencies `npm ci` installs (the
// repository's node_modules, linked: a real `npm ci` would build better-sqlite3's native module again): the
// README's quick start runs as written, and the bin builds again when a source is newer, also when two runs
// start together.
import { execFile, execFileSync } from 'node:child_process';
import { cpSync, existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync, statSync, symlinkSync, utimesSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { delimiter, dirname, join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { cleanEnv, ROOT } from '../cli/run.ts';

const temp = mkdtempSync(join(tmpdir(), 'edgeops-checkout-'));
const clone = join(temp, 'edgeops');
const launcher = join(clone, 'dist', 'main.cjs');
const readme = readFileSync(join(ROOT, 'README.md'), 'utf8');
const version = (JSON.parse(readFileSync(join(ROOT, 'package.json'), 'utf8')) as { version: string }).version;

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
    if (file.startsWith('dist/') || !existsSync(join(ROOT, file))) continue;
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

  it('runs the README quick start as written: the first command builds dist/, the next plan has no changes', async () => {
    const [ci, apply, plan] = quickStart();
    expect(ci).toBe('npm ci'); // done above: the repository's node_modules
    const applied = await sh(apply!);
    expect(applied.code, applied.out + applied.err).toBe(0);
    expect(applied.out).toContain('Apply complete');
    expect(applied.err).toBe('');
    expect(existsSync(launcher)).toBe(true);
    const builtAt = statSync(launcher).mtimeMs;
    const planned = await sh(plan!);
    expect(planned.code, planned.out + planned.err).toBe(0);
    expect(planned.out).toContain('No changes. Live state matches the manifests.');
    expect(statSync(launcher).mtimeMs, 'a fresh dist/ is not built again').toBe(builtAt);
  }, 180_000);

  it('builds again when a file under src/ is newer than dist/, also for two runs started together, and not when it is older', async () => {
    if (!existsSync(launcher)) expect((await sh('node bin/edgeops.js --version')).code).toBe(0);
    const before = statSync(launcher).mtimeMs;
    const now = new Date();
    utimesSync(join(clone, 'src', 'main.ts'), now, now);
    // The second waits for the first one's build (a lock), then finds dist/ fresh.
    const [one, two] = await Promise.all([sh('node bin/edgeops.js --version'), sh('node bin/edgeops.js --version')]);
    for (const r of [one, two]) {
      expect(r.code, r.err).toBe(0);
      expect(r.out).toBe(`${version}\n`);
      expect(r.err).toBe('');
    }
    const rebuilt = statSync(launcher).mtimeMs;
    expect(rebuilt).toBeGreaterThan(before);
    expect(rebuilt).toBeGreaterThanOrEqual(now.getTime());
    expect((await sh('node bin/edgeops.js --version')).code).toBe(0);
    expect(statSync(launcher).mtimeMs, 'built once').toBe(rebuilt);
    expect(existsSync(join(ROOT, 'node_modules', '.cache', 'edgeops-build.lock'))).toBe(false);
  }, 180_000);

  it('says what to do when a build fails, and runs nothing', async () => {
    const source = join(clone, 'src', 'cli', 'main.ts');
    const text = readFileSync(source, 'utf8');
    try {
      cpSync(source, `${source}.orig`);
      execFileSync('bash', ['-c', `printf 'this is not TypeScript (\n' >> ${JSON.stringify(source)}`]);
      const r = await sh('node bin/edgeops.js --version');
      expect(r.code).toBe(1);
      expect(r.out).toBe('');
      expect(r.err).toContain(`edgeops: building dist/ from the sources failed (node --import tsx scripts/build.ts cli in ${clone}):`);
      expect(r.err).toContain('main.ts');
    } finally {
      cpSync(`${source}.orig`, source);
      rmSync(`${source}.orig`);
    }
    expect(readFileSync(source, 'utf8')).toBe(text);
  }, 120_000);
});
