// Option resolution as a user sees it: flag > environment > edgeops.yaml > default, and the errors for
// missing or bad values. The service is the real one (startTestService).
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { resolveSettings } from '../../src/cli/settings.ts';
import { startTestService, type TestService } from '../helpers/service.ts';
import { edgeops } from './run.ts';

let svc: TestService;
const dir = mkdtempSync(join(tmpdir(), 'edgeops-options-'));
const manifests = join(dir, 'm');

beforeAll(async () => {
  svc = await startTestService();
  mkdirSync(manifests);
  writeFileSync(join(manifests, 'policy.yaml'), 'kind: IPPolicy\nname: office\ndescription: office networks\n');
});
afterAll(async () => {
  await svc.close();
  rmSync(dir, { recursive: true, force: true });
});

const writeProject = (text: string) => writeFileSync(join(manifests, 'edgeops.yaml'), text);

describe('options', () => {
  it('names the flag and the variable when the service URL or key is missing', async () => {
    writeProject('stack: s1\n');
    const noUrl = await edgeops(['plan', manifests]);
    expect(noUrl.code).toBe(1);
    expect(noUrl.stderr).toContain('--api-url');
    expect(noUrl.stderr).toContain('EDGEOPS_API_URL');
    const noKey = await edgeops(['plan', manifests, '--api-url', svc.url]);
    expect(noKey.code).toBe(1);
    expect(noKey.stderr).toContain('--api-key');
    expect(noKey.stderr).toContain('EDGEOPS_API_KEY');
  });

  it('takes the URL and key from flags, or from the environment', async () => {
    writeProject('stack: s1\n');
    const flags = await edgeops(['plan', manifests, '--api-url', svc.url, '--api-key', svc.apiKey]);
    expect(flags.stderr).toBe('');
    expect(flags.code).toBe(0);
    expect(flags.stdout).toContain('+ IPPolicy/office');
    const env = await edgeops(['plan', manifests], { env: { EDGEOPS_API_URL: svc.url, EDGEOPS_API_KEY: svc.apiKey } });
    expect(env.code).toBe(0);
    expect(env.stdout).toBe(flags.stdout);
  });

  it('resolves the stack flag > EDGEOPS_STACK > edgeops.yaml > "default"', async () => {
    const env = { EDGEOPS_API_URL: svc.url, EDGEOPS_API_KEY: svc.apiKey };
    const stackOf = async (args: string[], extra: Record<string, string> = {}) => {
      const r = await edgeops(['plan', manifests, '--format', 'json', ...args], { env: { ...env, ...extra } });
      expect(r.stderr).toBe('');
      return JSON.parse(r.stdout).stack as string;
    };
    writeProject('stack: from-file\n');
    expect(await stackOf([])).toBe('from-file');
    expect(await stackOf([], { EDGEOPS_STACK: 'from-env' })).toBe('from-env');
    expect(await stackOf(['--stack', 'from-flag'], { EDGEOPS_STACK: 'from-env' })).toBe('from-flag');
    writeProject('concurrency: 2\n');
    expect(await stackOf([])).toBe('default');
  });

  it('rejects a bad stack, concurrency or URL, naming where it came from', async () => {
    writeProject('stack: s1\n');
    const env = { EDGEOPS_API_URL: svc.url, EDGEOPS_API_KEY: svc.apiKey };
    const flag = await edgeops(['plan', manifests, '--concurrency', '0'], { env });
    expect(flag.code).toBe(1);
    expect(flag.stderr).toContain('--concurrency: concurrency must be an integer from 1 to 256');
    const fromEnv = await edgeops(['plan', manifests], { env: { ...env, EDGEOPS_CONCURRENCY: 'many' } });
    expect(fromEnv.code).toBe(1);
    expect(fromEnv.stderr).toContain('EDGEOPS_CONCURRENCY: concurrency must be an integer');
    const stack = await edgeops(['plan', manifests], { env: { ...env, EDGEOPS_STACK: 'Bad_Stack' } });
    expect(stack.code).toBe(1);
    expect(stack.stderr).toContain('EDGEOPS_STACK: stack must be lower-case letters, digits and "-"');
    const url = await edgeops(['plan', manifests, '--api-url', 'ftp://example.com', '--api-key', 'k']);
    expect(url.code).toBe(1);
    expect(url.stderr).toContain('--api-url: the API URL must be http or https');
  });

  it('resolves the retry budget --retry-budget > EDGEOPS_RETRY_BUDGET > edgeops.yaml retry_budget > 60 s, and refuses bad ones', async () => {
    const budget = (flag: string | undefined, env: NodeJS.ProcessEnv, fileValue?: number) =>
      resolveSettings({ color: false, retryBudget: flag }, env, { retry_budget: fileValue, file: 'edgeops.yaml' }, false).retryBudgetMs;
    expect(budget('5', { EDGEOPS_RETRY_BUDGET: '7' }, 9)).toBe(5000);
    expect(budget(undefined, { EDGEOPS_RETRY_BUDGET: '7' }, 9)).toBe(7000);
    expect(budget(undefined, {}, 9)).toBe(9000);
    expect(budget(undefined, {}, undefined)).toBe(60_000);
    expect(budget('0', {}, undefined)).toBe(0);
    expect(() => budget('soon', {}, undefined)).toThrow('--retry-budget: retry budget (seconds) must be an integer from 0 to 3600, got "soon"');
    expect(() => budget(undefined, { EDGEOPS_RETRY_BUDGET: '-1' }, undefined)).toThrow(/^EDGEOPS_RETRY_BUDGET: retry budget/);
    writeProject('retry_budget: -5\n');
    const file = await edgeops(['plan', manifests], { env: { EDGEOPS_API_URL: svc.url, EDGEOPS_API_KEY: svc.apiKey } });
    expect(file.code).toBe(1);
    expect(file.stderr).toMatch(/edgeops\.yaml:1:\d+: retry_budget/);
    writeProject('stack: s1\n');
  });

  it('rejects --local together with --api-url', async () => {
    const r = await edgeops(['plan', manifests, '--local', '--api-url', svc.url]);
    expect(r.code).toBe(1);
    expect(r.stderr).toContain('--local');
  });

  it('reports an unreachable service as an error, exit 1', async () => {
    writeProject('stack: s1\n');
    const r = await edgeops(['plan', manifests, '--api-url', 'http://127.0.0.1:9', '--api-key', 'k', '--retry-budget', '0']);
    expect(r.code).toBe(1);
    expect(r.stderr).toMatch(/^edgeops: /);
    expect(r.stderr).not.toContain('internal error');
  });

  it('resolves adopt --adopt/--no-adopt > EDGEOPS_ADOPT > edgeops.yaml adopt > false, for plan and drift', async () => {
    // An unmanaged policy the document matches by its description: adopted, or planned as a copy.
    const made = await fetch(`${svc.url}/ip_policies`, {
      method: 'POST',
      headers: { authorization: `Bearer ${svc.apiKey}`, 'service-version': '2', 'content-type': 'application/json' },
      body: JSON.stringify({ description: 'office networks' }),
    });
    expect(made.status).toBe(201);
    const env = { EDGEOPS_API_URL: svc.url, EDGEOPS_API_KEY: svc.apiKey };
    const actionOf = async (args: string[], extra: Record<string, string> = {}) => {
      const r = await edgeops(['plan', manifests, '--format', 'json', ...args], { env: { ...env, ...extra } });
      expect(r.stderr).toBe('');
      const [resource] = JSON.parse(r.stdout).resources as { action: string; adopt?: string }[];
      return resource!.adopt ? `adopt (${resource!.adopt})` : resource!.action;
    };
    writeProject('stack: adopting\n');
    expect(await actionOf([])).toBe('create');
    expect(await actionOf([], { EDGEOPS_ADOPT: 'true' })).toBe('adopt (description "office networks")');
    writeProject('stack: adopting\nadopt: true\n');
    expect(await actionOf([])).toBe('adopt (description "office networks")');
    expect(await actionOf([], { EDGEOPS_ADOPT: 'false' })).toBe('create');
    expect(await actionOf(['--adopt'], { EDGEOPS_ADOPT: '0' })).toBe('adopt (description "office networks")');
    expect(await actionOf(['--no-adopt'])).toBe('create');

    const drift = await edgeops(['drift', manifests, '--format', 'json'], { env });
    expect(drift.code).toBe(2);
    expect(JSON.parse(drift.stdout).resources[0].findings.map((f: { direction: string }) => f.direction)).toEqual(['unmanaged']);
    const noAdopt = await edgeops(['drift', manifests, '--format', 'json', '--no-adopt'], { env });
    expect(JSON.parse(noAdopt.stdout).resources[0].findings.map((f: { direction: string }) => f.direction)).toEqual(['missing']);

    const bad = await edgeops(['plan', manifests], { env: { ...env, EDGEOPS_ADOPT: 'maybe' } });
    expect(bad.code).toBe(1);
    expect(bad.stderr).toContain('EDGEOPS_ADOPT: must be true or false, got "maybe"');
    writeProject('adopt: yes\n');
    const badFile = await edgeops(['plan', manifests], { env });
    expect(badFile.code).toBe(1);
    expect(badFile.stderr).toMatch(/edgeops\.yaml:1:\d+: adopt: must be true or false/);
  });
});
