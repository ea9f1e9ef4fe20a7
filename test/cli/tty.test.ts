// The terminal behaviour, through a real pseudo-terminal (util-linux `script`): the confirmation prompt,
// colour, and the live progress display. Answers are typed only once the prompt is on screen.
import { spawn } from 'node:child_process';
import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { ROOT, cleanEnv, copyExample, edgeops } from './run.ts';

const example = copyExample('basic');
afterAll(() => example.dispose());

function shellQuote(s: string): string {
  return `'${s.replace(/'/g, `'\\''`)}'`;
}

/** Runs edgeops on a pseudo-terminal; types `answer` when the prompt appears. */
function onTerminal(args: string[], answer?: string, env: Record<string, string> = {}): Promise<{ code: number | null; out: string }> {
  const command = [process.execPath, join(ROOT, 'bin/edgeops.js'), ...args].map(shellQuote).join(' ');
  const child = spawn('script', ['-qec', command, '/dev/null'], { cwd: ROOT, env: cleanEnv({ TERM: 'xterm', ...env }), stdio: 'pipe' });
  let out = '';
  let answered = false;
  child.stdout.setEncoding('utf8').on('data', (d: string) => {
    out += d;
    if (answer !== undefined && !answered && out.includes('Enter a value:')) {
      answered = true;
      // Ctrl-D (end of input) is typed as itself, any other answer as a line.
      child.stdin.write(answer === '\x04' ? answer : `${answer}\r`);
    }
  });
  return new Promise((resolve) => child.on('close', (code) => {
    child.stdin.end();
    resolve({ code, out });
  }));
}

const plain = (text: string) => text.replace(/\x1b\[[0-9;]*[A-Za-z]/g, '');

describe('on a terminal', () => {
  it('asks for confirmation and cancels on anything but "yes", changing nothing', async () => {
    const r = await onTerminal(['apply', example.dir, '--local'], 'no');
    expect(r.code).toBe(1);
    expect(r.out).toContain("Do you want to perform these actions? Only 'yes' will be accepted.");
    expect(r.out).toContain('Apply cancelled');
    const plan = await edgeops(['plan', example.dir, '--local', '--detailed-exitcode']);
    expect(plan.code).toBe(2);
  });

  it('Ctrl-D at the prompt declines: cancelled, exit 1, no internal error', async () => {
    const r = await onTerminal(['apply', example.dir, '--local', '--stack', 'ctrl-d'], '\x04');
    expect(r.code).toBe(1);
    expect(r.out).toContain('Apply cancelled: no answer (end of input).');
    expect(r.out).not.toContain('internal error');
    expect(r.out).not.toContain('Ctrl+D');
  });

  it('applies after "yes", in colour, with the live progress list', async () => {
    const r = await onTerminal(['apply', example.dir, '--local'], 'yes');
    expect(r.code).toBe(0);
    expect(r.out).toContain('\x1b[32m+\x1b[39m'); // a green "+" in the plan
    expect(r.out).toMatch(/creating TCPEdge\/ssh/); // a line of the live region
    expect(r.out).toMatch(/\x1b\[\d+F\x1b\[J/); // the region redrawn in place
    expect(plain(r.out)).toMatch(/✓ created TCPEdge\/ssh/);
    expect(plain(r.out)).toContain('Apply complete: 8 created, 0 updated, 0 replaced, 0 deleted.');
  });

  it('with NO_COLOR prints plain progress lines, nothing redrawn', async () => {
    const file = join(example.dir, 'ip-policy.yaml');
    writeFileSync(file, readFileSync(file, 'utf8').replace('description: office networks', 'description: office LAN'));
    const r = await onTerminal(['apply', example.dir, '--local'], 'yes', { NO_COLOR: '1' });
    expect(r.code).toBe(0);
    expect(r.out).toMatch(/^updated IPPolicy\/office \(ipp_\w+\)\r?$/m);
    expect(r.out).not.toMatch(/\x1b\[\d+F/);
    expect(r.out).not.toMatch(/\x1b\[[0-9;]*m/);
    expect(r.out).toContain('Apply complete: 0 created, 1 updated, 0 replaced, 0 deleted.');
  });

  it('prints no colour with NO_COLOR or --no-color', async () => {
    for (const run of [onTerminal(['plan', example.dir, '--local', '--stack', 'x'], undefined, { NO_COLOR: '1' }),
      onTerminal(['plan', example.dir, '--local', '--stack', 'x', '--no-color'])]) {
      const r = await run;
      // Stack "x" would claim the hostports the stack applied above holds: plan errors, printed without colour too.
      expect(r.code).toBe(1);
      expect(r.out).toContain('Plan: 8 to create');
      expect(r.out).toContain('Error: ');
      expect(r.out).not.toMatch(/\x1b\[[0-9;]*m/);
    }
  });
});
