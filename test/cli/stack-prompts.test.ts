// apply over several stacks at a terminal (a real pseudo-terminal, util-linux `script`): one confirmation per
// stack, each after that stack's plan, and for a stack whose edgeops.yaml says `protect: true` its name typed,
// not "yes". Answers are typed only once each prompt is on screen.
import { spawn } from 'node:child_process';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { ROOT, cleanEnv, copyExample } from './run.ts';

const example = copyExample('multi-stack');
afterAll(() => example.dispose());

const shellQuote = (s: string): string => `'${s.replace(/'/g, `'\\''`)}'`;
const plain = (text: string): string => text.replace(/\x1b\[[0-9;]*[A-Za-z]/g, '').replace(/\r/g, '');

/** Runs edgeops on a pseudo-terminal in the example, typing the next answer each time a prompt appears. */
function onTerminal(args: string[], answers: string[]): Promise<{ code: number | null; out: string }> {
  const command = [process.execPath, join(ROOT, 'bin/edgeops.js'), ...args].map(shellQuote).join(' ');
  const child = spawn('script', ['-qec', command, '/dev/null'], { cwd: example.dir, env: cleanEnv({ TERM: 'xterm', NO_COLOR: '1' }), stdio: 'pipe' });
  let out = '';
  let answered = 0;
  child.stdout.setEncoding('utf8').on('data', (d: string) => {
    out += d;
    const prompts = out.split('Enter a value:').length - 1;
    if (prompts > answered && answered < answers.length) child.stdin.write(`${answers[answered++]}\r`);
  });
  return new Promise((resolve) => child.on('close', (code) => {
    child.stdin.end();
    resolve({ code, out: plain(out) });
  }));
}

describe('apply of several stacks on a terminal', () => {
  it('asks once per stack after its plan, wants the name of a protected stack, and applies only what was approved', async () => {
    const r = await onTerminal(['apply', '--local'], ['yes', 'no', 'edge-prod']);
    expect(r.code).toBe(1);
    const staging = r.out.indexOf("Do you want to perform these actions on stack edge-staging? Only 'yes' will be accepted.");
    const partners = r.out.indexOf("Do you want to perform these actions on stack partners? Only 'yes' will be accepted.");
    const prod = r.out.indexOf("Stack edge-prod is protected. Do you want to perform these actions on it? Only its name, 'edge-prod', will be accepted.");
    expect([staging, partners, prod].every((i) => i > 0)).toBe(true);
    // Each question comes after its own plan, and staging's before prod's (prod runs after staging).
    expect(r.out.lastIndexOf('edgeops will perform these actions on stack "edge-staging"', staging)).toBeGreaterThan(-1);
    expect(r.out.indexOf('edgeops will perform these actions on stack "edge-prod"')).toBeGreaterThan(staging);
    expect(r.out).toContain('[partners] edgeops: Apply of stack partners cancelled: the answer was not "yes".');
    expect(r.out).toMatch(/^edge-staging +edge\/staging +applied \(4 actions\)$/m);
    expect(r.out).toMatch(/^partners +partners +failed$/m);
    expect(r.out).toMatch(/^edge-prod +edge\/prod +applied \(4 actions\)$/m);
  });
});
