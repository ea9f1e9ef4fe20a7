// bin/edgeops.js runs the built JavaScript, which reads no tsconfig.json: one in the current directory (the
// user's repository, or a pull request's) cannot redirect edgeops' imports to its code, as it could under tsx.
import { spawnSync } from 'node:child_process';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { afterEach, describe, expect, it } from 'vitest';
import { hostileWorkspace, type HostileWorkspace } from './hostile-tsconfig.ts';
import { edgeops, ROOT } from './run.ts';

let ws: HostileWorkspace | undefined;
afterEach(() => {
  ws?.dispose();
  ws = undefined;
});

describe("the current directory's tsconfig.json", () => {
  it('would redirect an import under tsx left to its defaults (the trap works)', () => {
    ws = hostileWorkspace();
    const api = pathToFileURL(join(ROOT, 'node_modules/tsx/dist/esm/api/index.mjs')).href;
    const text = pathToFileURL(join(ROOT, 'src/render/text.ts')).href;
    const r = spawnSync(process.execPath, ['--input-type=module', '-e', `const { register } = await import(${JSON.stringify(api)}); register(); await import(${JSON.stringify(text)});`], { cwd: ws.dir, encoding: 'utf8' });
    expect(r.status, r.stderr).toBe(0);
    expect(ws.hijacked()).toBe(true);
  });

  it('does not reach edgeops: validate, plan and --help run edgeops\' own imports', async () => {
    ws = hostileWorkspace();
    const validate = await edgeops(['validate', 'infra'], { cwd: ws.dir, env: { EDGEOPS_API_KEY: 'k-secret-1234' } });
    expect(validate.code, validate.stderr).toBe(0);
    expect(validate.stdout).toBe('1 resource valid\n');
    const help = await edgeops(['plan', '--help'], { cwd: ws.dir });
    expect(help.code).toBe(0);
    // Reaching the network stage imports undici too (the service is unreachable: an error, not a hijack).
    const plan = await edgeops(['plan', 'infra', '--api-url', 'http://127.0.0.1:9', '--api-key', 'k-secret-1234', '--retry-budget', '0'], { cwd: ws.dir });
    expect(plan.code).toBe(1);
    expect(plan.stderr).not.toContain('hijacked');
    expect(ws.hijacked()).toBe(false);
  });

  it('is not read even when TSX_TSCONFIG_PATH names it', async () => {
    ws = hostileWorkspace();
    const r = await edgeops(['validate', 'infra'], { cwd: ws.dir, env: { TSX_TSCONFIG_PATH: join(ws.dir, 'tsconfig.json') } });
    expect(r.code, r.stderr).toBe(0);
    expect(ws.hijacked()).toBe(false);
  });
});
