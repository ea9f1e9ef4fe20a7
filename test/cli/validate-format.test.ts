// `validate` as text and as data (`--format json`): every problem with its position and its field in the one
// notation (contract/field-path.ts), both pinned by goldens; the exit code is the same either way.
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { edgeops, ROOT } from './run.ts';

const fixtures = 'test/fixtures/validate';

describe('validate --format', () => {
  it('text: file:line:col: Kind/name: path: message, one problem a line (golden)', async () => {
    const r = await edgeops(['validate', `${fixtures}/invalid.yaml`]);
    expect(r.code).toBe(1);
    expect(r.stdout).toBe('');
    await expect(r.stderr).toMatchFileSnapshot(`../fixtures/validate/invalid.txt`);
  });

  it('json: the same problems as data on stdout, with the same exit code (golden)', async () => {
    const r = await edgeops(['validate', `${fixtures}/invalid.yaml`, '--format', 'json']);
    expect(r.code).toBe(1);
    expect(r.stderr).toBe('');
    await expect(r.stdout).toMatchFileSnapshot(`../fixtures/validate/invalid.json`);
    const doc = JSON.parse(r.stdout) as { format_version: number; ok: boolean; problems: { file: string; line: number; col: number; address?: string; field: string; path: string; code?: string; message: string }[] };
    expect(doc.format_version).toBe(1);
    expect(doc.ok).toBe(false);
    // Each JSON problem is the text line, cut into its parts.
    const text = (await edgeops(['validate', `${fixtures}/invalid.yaml`])).stderr.trimEnd().split('\n').slice(0, -1);
    expect(doc.problems.map((p) => `${p.file}:${p.line}:${p.col}: ${p.address ? `${p.address}: ` : ''}${p.field ? `${p.field}: ` : ''}${p.message}`)).toEqual(text);
  });

  it('json: valid manifests are ok with no problems and exit 0', async () => {
    const r = await edgeops(['validate', join(ROOT, 'examples/basic'), '--format', 'json']);
    expect(r.code, r.stderr).toBe(0);
    const doc = JSON.parse(r.stdout) as { ok: boolean; resources: number; problems: unknown[] };
    expect(doc).toMatchObject({ format_version: 1, ok: true, problems: [] });
    expect(doc.resources).toBeGreaterThan(0);
  });

  it('json: a failure that is not about the manifests is reported as usual, on stderr', async () => {
    const r = await edgeops(['validate', `${fixtures}/no-such-dir`, '--format', 'json']);
    expect(r.code).not.toBe(0);
    expect(r.stdout).toBe('');
    expect(r.stderr).toMatch(/^edgeops: /);
  });

  it('no code finds a problem\'s position in the words of its message', () => {
    const source = readFileSync(join(ROOT, 'src/manifest/contract-check.ts'), 'utf8');
    expect(source).not.toMatch(/problem\.message|\.message\.(?:indexOf|endsWith|startsWith|slice)|exec\(problem/);
    const rules = readFileSync(join(ROOT, 'src/manifest/rules.ts'), 'utf8');
    expect(rules).not.toMatch(/message\.startsWith/);
  });
});
