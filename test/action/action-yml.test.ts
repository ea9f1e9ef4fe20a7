// action.yml and the example workflows agree with the entry: every input reaches it as INPUT_*, every
// output comes from the step that runs it, and the workflows pass only inputs the action declares.
import { existsSync, readFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { parse } from 'yaml';
import { describe, expect, it } from 'vitest';

const ROOT = resolve(import.meta.dirname, '../..');

interface Step { id?: string; uses?: string; run?: string; env?: Record<string, string>; with?: Record<string, unknown>; 'working-directory'?: string }
const action = parse(readFileSync(join(ROOT, 'action.yml'), 'utf8')) as {
  inputs: Record<string, { default?: string }>;
  outputs: Record<string, { value: string }>;
  runs: { using: string; steps: Step[] };
};

describe('action.yml', () => {
  const entry = action.runs.steps.find((s) => s.id === 'edgeops')!;

  it('declares the inputs and outputs of the contract', () => {
    expect(Object.keys(action.inputs)).toEqual(expect.arrayContaining([
      'command', 'path', 'api-url', 'api-key', 'stack', 'comment', 'comment-failure', 'on-stale', 'checksum',
      'fail-on-drift', 'drift-issue', 'drift-issue-labels', 'adopt', 'allow-deletes',
    ]));
    expect(action.inputs['allow-deletes']!.default).toBe('false');
    // The defaults the entry assumes when an input is absent.
    expect(action.inputs['fail-on-drift']!.default).toBe('true');
    expect(action.inputs['on-stale']!.default).toBe('fail');
    expect(action.inputs['comment-failure']!.default).toBe('fail');
    expect(action.inputs['drift-issue']!.default).toBe('');
    expect(action.inputs['drift-issue-labels']!.default).toBe('edgeops-drift');
    expect(action.inputs.adopt!.default).toBe('false');
    expect(Object.keys(action.outputs).sort()).toEqual(['has-changes', 'plan-json', 'summary']);
    for (const [name, output] of Object.entries(action.outputs)) expect(output.value).toBe(`\${{ steps.edgeops.outputs.${name} }}`);
  });

  it('passes every input to the entry as INPUT_*', () => {
    expect(action.runs.using).toBe('composite');
    expect(entry.run).toBe('node "$GITHUB_ACTION_PATH/src/action/launch.mjs"');
    expect(existsSync(join(ROOT, 'src/action/launch.mjs'))).toBe(true);
    for (const name of Object.keys(action.inputs)) {
      if (name === 'working-directory') {
        expect(entry['working-directory']).toBe('${{ inputs.working-directory }}');
        continue;
      }
      expect(entry.env?.[`INPUT_${name.toUpperCase().replace(/-/g, '_')}`], name).toBe(`\${{ inputs.${name} }}`);
    }
  });
});

describe('examples/workflows', () => {
  for (const file of ['plan.yml', 'apply.yml', 'drift.yml']) {
    it(`${file} uses only the action's inputs`, () => {
      const workflow = parse(readFileSync(join(ROOT, 'examples/workflows', file), 'utf8')) as { jobs: Record<string, { steps: Step[] }> };
      const steps = Object.values(workflow.jobs).flatMap((job) => job.steps).filter((s) => s.uses?.startsWith('edgeops/edgeops@'));
      expect(steps).toHaveLength(1);
      for (const key of Object.keys(steps[0]!.with ?? {})) expect(Object.keys(action.inputs)).toContain(key);
      expect(steps[0]!.with?.command).toBe(file.replace('.yml', ''));
    });
  }

  it("the README's workflow snippets parse and use only the action's inputs", () => {
    const readme = readFileSync(join(ROOT, 'examples/workflows/README.md'), 'utf8');
    // Workflows (with jobs); the others are edgeops.yaml examples.
    const snippets = [...readme.matchAll(/```yaml\n([\s\S]*?)```/g)]
      .map((m) => parse(m[1]!) as { jobs?: Record<string, { steps: Step[] }> })
      .filter((w): w is { jobs: Record<string, { steps: Step[] }> } => w.jobs !== undefined);
    const uses = snippets.flatMap((w) => Object.values(w.jobs).flatMap((job) => job.steps)).filter((s) => s.uses?.startsWith('edgeops/edgeops@'));
    expect(uses.length).toBeGreaterThan(0);
    for (const step of uses) for (const key of Object.keys(step.with ?? {})) expect(Object.keys(action.inputs)).toContain(key);
    expect(uses.some((s) => s.with?.against !== undefined && s.with['api-key'] === undefined)).toBe(true);
    expect(uses.some((s) => s.with?.command === 'apply' && s.with['allow-deletes'] !== undefined)).toBe(true);
    expect(readme).toContain('max_deletes');
  });
});
