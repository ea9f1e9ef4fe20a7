// `--json-out FILE`: plan and drift write the plan in the JSON plan format next to their own output, from the
// same reading of live state (what the GitHub Action uses to render a comment and its outputs from one plan).
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { copyExample, edgeops } from './run.ts';

const example = copyExample('basic');
afterAll(() => example.dispose());

describe('--json-out', () => {
  it('plan: the file holds exactly what --format json prints, while stdout has the Markdown', async () => {
    const file = join(example.dir, '..', 'plan.json');
    const md = await edgeops(['plan', example.dir, '--local', '--format', 'markdown', '--json-out', file, '--detailed-exitcode']);
    expect(md.code, md.stderr).toBe(2);
    expect(md.stdout).toMatch(/^### edgeops plan for stack/);
    const json = await edgeops(['plan', example.dir, '--local', '--format', 'json']);
    expect(json.code, json.stderr).toBe(0);
    expect(readFileSync(file, 'utf8')).toBe(json.stdout);
    expect(JSON.parse(json.stdout).resources.length).toBeGreaterThan(0);
  });

  it('drift: the file holds the plan that would restore the manifests, the report stays on stdout', async () => {
    const file = join(example.dir, '..', 'drift-plan.json');
    const r = await edgeops(['drift', example.dir, '--local', '--json-out', file]);
    expect(r.code, r.stderr).toBe(2);
    expect(r.stdout).toContain('Drift on stack');
    const plan = JSON.parse(readFileSync(file, 'utf8')) as { format_version: number; resources: { action: string }[] };
    expect(plan.format_version).toBe(2);
    expect(plan.resources.length).toBeGreaterThan(0);
    expect(plan.resources.every((x) => x.action === 'create')).toBe(true);
  });

  it('a failure writes the error with every manifest problem\'s position instead of a plan', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'edgeops-json-error-'));
    try {
      writeFileSync(join(dir, 'all.yaml'), 'kind: IPPolicy\nname: office\n---\nkind: TCPEdge\nname: ssh\nbakend: {backend_id: web}\n');
      for (const command of ['plan', 'drift']) {
        const file = join(dir, `${command}.json`);
        const r = await edgeops([command, 'all.yaml', '--local', '--json-out', file], { cwd: dir });
        expect(r.code).toBe(1);
        const doc = JSON.parse(readFileSync(file, 'utf8')) as { format_version: number; error: { code: string; problems: { file: string; line: number; col: number; address?: string; message: string }[] } };
        expect(doc.format_version).toBe(1);
        expect(doc.error.code).toBe('E_MANIFEST');
        expect(doc.error.problems).toContainEqual(expect.objectContaining({ file: 'all.yaml', line: 6, col: 1, address: 'TCPEdge/ssh' }));
        expect(doc.error.problems.find((p) => p.line === 6)!.message).toContain('bakend');
      }
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });
});
