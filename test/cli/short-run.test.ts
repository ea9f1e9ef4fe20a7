// A short command on Node 20 lets a function do eight times V8's default work before TurboFan optimizes it
// (src/cli/short-run.ts); `serve`, which runs for hours, and later Nodes keep their defaults. V8's own trace of
// each optimizing compile shows the effect: validating 1,000 documents compiled 35 functions with TurboFan
// before, a handful now (those of Node's start-up, compiled before the flag is set).
import { execFile } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { describe, expect, it, onTestFinished } from 'vitest';
import { tuneForShortRun } from '../../src/cli/short-run.ts';
import { cleanEnv, ROOT } from './run.ts';

const run = promisify(execFile);
const turbofanCompiles = (trace: string): number => trace.match(/^\[completed compiling .*\(target TURBOFAN\)/gm)?.length ?? 0;

describe('the V8 flags of a short run', () => {
  it('raise the interrupt budget eightfold and keep WebAssembly in the baseline tier on Node 20, for every command but serve', () => {
    const flags = (command: string | undefined, node: string): string[] => {
      const set: string[] = [];
      tuneForShortRun(command, node, (flag) => set.push(flag));
      return set;
    };
    for (const command of ['plan', 'apply', 'validate', 'drift', undefined]) expect(flags(command, '20.20.2')).toEqual(['--interrupt-budget=540672', '--liftoff-only']);
    expect(flags('serve', '20.20.2')).toEqual([]);
    for (const version of ['22.13.0', '24.21.0']) expect(flags('plan', version)).toEqual([]);
  });

  it.runIf(process.versions.node.startsWith('20.'))('keep TurboFan from compiling the code of a validate of 1,000 documents', async () => {
    // The trace is printed by this Node: a hot loop of its own is compiled by TurboFan.
    const control = await run(process.execPath, ['--trace-opt', '-e', 'let s = 0; const f = (x) => x * 2; for (let i = 0; i < 3e6; i++) s += f(i);']);
    expect(turbofanCompiles(control.stdout)).toBeGreaterThan(0);

    const dir = mkdtempSync(join(tmpdir(), 'edgeops-short-run-'));
    onTestFinished(() => rmSync(dir, { recursive: true, force: true }));
    const docs = Array.from({ length: 1000 }, (_, i) => `kind: IPPolicy\nname: p-${i}\ndescription: office ${i}\nmetadata: {team: net, n: "${i}"}\n`);
    writeFileSync(join(dir, 'policies.yaml'), docs.join('---\n'));
    const { stdout } = await run(process.execPath, ['--trace-opt', join(ROOT, 'bin/edgeops.js'), 'validate', dir], { cwd: dir, env: cleanEnv() });
    expect(stdout).toContain('1000 resources valid');
    expect(turbofanCompiles(stdout)).toBeLessThan(12);
  });
});
