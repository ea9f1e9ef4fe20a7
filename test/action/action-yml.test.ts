// action.yml and the example workflows agree with the entry: a JavaScript action whose committed bundle reads
// every declared input, and the workflows pass only inputs the action declares.
import { readdirSync, readFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { parse } from 'yaml';
import { describe, expect, it } from 'vitest';

const ROOT = resolve(import.meta.dirname, '../..');

interface Step { id?: string; uses?: string; run?: string; env?: Record<string, string>; with?: Record<string, unknown>; 'working-directory'?: string }
const action = parse(readFileSync(join(ROOT, 'action.yml'), 'utf8')) as {
  inputs: Record<string, { default?: string }>;
  outputs: Record<string, { value?: string }>;
  runs: { using: string; main: string };
};

describe('action.yml', () => {
  it('declares the inputs and outputs of the contract', () => {
    expect(Object.keys(action.inputs)).toEqual(expect.arrayContaining([
      'command', 'path', 'api-url', 'api-key', 'stack', 'comment', 'comment-failure', 'on-stale', 'checksum',
      'fail-on-drift', 'drift-issue', 'drift-issue-labels', 'adopt', 'allow-deletes', 'stacks',
    ]));
    expect(action.inputs.stacks!.default).toBe('changed');
    expect(action.inputs['allow-deletes']!.default).toBe('false');
    // The defaults the entry assumes when an input is absent.
    expect(action.inputs['fail-on-drift']!.default).toBe('true');
    expect(action.inputs['on-stale']!.default).toBe('fail');
    expect(action.inputs['comment-failure']!.default).toBe('fail');
    expect(action.inputs['drift-issue']!.default).toBe('');
    expect(action.inputs['drift-issue-labels']!.default).toBe('edgeops-drift');
    expect(action.inputs.adopt!.default).toBe('false');
    expect(Object.keys(action.outputs).sort()).toEqual(['has-changes', 'plan-json', 'stacks', 'summary']);
    // A JavaScript action's outputs are what its entry writes to GITHUB_OUTPUT; there is no step to map from.
    for (const output of Object.values(action.outputs)) expect(output.value).toBeUndefined();
  });

  it("runs the committed bundle on the runner's Node, and the bundle reads every input", () => {
    expect(action.runs.using).toBe('node24');
    expect(action.runs.main).toBe('action/dist/index.mjs');
    const bundle = readFileSync(join(ROOT, action.runs.main), 'utf8');
    // The operations run inside the Action's process: the bundle is its one file, with no CLI beside it.
    expect(readdirSync(join(ROOT, 'action/dist'))).toEqual(['index.mjs']);
    for (const name of Object.keys(action.inputs)) expect(bundle.includes(`"${name}"`) || bundle.includes(`'${name}'`), name).toBe(true);
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

  it('monorepo.yml plans the changed stacks of a whole checkout and applies, by hand, one stack root', () => {
    const workflow = parse(readFileSync(join(ROOT, 'examples/workflows/monorepo.yml'), 'utf8')) as {
      permissions: Record<string, string>; jobs: Record<string, { steps: Step[] }>;
    };
    const steps = Object.values(workflow.jobs).flatMap((job) => job.steps);
    const edgeops = steps.filter((s) => s.uses?.startsWith('edgeops/edgeops@'));
    expect(edgeops).toHaveLength(3);
    for (const step of edgeops) for (const key of Object.keys(step.with ?? {})) expect(Object.keys(action.inputs)).toContain(key);
    // The base of a pull request must be in the checkout to find the stacks it changes.
    const planJob = workflow.jobs.plan!.steps;
    expect(planJob.find((s) => s.uses?.startsWith('actions/checkout@'))!.with).toMatchObject({ 'fetch-depth': 0 });
    expect(planJob.find((s) => s.uses?.startsWith('edgeops/edgeops@'))!.with).toMatchObject({ path: 'infra', stacks: 'changed' });
    expect(workflow.permissions).toMatchObject({ 'pull-requests': 'write', issues: 'write', statuses: 'write' });
    // No output is pasted into a script: the stacks JSON reaches it through the environment.
    for (const step of steps) expect(step.run ?? '').not.toContain('outputs.stacks');
  });

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
