// `plan --changed-since` in a repository of two stacks whose change deletes one stack root: the one left is
// planned under its own stack (it is a stack root below the path, not the path's own stack), and the removed one
// is reported with the live resources it leaves unmanaged, counted on the real service; nothing of it is deleted.
import { execFileSync } from 'node:child_process';
import { mkdirSync, rmSync, writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { edgeops, output } from '../cli/run.ts';
import { startTestService, type TestService } from '../helpers/service.ts';
import { fileTempDir } from '../helpers/temp-dirs.ts';

let svc: TestService;
beforeAll(async () => {
  svc = await startTestService();
});
afterAll(async () => {
  await svc?.close();
});

const policy = (name: string): string => `kind: IPPolicy\nname: ${name}\ndescription: ${name} networks\n`;

describe('plan --changed-since over two stacks, one removed', () => {
  it('plans the stack left under its own name and warns about the removed one', async () => {
    const dir = fileTempDir('edgeops-two-stacks-');
    const write = (path: string, text: string): void => {
      mkdirSync(dirname(join(dir, path)), { recursive: true });
      writeFileSync(join(dir, path), text);
    };
    const git = (...args: string[]): string => execFileSync('git', ['-c', 'user.name=t', '-c', 'user.email=t@example.com', '-c', 'commit.gpgsign=false', ...args], { cwd: dir, encoding: 'utf8' });
    const run = (args: string[]) => edgeops(args, { cwd: dir, env: { EDGEOPS_API_URL: svc.url, EDGEOPS_API_KEY: svc.apiKey } });
    write('infra/web/edgeops.yaml', 'stack: two-web\n');
    write('infra/web/policy.yaml', policy('office'));
    write('infra/mail/edgeops.yaml', 'stack: two-mail\n');
    write('infra/mail/policy.yaml', `${policy('mail')}---\n${policy('relay')}`);
    for (const root of ['infra/web', 'infra/mail']) {
      const applied = await run(['apply', root, '--auto-approve']);
      expect(applied.code, output(applied)).toBe(0);
    }
    git('init', '-q', '-b', 'main');
    git('add', '.');
    git('commit', '-q', '-m', 'two stacks');
    git('checkout', '-q', '-b', 'change');
    write('infra/web/policy.yaml', `${policy('office')}---\n${policy('lab')}`);
    rmSync(join(dir, 'infra/mail'), { recursive: true });
    git('add', '-A');
    git('commit', '-q', '-m', 'web gains lab, mail goes');

    const r = await run(['plan', 'infra', '--changed-since', 'main', '--detailed-exitcode']);
    expect(r.code, output(r)).toBe(2);
    expect(r.stdout).toContain('Stack two-web (infra/web)');
    expect(r.stdout).toMatch(/^two-mail +infra\/mail +- +- +- +- +removed$/m);
    expect(r.stdout).toContain('Warning: stack two-mail was removed from the repository; its 2 live resources stay unmanaged (infra/mail/edgeops.yaml is gone;');
    const json = JSON.parse((await run(['plan', 'infra', '--changed-since', 'main', '--format', 'json'])).stdout) as { stacks: Array<Record<string, unknown>> };
    expect(json.stacks.map((s) => [s.stack, s.dir, s.removed ?? false, s.live_resources ?? null])).toEqual([['two-mail', 'infra/mail', true, 2], ['two-web', 'infra/web', false, null]]);
    expect((json.stacks[1]!.plan as { stack: string }).stack).toBe('two-web');

    // Without a ref, the one stack root left below the path is still planned as its own stack, never "default".
    const plain = await run(['plan', 'infra', '--format', 'json']);
    expect(plain.code, output(plain)).toBe(0);
    const planned = JSON.parse(plain.stdout) as { stacks: Array<{ stack: string; plan: { stack: string; summary: { create: number } } }> };
    expect(planned.stacks.map((s) => [s.stack, s.plan.stack, s.plan.summary.create])).toEqual([['two-web', 'two-web', 1]]);
  });
});
