// `edgeops fmt` as a user runs it: files rewritten in place, `--check` exit codes and the files it lists, invalid
// YAML refused with nothing written, and a formatted manifest set planning "No changes." against the service the
// original was applied to (--local: the real embedded service).
import { mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { CORPUS, FORMATTED } from '../format/corpus.ts';
import { copyExample, edgeops, makeCerts } from './run.ts';

const dirs: string[] = [];
afterAll(() => {
  for (const dir of dirs.splice(0)) rmSync(dir, { recursive: true, force: true });
});

function tree(files: Record<string, string>): string {
  const dir = mkdtempSync(join(tmpdir(), 'edgeops-fmt-'));
  dirs.push(dir);
  for (const [path, text] of Object.entries(files)) {
    mkdirSync(dirname(join(dir, path)), { recursive: true });
    writeFileSync(join(dir, path), text);
  }
  return dir;
}
const read = (dir: string, file: string) => readFileSync(join(dir, file), 'utf8');

const PROJECT = 'concurrency: 4\nstack: web   # the web team\n';

describe('edgeops fmt', () => {
  it('rewrites every manifest under PATH (default ".") and the edgeops.yaml inside it; a second run changes nothing', async () => {
    const dir = tree({ ...CORPUS, 'edgeops.yaml': PROJECT });
    const first = await edgeops(['fmt'], { cwd: dir });
    expect(first.stderr).toBe('');
    expect(first.code).toBe(0);
    expect(first.stdout).toBe('formatted edgeops.yaml\nformatted edges.yaml\nformatted web.yaml\n3 files rewritten, 0 already formatted\n');
    for (const file of Object.keys(CORPUS)) expect(read(dir, file)).toBe(FORMATTED[file]);
    expect(read(dir, 'edgeops.yaml')).toBe('stack: web # the web team\nconcurrency: 4\n');

    const second = await edgeops(['fmt', '.'], { cwd: dir });
    expect(second.code).toBe(0);
    expect(second.stdout).toBe('0 files rewritten, 3 already formatted\n');
  });

  it('--check: exit 1 listing the files fmt would change, and nothing written; exit 0 once formatted', async () => {
    const dir = tree({ 'a/web.yaml': CORPUS['web.yaml']!, 'a/edges.yaml': FORMATTED['edges.yaml']!, 'b/more.yml': CORPUS['edges.yaml']! });
    const check = await edgeops(['fmt', 'a', 'b', '--check'], { cwd: dir });
    expect(check.code).toBe(1);
    expect(check.stdout).toBe(`${join('a', 'web.yaml')}\n${join('b', 'more.yml')}\n`);
    expect(check.stderr).toBe('edgeops: 2 files not formatted; `edgeops fmt` rewrites them\n');
    expect(read(dir, 'a/web.yaml')).toBe(CORPUS['web.yaml']);
    expect(read(dir, 'b/more.yml')).toBe(CORPUS['edges.yaml']);

    expect((await edgeops(['fmt', 'a', 'b'], { cwd: dir })).code).toBe(0);
    const clean = await edgeops(['fmt', '--check', 'a', 'b'], { cwd: dir });
    expect(clean.stderr).toBe('');
    expect(clean.code).toBe(0);
    expect(clean.stdout).toBe('3 files already formatted\n');
  });

  it('refuses invalid YAML with file:line:col and writes no file at all', async () => {
    const dir = tree({ 'a.yaml': CORPUS['web.yaml']!, 'b.yaml': 'kind: IPPolicy\nname: x\n---\nkind: IPPolicy\nname: "y\n' });
    const run = await edgeops(['fmt'], { cwd: dir });
    expect(run.code).toBe(1);
    expect(run.stdout).toBe('');
    expect(run.stderr).toBe('b.yaml:5:7: invalid YAML: the double-quoted value starting here is never closed\nedgeops: 1 problem in the manifests\n');
    expect(run.stderr).not.toContain('internal error');
    expect(read(dir, 'a.yaml')).toBe(CORPUS['web.yaml']);
  });

  it('a path with no YAML, or none at all, is an error naming it', async () => {
    const dir = tree({ 'notes.txt': 'x' });
    const run = await edgeops(['fmt', '.'], { cwd: dir });
    expect(run.code).toBe(1);
    expect(run.stderr).toBe('edgeops: no manifests: no *.yaml or *.yml file in .; nothing to format\n');
    const missing = await edgeops(['fmt', 'infra'], { cwd: dir });
    expect(missing.code).toBe(1);
    expect(missing.stderr).toMatch(/^edgeops: path not found: infra \(run from .*\)\n$/);
  });

  it('the formatted corpus plans "No changes." against the service the original was applied to', async () => {
    const dir = tree(CORPUS);
    const apply = await edgeops(['apply', '.', '--local', '--auto-approve'], { cwd: dir });
    expect(apply.stderr).toBe('');
    expect(apply.stdout).toContain('Apply complete: 6 created');
    expect((await edgeops(['fmt'], { cwd: dir })).code).toBe(0);
    for (const file of Object.keys(CORPUS)) expect(read(dir, file)).toBe(FORMATTED[file]);
    const plan = await edgeops(['plan', '.', '--local', '--detailed-exitcode'], { cwd: dir });
    expect(plan.stderr).toBe('');
    expect(plan.stdout).toBe('No changes. Live state matches the manifests.\n');
    expect(plan.code).toBe(0);
  });

  it.each([
    ['basic', []],
    ['tls', []],
    ['full', []],
  ])('examples/%s: applied as written, then formatted, plans "No changes."', async (name, unformatted) => {
    const example = copyExample(name);
    try {
      if (name !== 'basic') await makeCerts(example.dir);
      expect((await edgeops(['apply', example.dir, '--local', '--auto-approve'])).code).toBe(0);
      const cwd = example.dir;
      const before = await edgeops(['fmt', '--check'], { cwd });
      expect(before.code).toBe(unformatted.length > 0 ? 1 : 0);
      if (unformatted.length > 0) expect(before.stdout).toBe(unformatted.map((f) => `${f}\n`).join(''));
      expect((await edgeops(['fmt'], { cwd })).code).toBe(0);
      const after = await edgeops(['fmt', '--check'], { cwd });
      expect(after.code).toBe(0);
      const plan = await edgeops(['plan', example.dir, '--local', '--detailed-exitcode']);
      expect(plan.stderr).toBe('');
      expect(plan.stdout).toBe('No changes. Live state matches the manifests.\n');
      expect(plan.code).toBe(0);
    } finally {
      example.dispose();
    }
  });
});
