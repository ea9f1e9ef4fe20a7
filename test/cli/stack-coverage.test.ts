// A path that holds part of a stack never plans deleting what it leaves out, through the real CLI against the
// real service behind a recording proxy: a file of examples/basic given alone is refused by plan, apply (with
// --destroy and --allow-deletes too) and drift, with the files left out named and no request sent, and the live
// state is untouched; the whole directory (or every file of it) still plans; a root with more than ten manifests
// lists ten and a count; a command without PATH runs on the current directory.
import { mkdirSync, realpathSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestService, type TestService } from '../helpers/service.ts';
import { startProxy, type RoundRobinProxy as RecordingProxy } from '../support/round-robin-proxy.ts';
import { copyExample, edgeops, output, type RunResult } from './run.ts';

let svc: TestService;
let proxy: RecordingProxy;
const example = copyExample('basic');
const base = join(example.dir, '..');

const run = (args: string[], cwd = base): Promise<RunResult> =>
  edgeops(args, { cwd, env: { EDGEOPS_API_URL: proxy.url, EDGEOPS_API_KEY: svc.apiKey } });

const NO_CHANGES = 'No changes. Live state matches the manifests.\n';

/** The refusal of a run on basic/backends.yaml alone, worded for the command that refused it. */
const BASIC_REFUSALS: Record<string, [string, string]> = {
  plan: [
    'refusing to plan part of a stack: a plan deletes each resource of the stack that no document given states, so this one would delete the resources of the manifests left out.',
    'Plan the whole stack: edgeops plan basic',
  ],
  drift: [
    'refusing to check part of a stack for drift: drift reports each resource of the stack that no document given states, so this one would report the resources of the manifests left out.',
    'Check the whole stack: edgeops drift basic',
  ],
  list: [
    'refusing to list part of a stack: list marks each resource of the stack that no document given states as not in the manifests, so this one would mark the resources of the manifests left out.',
    'List the whole stack: edgeops list basic',
  ],
  graph: [
    'refusing to plan part of a stack: a plan deletes each resource of the stack that no document given states, so this one would delete the resources of the manifests left out.',
    'Plan the whole stack: edgeops graph --plan basic',
  ],
};
const basicRefusal = (command: string): string => {
  const [refusal, instead] = BASIC_REFUSALS[command === 'apply' ? 'plan' : command]!;
  return [
    `edgeops: ${refusal}`,
    '  basic/backends.yaml is inside the stack root basic (basic/edgeops.yaml), which also holds these 2 manifests:',
    '    basic/edges.yaml',
    '    basic/ip-policy.yaml',
    instead,
    'To delete resources of a stack, remove their documents and plan the whole stack.',
    '',
  ].join('\n');
};

beforeAll(async () => {
  svc = await startTestService();
  proxy = await startProxy(svc.url);
  const applied = await run(['apply', 'basic', '--auto-approve']);
  expect(applied.code, output(applied)).toBe(0);
  expect(applied.stdout).toContain('Apply complete: 8 created, 0 updated, 0 replaced, 0 deleted.');
});
afterAll(async () => {
  await proxy.close();
  await svc.close();
  example.dispose();
});

describe('a file of a stack given alone', () => {
  it.each([
    ['apply', ['--auto-approve']],
    ['apply', ['--auto-approve', '--allow-deletes']],
    ['apply', ['--auto-approve', '--destroy']],
    ['plan', []],
    ['plan', ['--destroy']],
    ['plan', ['--against', 'snapshot.json']],
    ['drift', []],
    ['list', []],
    ['graph', ['--plan']],
  ])('%s %j is refused naming the files left out and the command for the whole stack, with no request sent', async (command, flags) => {
    proxy.requests.length = 0;
    const r = await run([command, 'basic/backends.yaml', ...flags]);
    expect(r.code).toBe(1);
    expect(r.stdout).toBe('');
    expect(r.stderr).toBe(basicRefusal(command));
    expect(proxy.requests).toEqual([]);
  });

  it('leaves the live state as it was: the whole directory still plans no changes', async () => {
    const whole = await run(['plan', 'basic', '--detailed-exitcode']);
    expect(whole.code, output(whole)).toBe(0);
    expect(whole.stdout).toBe(NO_CHANGES);
    const drift = await run(['drift', 'basic']);
    expect(drift.code, output(drift)).toBe(0);
  });

  it('is accepted with the rest of its stack, as files or with the directory', async () => {
    for (const paths of [['basic/backends.yaml', 'basic/edges.yaml', 'basic/ip-policy.yaml'], ['basic/backends.yaml', 'basic']]) {
      const r = await run(['plan', ...paths]);
      expect(r.code, output(r)).toBe(0);
      expect(r.stdout).toBe(NO_CHANGES);
    }
  });

  it('is still checked alone by validate, which plans nothing', async () => {
    const r = await run(['validate', 'basic/backends.yaml']);
    expect(r.code, output(r)).toBe(0);
    expect(r.stdout).toBe('2 resources valid\n');
  });

  it('names each part with the edgeops.yaml naming it too, and a subdirectory of a root counts as part', async () => {
    mkdirSync(join(base, 'split/sub'), { recursive: true });
    writeFileSync(join(base, 'split/edgeops.yaml'), 'stack: split\n');
    writeFileSync(join(base, 'split/top.yaml'), 'kind: IPPolicy\nname: top\n');
    writeFileSync(join(base, 'split/sub/below.yaml'), 'kind: IPPolicy\nname: below\n');
    proxy.requests.length = 0;
    const r = await run(['plan', 'split/sub', 'split/edgeops.yaml']);
    expect(r.code).toBe(1);
    expect(r.stderr).toContain('  split/sub, split/edgeops.yaml are inside the stack root split (split/edgeops.yaml), which also holds this manifest:\n    split/top.yaml\nPlan the whole stack: edgeops plan split\n');
    expect(proxy.requests).toEqual([]);
  });
});

describe('a stack root with more than ten manifests', () => {
  it('lists ten of those left out and counts the others', async () => {
    const big = join(base, 'big');
    mkdirSync(big);
    writeFileSync(join(big, 'edgeops.yaml'), 'stack: big\n');
    for (let i = 1; i <= 14; i++) writeFileSync(join(big, `p${String(i).padStart(2, '0')}.yaml`), `kind: IPPolicy\nname: p${i}\n`);
    proxy.requests.length = 0;
    const r = await run(['apply', 'big/p01.yaml', 'big/p02.yaml', '--auto-approve']);
    expect(r.code).toBe(1);
    expect(r.stderr).toBe([
      'edgeops: refusing to plan part of a stack: a plan deletes each resource of the stack that no document given states, so this one would delete the resources of the manifests left out.',
      '  big/p01.yaml, big/p02.yaml are inside the stack root big (big/edgeops.yaml), which also holds these 12 manifests:',
      ...Array.from({ length: 10 }, (_, i) => `    big/p${String(i + 3).padStart(2, '0')}.yaml`),
      '    and 2 more',
      'Plan the whole stack: edgeops plan big',
      'To delete resources of a stack, remove their documents and plan the whole stack.',
      '',
    ].join('\n'));
    expect(proxy.requests).toEqual([]);
  });
});

describe('without a PATH', () => {
  it('validate, plan, drift and apply run on the current directory', async () => {
    const cwd = example.dir;
    const validate = await run(['validate'], cwd);
    expect(validate.stdout).toBe('8 resources valid\n');
    const plan = await run(['plan', '--detailed-exitcode'], cwd);
    expect(plan.code, output(plan)).toBe(0);
    expect(plan.stdout).toBe(NO_CHANGES);
    const drift = await run(['drift'], cwd);
    expect(drift.code, output(drift)).toBe(0);
    const apply = await run(['apply', '--auto-approve'], cwd);
    expect(apply.code, output(apply)).toBe(0);
    expect(apply.stdout).toBe(NO_CHANGES);
  });

  it('from a directory inside a stack root is part of the stack, and refused', async () => {
    const cwd = join(base, 'split/sub');
    proxy.requests.length = 0;
    const r = await run(['plan'], cwd);
    expect(r.code).toBe(1);
    // Above the current directory, files are named by their absolute path.
    const root = join(realpathSync(base), 'split');
    expect(r.stderr).toContain(`  . is inside the stack root ${root} (${root}/edgeops.yaml), which also holds this manifest:\n    ${root}/top.yaml\nPlan the whole stack: edgeops plan ${root}\n`);
    expect(proxy.requests).toEqual([]);
  });
});
