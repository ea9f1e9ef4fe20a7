// `edgeops --help | head -1`: the reader closes the pipe before edgeops has written everything. The process
// must end quietly with its own exit code, not crash on EPIPE with a stack trace.
import { spawn } from 'node:child_process';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { cleanEnv, copyExample, ROOT } from './run.ts';

interface Closed {
  code: number | null;
  signal: NodeJS.Signals | null;
  /** What the stream left open received. */
  output: string;
}

/** Runs the bin with `closed` (stdout or stderr) already closed by its reader when the child writes to it. */
function runWithClosed(closed: 'stdout' | 'stderr', args: string[]): Promise<Closed> {
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, [join(ROOT, 'bin/edgeops.js'), ...args], { cwd: ROOT, env: cleanEnv(), stdio: 'pipe' });
    child[closed].destroy();
    const open = closed === 'stdout' ? child.stderr : child.stdout;
    let output = '';
    open.setEncoding('utf8').on('data', (d: string) => (output += d));
    child.on('error', reject);
    child.on('close', (code, signal) => resolve({ code, signal, output }));
    child.stdin.end();
  });
}

describe('a closed output pipe', () => {
  it.each([[['--help']], [['export', '--help']], [['plan', '--help']]])('edgeops %j with stdout closed exits 0, printing nothing to stderr', async (args) => {
    const r = await runWithClosed('stdout', args);
    expect(r.output).toBe('');
    expect(r.signal).toBeNull();
    expect(r.code).toBe(0);
  });

  it('keeps the exit code of the command when stdout closes (a failing validate still exits 1, without a stack)', async () => {
    const r = await runWithClosed('stdout', ['validate', 'no/such/dir']);
    expect(r.output).toContain('no/such/dir');
    expect(r.output).not.toContain('EPIPE');
    expect(r.code).toBe(1);
  });

  it('ends quietly when stderr is closed too (plan --format json writes its note there) and keeps the exit code', async () => {
    const example = copyExample('basic');
    try {
      const out = join(example.dir, 'plan.json');
      const r = await runWithClosed('stderr', ['plan', example.dir, '--local', '--format', 'json', '--out', out]);
      expect(JSON.parse(r.output).format_version).toBe(2);
      expect(r.code).toBe(0);
    } finally {
      example.dispose();
    }
  });
});
