// plan, drift, validate and list over a repository of three stacks (a copy of examples/multi-stack), through the
// real CLI against the real service: a section per stack with changes, a summary table, the JSON of each stack
// unchanged inside one document, exit codes 0/1/2, a stack with a bad manifest failing alone with every line
// of its failure naming it, one saved plan per stack, and a retired stack planned for deletion.
import { execFileSync } from 'node:child_process';
import { existsSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { copyExample, edgeops, output, type RunResult } from '../cli/run.ts';
import { api as rawClient, startTestService, type TestService } from '../helpers/service.ts';

let svc: TestService;
beforeAll(async () => {
  svc = await startTestService();
});
afterAll(async () => {
  await svc?.close();
});

/** A fresh copy of the example, and the CLI run in it against the test service. */
function repository(): { dir: string; run(args: string[], env?: Record<string, string>): Promise<RunResult>; dispose(): void } {
  const example = copyExample('multi-stack');
  return {
    dir: example.dir,
    run: (args, env = {}) => edgeops(args, { cwd: example.dir, env: { EDGEOPS_API_URL: svc.url, EDGEOPS_API_KEY: svc.apiKey, ...env } }),
    dispose: example.dispose,
  };
}

/** The stacks of the example get a stack name of their own per test, so tests on one service never meet. */
function renameStacks(dir: string, suffix: string): void {
  for (const root of ['edge/staging', 'edge/prod', 'partners']) {
    const file = join(dir, root, 'edgeops.yaml');
    writeFileSync(file, readFileSync(file, 'utf8').replace(/^stack: (\S+)$/m, `stack: $1-${suffix}`));
  }
}

/** Each stack's hostports moved, so copies of the example in several tests can be applied to one service. */
function moveHostports(dir: string, offset: number): void {
  for (const file of ['edge/staging/edges.yaml', 'edge/prod/edges.yaml', 'partners/partners.yaml']) {
    const path = join(dir, file);
    writeFileSync(path, readFileSync(path, 'utf8').replace(/:(\d+)"/g, (_, port: string) => `:${Number(port) + offset}"`));
  }
}

const tableRow = (stdout: string, stack: string): string[] | undefined =>
  stdout.split('\n').find((line) => line.startsWith(`${stack} `))?.trim().split(/\s+/);

describe('plan over several stacks', () => {
  it('plans each stack on its own: sections, a summary table, and --detailed-exitcode 2', async () => {
    const repo = repository();
    try {
      renameStacks(repo.dir, 'a');
      const r = await repo.run(['plan', '--detailed-exitcode']);
      expect(r.code, output(r)).toBe(2);
      expect(r.stderr).toBe('');
      const headings = r.stdout.split('\n').filter((line) => line.startsWith('Stack '));
      expect(headings).toEqual(['Stack edge-prod-a (edge/prod)', 'Stack edge-staging-a (edge/staging)', 'Stack partners-a (partners)']);
      expect(r.stdout).toContain('edgeops will perform these actions on stack "edge-prod-a":');
      expect(r.stdout).toContain('Summary: 3 stacks, 3 with changes\nSTACK           DIRECTORY     CREATE  UPDATE  REPLACE  DELETE  CHECKSUM\n');
      expect(tableRow(r.stdout, 'edge-staging-a')).toEqual(['edge-staging-a', 'edge/staging', '4', '0', '0', '0', expect.stringMatching(/^sha256:[0-9a-f]{64}$/)]);
      // Each checksum is the one a plan of that stack alone prints.
      const alone = await repo.run(['plan', 'edge/staging']);
      expect(alone.stdout).toContain(`Checksum: ${tableRow(r.stdout, 'edge-staging-a')![6]}`);
    } finally {
      repo.dispose();
    }
  });

  it('prints one JSON document holding each stack\'s JSON plan unchanged', async () => {
    const repo = repository();
    try {
      renameStacks(repo.dir, 'b');
      const r = await repo.run(['plan', '.', '--format', 'json']);
      expect(r.code, output(r)).toBe(0);
      const json = JSON.parse(r.stdout) as { format_version: number; stacks: Array<Record<string, unknown>> };
      expect(json.format_version).toBe(2);
      expect(json.stacks.map((s) => [s.stack, s.dir, s.environment])).toEqual([
        ['edge-prod-b', 'edge/prod', 'production'], ['edge-staging-b', 'edge/staging', 'staging'], ['partners-b', 'partners', 'production'],
      ]);
      expect(Object.keys(json.stacks[0]!)).toEqual(['stack', 'dir', 'environment', 'checksum', 'plan']);
      const alone = JSON.parse((await repo.run(['plan', 'partners', '--format', 'json'])).stdout) as Record<string, unknown>;
      expect(json.stacks[2]!.plan).toEqual(alone);
      expect(json.stacks[2]!.checksum).toBe(alone.checksum);
    } finally {
      repo.dispose();
    }
  });

  it('fails a stack with a bad manifest alone: the others are planned, every line of its failure names it, exit 1', async () => {
    const repo = repository();
    try {
      renameStacks(repo.dir, 'c');
      writeFileSync(join(repo.dir, 'partners', 'broken.yaml'), 'kind: IPPolicy\nname: Not A Name\n');
      for (const format of ['text', 'markdown']) {
        const r = await repo.run(['plan', '--detailed-exitcode', '--format', format, '--parallel', '3']);
        expect(r.code, output(r)).toBe(1);
        const errors = r.stderr.split('\n').filter((line) => line !== '');
        expect(errors.length).toBeGreaterThan(1);
        for (const line of errors) expect(line).toMatch(/^\[partners-c\] /);
        expect(r.stderr).toContain('[partners-c] partners/broken.yaml:2:7: IPPolicy/Not A Name: name "Not A Name" must be lower-case');
        expect(r.stderr).toContain('[partners-c] edgeops: 1 problem in the manifests\n');
        expect(r.stdout).toContain(format === 'markdown' ? '## Stack `edge-prod-c` (`edge/prod`)' : 'Stack edge-prod-c (edge/prod)');
      }
      const text = await repo.run(['plan']);
      expect(tableRow(text.stdout, 'partners-c')).toEqual(['partners-c', 'partners', '-', '-', '-', '-', 'failed']);
      expect(text.stdout).toContain('Summary: 3 stacks, 2 with changes, 1 failed or skipped');
      const json = JSON.parse((await repo.run(['plan', '--format', 'json'])).stdout) as { stacks: Array<Record<string, unknown>> };
      expect(json.stacks[2]).toMatchObject({ stack: 'partners-c', checksum: null, plan: null, error: { code: 'E_MANIFEST' } });
    } finally {
      repo.dispose();
    }
  });

  it('shows a stack without changes as its row alone, saves a plan per stack with --out, and plans a retired stack\'s deletion', async () => {
    const repo = repository();
    try {
      renameStacks(repo.dir, 'd');
      moveHostports(repo.dir, 100);
      const applied = await repo.run(['apply', 'edge/staging', '--auto-approve']);
      expect(applied.code, output(applied)).toBe(0);
      const r = await repo.run(['plan', '--out', 'plans', '--detailed-exitcode']);
      expect(r.code, output(r)).toBe(2);
      expect(r.stdout).not.toContain('Stack edge-staging-d (edge/staging)');
      expect(tableRow(r.stdout, 'edge-staging-d')!.slice(0, 6)).toEqual(['edge-staging-d', 'edge/staging', '0', '0', '0', '0']);
      for (const stack of ['edge-prod-d', 'edge-staging-d', 'partners-d']) expect(existsSync(join(repo.dir, 'plans', `${stack}.json`)), stack).toBe(true);
      expect(r.stdout).toContain(`Saved the plan to ${join('plans', 'edge-prod-d.json')}`);

      writeFileSync(join(repo.dir, 'edge/staging/edgeops.yaml'), 'stack: edge-staging-d\nenvironment: staging\nretire: true\n');
      const retired = await repo.run(['plan', 'edge/staging', 'partners']);
      expect(retired.code, output(retired)).toBe(0);
      expect(tableRow(retired.stdout, 'edge-staging-d')!.slice(0, 6)).toEqual(['edge-staging-d', 'edge/staging', '0', '0', '0', '4']);
      expect(retired.stdout).toContain('edgeops.yaml says retire: true: this plan deletes every resource of stack "edge-staging-d".');
      // Delete limits apply: 4 deletes is over max_deletes 2.
      writeFileSync(join(repo.dir, 'edge/staging/edgeops.yaml'), 'stack: edge-staging-d\nretire: true\nmax_deletes: 2\n');
      const refused = await repo.run(['apply', 'edge/staging', '--auto-approve']);
      expect(refused.code).toBe(1);
      expect(refused.stderr).toContain('deletes 4 resources, more than max_deletes (2)');
      const retire = await repo.run(['apply', 'edge/staging', '--auto-approve', '--allow-deletes']);
      expect(retire.code, output(retire)).toBe(0);
      expect(retire.stdout).toContain('0 created, 0 updated, 0 replaced, 4 deleted');
    } finally {
      repo.dispose();
    }
  });

  it('refuses --stack, manifests outside every stack root, and two roots naming one stack', async () => {
    const repo = repository();
    try {
      const flag = await repo.run(['plan', '--stack', 'x']);
      expect(flag.code).toBe(1);
      expect(flag.stderr).toContain('edgeops: --stack names one stack, but the paths hold 3 stack roots (edge/prod, edge/staging, partners)');
      const env = await repo.run(['validate'], { EDGEOPS_STACK: 'x' });
      expect(env.stderr).toContain('edgeops: EDGEOPS_STACK names one stack');
      writeFileSync(join(repo.dir, 'stray.yaml'), 'kind: IPPolicy\nname: stray\n');
      const stray = await repo.run(['plan']);
      expect(stray.code).toBe(1);
      expect(stray.stderr).toContain('manifests that belong to none of them (no edgeops.yaml in or above their directory): stray.yaml');
      expect(stray.stdout).toBe('');
      writeFileSync(join(repo.dir, 'stray.yaml'), '');
      writeFileSync(join(repo.dir, 'partners', 'edgeops.yaml'), 'stack: edge-prod\n');
      const twice = await repo.run(['plan']);
      expect(twice.code).toBe(1);
      expect(twice.stderr).toContain('partners/edgeops.yaml:1:8: stack: "edge-prod" is also the stack of edge/prod/edgeops.yaml');
    } finally {
      repo.dispose();
    }
  });
});

describe('drift, validate and list over several stacks', () => {
  it('reports drift per stack: exit 0 in sync, 2 when one stack drifted, its section alone', async () => {
    const repo = repository();
    try {
      renameStacks(repo.dir, 'e');
      moveHostports(repo.dir, 200);
      for (const root of ['edge/staging', 'edge/prod', 'partners']) {
        const applied = await repo.run(['apply', root, '--auto-approve']);
        expect(applied.code, output(applied)).toBe(0);
      }
      const inSync = await repo.run(['drift']);
      expect(inSync.code, output(inSync)).toBe(0);
      expect(inSync.stdout).toMatch(/^Summary: 3 stacks, 0 drifted\nSTACK +DIRECTORY +DRIFTED +STATUS\n/);
      expect(tableRow(inSync.stdout, 'partners-e')).toEqual(['partners-e', 'partners', '0', 'in', 'sync']);

      const http = rawClient(svc);
      const policies = (await http.listAll('/ip_policies', 'ip_policies')) as Array<{ id: string; description: string }>;
      const target = policies.find((p) => p.description === 'partner networks')!;
      const edited = await http.patch(`/ip_policies/${target.id}`, { description: 'edited by hand' });
      expect(edited.status, edited.text).toBe(200);
      const drifted = await repo.run(['drift']);
      expect(drifted.code, output(drifted)).toBe(2);
      expect(drifted.stdout.split('\n').filter((l) => l.startsWith('Stack '))).toEqual(['Stack partners-e (partners)']);
      expect(tableRow(drifted.stdout, 'partners-e')).toEqual(['partners-e', 'partners', '1', 'drifted']);
      const json = JSON.parse((await repo.run(['drift', '--format', 'json'])).stdout) as { format_version: number; stacks: Array<{ stack: string; drift: { in_sync: boolean } }> };
      expect(json.format_version).toBe(1);
      expect(json.stacks.map((s) => [s.stack, s.drift.in_sync])).toEqual([['edge-prod-e', true], ['edge-staging-e', true], ['partners-e', false]]);

      const validate = await repo.run(['validate']);
      expect(validate.stdout).toBe('edge-prod-e (edge/prod): 4 resources valid\nedge-staging-e (edge/staging): 4 resources valid\npartners-e (partners): 4 resources valid\n');
      const list = await repo.run(['list', '--format', 'json']);
      expect(list.code, output(list)).toBe(0);
      const listed = JSON.parse(list.stdout) as { stacks: Array<{ stack: string; list: { resources: unknown[] } }> };
      expect(listed.stacks.map((s) => [s.stack, s.list.resources.length])).toEqual([['edge-prod-e', 4], ['edge-staging-e', 4], ['partners-e', 4]]);
    } finally {
      repo.dispose();
    }
  });

  it('plans only the stacks changed since a ref, and counts the live resources a removed stack root leaves unmanaged', async () => {
    const repo = repository();
    const git = (...args: string[]): string => execFileSync('git', ['-c', 'user.name=t', '-c', 'user.email=t@example.com', ...args], { cwd: repo.dir, encoding: 'utf8' });
    try {
      renameStacks(repo.dir, 'f');
      moveHostports(repo.dir, 300);
      const applied = await repo.run(['apply', 'partners', '--auto-approve']);
      expect(applied.code, output(applied)).toBe(0);
      git('init', '-q', '-b', 'main');
      git('add', '.');
      git('commit', '-q', '-m', 'three stacks');
      git('checkout', '-q', '-b', 'change');
      const none = await repo.run(['plan', '--changed-since', 'main', '--detailed-exitcode']);
      expect(none.code, output(none)).toBe(0);
      expect(none.stdout).toMatch(/^edge-staging-f +edge\/staging +- +- +- +- +unchanged since main$/m);

      writeFileSync(join(repo.dir, 'edge/staging/ip-policy.yaml'), readFileSync(join(repo.dir, 'edge/staging/ip-policy.yaml'), 'utf8').replace('office networks (staging)', 'offices'));
      rmSync(join(repo.dir, 'partners'), { recursive: true });
      git('commit', '-qam', 'staging policy renamed, partners gone');
      const r = await repo.run(['plan', '--changed-since', 'main', '--detailed-exitcode']);
      expect(r.code, output(r)).toBe(2);
      expect(r.stdout.split('\n').filter((l) => l.startsWith('Stack '))).toEqual(['Stack edge-staging-f (edge/staging)']);
      expect(tableRow(r.stdout, 'edge-staging-f')!.slice(0, 6)).toEqual(['edge-staging-f', 'edge/staging', '4', '0', '0', '0']);
      expect(r.stdout).toMatch(/^edge-prod-f +edge\/prod +- +- +- +- +unchanged since main$/m);
      expect(r.stdout).toMatch(/^partners-f +partners +- +- +- +- +removed$/m);
      expect(r.stdout).toContain('Warning: stack partners-f was removed from the repository; its 4 live resources stay unmanaged (partners/edgeops.yaml is gone;');
      const json = JSON.parse((await repo.run(['plan', '--changed-since', 'main', '--format', 'json'])).stdout) as { stacks: Array<Record<string, unknown>> };
      expect(json.stacks.map((s) => [s.dir, s.plan === null, s.changed ?? null, s.removed ?? null, s.live_resources ?? null])).toEqual([
        ['edge/prod', true, false, null, null], ['edge/staging', false, null, null, null], ['partners', true, null, true, 4],
      ]);
    } finally {
      repo.dispose();
    }
  });
});
