// What a path that yields nothing reads like, word for word, through the real CLI: a directory holding only an
// edgeops.yaml is not called empty, and a path that does not exist is a usage error naming it and the directory
// the run started in, not a problem in the manifests, and sends no request (a recording server counts them).
import { mkdirSync, mkdtempSync, realpathSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startProxy, type RoundRobinProxy as RecordingProxy } from '../support/round-robin-proxy.ts';
import { edgeops, type RunResult } from './run.ts';

let service: RecordingProxy;
const base = realpathSync(mkdtempSync(join(tmpdir(), 'edgeops-path-messages-')));

const run = (args: string[]): Promise<RunResult> =>
  edgeops(args, { cwd: base, env: { EDGEOPS_API_URL: service.url, EDGEOPS_API_KEY: 'key-of-a-service-never-reached' } });

const COMMANDS = [['validate'], ['plan'], ['apply', '--auto-approve'], ['drift']];

beforeAll(async () => {
  service = await startProxy();
  mkdirSync(join(base, 'newdir'));
  writeFileSync(join(base, 'newdir/edgeops.yaml'), 'stack: fresh\n');
  mkdirSync(join(base, 'infra'));
  writeFileSync(join(base, 'infra/edgeops.yaml'), 'stack: infra\n');
  writeFileSync(join(base, 'infra/p.yaml'), 'kind: IPPolicy\nname: p\n');
});
afterAll(async () => {
  await service.close();
  rmSync(base, { recursive: true, force: true });
});

describe('a directory holding only an edgeops.yaml', () => {
  it.each(COMMANDS)('%s says it has no manifest besides the settings file', async (command, ...flags) => {
    const r = await run([command!, 'newdir', ...flags]);
    expect(r.code).toBe(1);
    expect(r.stdout).toBe('');
    expect(r.stderr).toBe([
      'edgeops: no manifests: this path yields no document, so there is nothing to plan from:',
      '  newdir: no manifest besides the settings file newdir/edgeops.yaml',
      'Pass the directories or files that hold the manifests. To delete every resource of the stack on purpose, plan or apply a path without documents with --destroy.',
      '',
    ].join('\n'));
  });
});

describe('a path that does not exist', () => {
  it.each(COMMANDS)('%s is a usage error naming it and the directory the run started in', async (command, ...flags) => {
    service.requests.length = 0;
    const r = await run([command!, 'infra/prod', ...flags]);
    expect(r.code).toBe(1);
    expect(r.stdout).toBe('');
    expect(r.stderr).toBe(`edgeops: path not found: infra/prod (run from ${base})\n`);
    expect(service.requests).toEqual([]);
  });

  it('is named with every other path that does not exist, before any problem of the paths that do', async () => {
    writeFileSync(join(base, 'broken.yaml'), 'kind: [\n');
    const r = await run(['plan', 'infra', 'infra/edgeops.yaml/x', 'broken.yaml', 'nowhere/']);
    expect(r.code).toBe(1);
    expect(r.stderr).toBe(`edgeops: paths not found: infra/edgeops.yaml/x, nowhere/ (run from ${base})\n`);
    expect(service.requests).toEqual([]);
  });
});
