// No input, no plan, through the real CLI against the real service: a path without documents is an error for
// every command (with or without an edgeops.yaml), `.YAML` files are read, a plan deleting every resource of
// the stack runs only with --destroy (for stacks smaller and larger than max_deletes), and --allow-deletes is
// no substitute for it.
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { parseMetadata } from '../../src/kinds/marker.ts';
import { api, startTestService, type TestService } from '../helpers/service.ts';
import { edgeops, output, type RunResult } from './run.ts';

let svc: TestService;
const base = mkdtempSync(join(tmpdir(), 'edgeops-no-input-'));

const run = (args: string[]): Promise<RunResult> => edgeops(args, { cwd: base, env: { EDGEOPS_API_URL: svc.url, EDGEOPS_API_KEY: svc.apiKey } });

/** A directory under the test's base with these files (path -> text). */
function tree(name: string, files: Record<string, string>): string {
  const dir = join(base, name);
  mkdirSync(dir, { recursive: true });
  for (const [file, text] of Object.entries(files)) writeFileSync(join(dir, file), text);
  return name;
}

const policies = (names: string[]): string => names.map((n) => `kind: IPPolicy\nname: ${n}\n`).join('---\n');

async function managed(stack: string): Promise<string[]> {
  const items = (await api(svc).listAll('/ip_policies', 'ip_policies')) as { metadata?: string }[];
  return items.map((i) => parseMetadata(i.metadata).marker).filter((m) => m?.stack === stack).map((m) => m!.name).sort();
}

beforeAll(async () => {
  svc = await startTestService();
});
afterAll(async () => {
  await svc.close();
  rmSync(base, { recursive: true, force: true });
});

describe('a path without documents', () => {
  it('is an error for validate, plan, apply and drift, naming the path and the files skipped', async () => {
    tree('bare', { 'README.md': '# notes\n', '.hidden.yaml': policies(['h']) });
    for (const command of [['validate'], ['plan'], ['apply', '--auto-approve'], ['drift']]) {
      const r = await run([command[0]!, 'bare', ...command.slice(1)]);
      expect(r.code, `${command[0]}: ${output(r)}`).toBe(1);
      expect(r.stderr).toContain('edgeops: no manifests: this path yields no document, so there is nothing to plan from:');
      expect(r.stderr).toContain('  bare: no *.yaml or *.yml file below it; skipped bare/.hidden.yaml, bare/README.md (not .yaml/.yml)');
      expect(r.stdout).not.toContain('Plan:');
    }
  });

  it('with an edgeops.yaml naming a live stack, deletes nothing, however small the stack', async () => {
    tree('live', { 'edgeops.yaml': 'stack: small\n', 'p.yaml': policies(['a', 'b']) });
    expect((await run(['apply', 'live', '--auto-approve'])).code).toBe(0);
    tree('newdir', { 'edgeops.yaml': 'stack: small\n' });
    const r = await run(['apply', 'newdir', '--auto-approve']);
    expect(r.code).toBe(1);
    expect(r.stderr).toContain('  newdir: no manifest besides the settings file newdir/edgeops.yaml');
    expect(await managed('small')).toEqual(['IPPolicy/a', 'IPPolicy/b']);
    // A file without documents (comments only) yields nothing either; among other paths it still counts.
    tree('comments', { 'edgeops.yaml': 'stack: small\n', 'todo.yaml': '# to do\n' });
    const mixed = await run(['plan', 'live', 'comments']);
    expect(mixed.code).toBe(1);
    expect(mixed.stderr).toContain('  comments: its file holds no document (comments/todo.yaml)');
    // An edgeops.yaml named alone is settings, not documents; beside manifests, it is part of their stack.
    const settingsOnly = await run(['plan', 'newdir/edgeops.yaml']);
    expect(settingsOnly.code).toBe(1);
    expect(settingsOnly.stderr).toContain('  newdir/edgeops.yaml: a project file: settings, no documents');
    const partOfLive = await run(['apply', 'live/edgeops.yaml', '--auto-approve', '--destroy']);
    expect(partOfLive.code).toBe(1);
    expect(partOfLive.stderr).toContain('  live/edgeops.yaml is inside the stack root live (live/edgeops.yaml), which also holds this manifest:\n    live/p.yaml\n');
    expect(await managed('small')).toEqual(['IPPolicy/a', 'IPPolicy/b']);
  });
});

describe('file names', () => {
  it('reads .YAML and .Yml files as manifests', async () => {
    tree('upper', { 'x.YAML': policies(['upper-x']), 'y.Yml': policies(['upper-y']) });
    const v = await run(['validate', 'upper']);
    expect(v.code, v.stderr).toBe(0);
    expect(v.stdout).toBe('2 resources valid\n');
    const p = await run(['plan', 'upper', '--stack', 'upper']);
    expect(p.stdout).toContain('+ IPPolicy/upper-x');
    expect(p.stdout).toContain('+ IPPolicy/upper-y');
  });
});

describe('--destroy', () => {
  /** Applies `names` as stack `stack` from directory `dir` (with max_deletes `max`). */
  async function applyStack(dir: string, stack: string, names: string[], max: number): Promise<void> {
    tree(dir, { 'edgeops.yaml': `stack: ${stack}\nmax_deletes: ${max}\n`, 'p.yaml': policies(names) });
    const r = await run(['apply', dir, '--auto-approve']);
    expect(r.code, output(r)).toBe(0);
    expect(await managed(stack)).toHaveLength(names.length);
  }

  for (const [label, size, max] of [['smaller', 3, 10], ['larger', 12, 10]] as const) {
    it(`refuses to delete every resource of a stack ${label} than max_deletes without --destroy, and runs it with`, async () => {
      const stack = `destroy-${label}`;
      const names = Array.from({ length: size }, (_, i) => `${label}-${i}`);
      await applyStack(`${stack}-src`, stack, names, max);
      // Emptied on purpose: only the edgeops.yaml is left.
      const empty = tree(`${stack}-empty`, { 'edgeops.yaml': `stack: ${stack}\nmax_deletes: ${max}\n` });

      const plan = await run(['plan', empty, '--destroy', '--format', 'json']);
      expect(plan.code, plan.stderr).toBe(0);
      const json = JSON.parse(plan.stdout) as { destroy: boolean; summary: { delete: number }; warnings: string[] };
      expect(json.destroy).toBe(true);
      expect(json.summary.delete).toBe(size);
      expect(json.warnings.filter((w) => w.includes('--allow-deletes'))).toEqual([]);

      // Without --destroy the empty path is no plan at all, --allow-deletes or not.
      for (const flags of [[], ['--allow-deletes']]) {
        const refused = await run(['apply', empty, '--auto-approve', ...flags]);
        expect(refused.code).toBe(1);
        expect(refused.stderr).toContain(`  ${empty}: no manifest besides the settings file ${empty}/edgeops.yaml`);
      }
      // A wrong path holding other manifests for the same stack: every live resource would go.
      const wrong = tree(`${stack}-wrong`, { 'edgeops.yaml': `stack: ${stack}\nmax_deletes: ${max}\n`, 'p.yaml': policies(['other']) });
      for (const flags of [[], ['--allow-deletes']]) {
        const r = await run(['apply', wrong, '--auto-approve', ...flags]);
        expect(r.code, output(r)).toBe(1);
        expect(r.stdout.split('\n')[0]).toBe(`This plan DESTROYS stack "${stack}": it deletes every one of its ${size} resources. apply runs it only with --destroy.`);
        expect(r.stderr).toContain(`refusing to apply this plan: it deletes every resource of stack "${stack}" (${size}). If the paths are right and the stack is to go, pass --destroy (raising the delete limits does not allow a destroy)`);
      }
      expect(await managed(stack)).toHaveLength(size);

      const saved = join(base, `${stack}.plan.json`);
      expect((await run(['plan', empty, '--destroy', '--out', saved])).code).toBe(0);
      const savedRefused = await run(['apply', '--plan', saved, '--allow-deletes']);
      expect(savedRefused.code).toBe(1);
      expect(savedRefused.stderr).toContain('pass --destroy');
      expect(await managed(stack)).toHaveLength(size);

      const destroyed = await run(['apply', empty, '--auto-approve', '--destroy']);
      expect(destroyed.code, output(destroyed)).toBe(0);
      expect(destroyed.stdout).toContain(`This plan DESTROYS stack "${stack}"`);
      expect(await managed(stack)).toEqual([]);
      // Once the stack is empty there is nothing to destroy: an empty path is no plan at all.
      const again = await run(['apply', empty, '--auto-approve', '--destroy']);
      expect(again.code, output(again)).toBe(0);
      expect(again.stdout).toContain('No changes.');
    }, 240_000);
  }
});
