// `edgeops unlock --stack S LOCK_ID` as a user runs it: releases the lock by its id and says what it released;
// refuses an id that is not the stack's lock; off a terminal refuses without --force; on a terminal (util-linux
// `script`) asks, and releases only after "yes".
import { spawn } from 'node:child_process';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { createApi, type HttpApi } from '../../src/client/http.ts';
import { parseMetadata } from '../../src/kinds/marker.ts';
import type { StackLock } from '../../src/lock/stack-lock.ts';
import { api as http, startTestService, type TestService } from '../helpers/service.ts';
import { holdStackLock } from '../helpers/stack-lock.ts';
import { ROOT, cleanEnv, edgeops } from './run.ts';

let svc: TestService;
let api: HttpApi;
beforeAll(async () => {
  svc = await startTestService();
  api = createApi({ url: svc.url, apiKey: svc.apiKey });
});
afterAll(async () => {
  await api.close();
  await svc.close();
});

const env = (stack: string) => ({ EDGEOPS_API_URL: svc.url, EDGEOPS_API_KEY: svc.apiKey, EDGEOPS_STACK: stack });

async function lockIds(stack: string): Promise<string[]> {
  const items = (await http(svc).listAll('/ip_policies', 'ip_policies')) as { id: string; metadata?: string }[];
  return items.filter((i) => parseMetadata(i.metadata).marker?.name === `Lock/${stack}`).map((i) => i.id);
}

/** A lock held by another "apply" of this process (its renewals stop once the record is gone). */
const hold = (stack: string): Promise<StackLock> => holdStackLock(api, stack, { holder: 'deploy@runner-3 pid 4121', heartbeatMs: 200 });

function shellQuote(s: string): string {
  return `'${s.replace(/'/g, `'\\''`)}'`;
}

/** Runs edgeops on a pseudo-terminal; types `answer` once the prompt is on screen. */
function onTerminal(args: string[], answer: string, extraEnv: Record<string, string>): Promise<{ code: number | null; out: string }> {
  const command = [process.execPath, join(ROOT, 'bin/edgeops.js'), ...args].map(shellQuote).join(' ');
  const child = spawn('script', ['-qec', command, '/dev/null'], { cwd: ROOT, env: cleanEnv({ TERM: 'xterm', ...extraEnv }), stdio: 'pipe' });
  let out = '';
  let answered = false;
  child.stdout.setEncoding('utf8').on('data', (d: string) => {
    out += d;
    if (!answered && out.includes('Enter a value:')) {
      answered = true;
      child.stdin.write(`${answer}\r`);
    }
  });
  return new Promise((resolve) => child.on('close', (code) => {
    child.stdin.end();
    resolve({ code, out });
  }));
}

describe('edgeops unlock', () => {
  it('releases the lock by its id with --force, printing what it released; the holder finds it lost', async () => {
    const lock = await hold('release');
    const r = await edgeops(['unlock', lock.id, '--force'], { env: env('release') });
    expect(r.code, r.stderr).toBe(0);
    expect(r.stdout).toMatch(new RegExp(`^Released lock ${lock.id} of stack "release" \\(holder deploy@runner-3 pid 4121, since \\S+Z, expires \\S+Z\\)\\.\\n$`));
    expect(await lockIds('release')).toEqual([]);
    await vi.waitFor(() => expect(lock.lost.aborted).toBe(true), { timeout: 10_000, interval: 50 });
    // --auto-approve is the same; the lock is gone now, so the same id is refused.
    const again = await edgeops(['unlock', '--stack', 'release', lock.id, '--auto-approve'], { env: env('other') });
    expect(again.code).toBe(1);
    expect(again.stderr).toBe(`edgeops: no lock "${lock.id}" on stack "release": stack "release" is not locked\n`);
    await lock.release();
  });

  it('refuses an id that is not the stack\'s lock, naming the lock there is, and releases nothing', async () => {
    const lock = await hold('wrong-id');
    try {
      const r = await edgeops(['unlock', 'ipp_2rcCvYaCz4tUbWiCRVTCu2Rsx02', '--force'], { env: env('wrong-id') });
      expect(r.code).toBe(1);
      expect(r.stderr).toContain(`edgeops: no lock "ipp_2rcCvYaCz4tUbWiCRVTCu2Rsx02" on stack "wrong-id": its lock records: ${lock.id} (holder deploy@runner-3 pid 4121, since `);
      // The right id on the wrong stack is refused too.
      const otherStack = await edgeops(['unlock', lock.id, '--force', '--stack', 'elsewhere'], { env: env('wrong-id') });
      expect(otherStack.code).toBe(1);
      expect(await lockIds('wrong-id')).toEqual([lock.id]);
    } finally {
      await lock.release();
    }
  });

  it('off a terminal, refuses without --force and releases nothing', async () => {
    const lock = await hold('no-tty');
    try {
      const r = await edgeops(['unlock', lock.id], { env: env('no-tty'), input: 'yes\n' });
      expect(r.code).toBe(1);
      expect(r.stderr).toContain('edgeops: refusing to release the lock without confirmation: stdin is not a terminal');
      expect(r.stderr).toContain('pass --force');
      expect(await lockIds('no-tty')).toEqual([lock.id]);
    } finally {
      await lock.release();
    }
  });

  it('on a terminal, asks first: anything but "yes" releases nothing, "yes" releases', async () => {
    const lock = await hold('tty');
    try {
      const no = await onTerminal(['unlock', lock.id], 'no', env('tty'));
      expect(no.code).toBe(1);
      expect(no.out).toContain(`Lock ${lock.id} of stack "tty": holder deploy@runner-3 pid 4121, since `);
      expect(no.out).toContain("Do you want to release this lock? Another apply of the stack may then start. Only 'yes' will be accepted.");
      expect(no.out).toContain('Unlock cancelled: the answer was not "yes".');
      expect(await lockIds('tty')).toEqual([lock.id]);

      const yes = await onTerminal(['unlock', lock.id], 'yes', env('tty'));
      expect(yes.code, yes.out).toBe(0);
      expect(yes.out).toContain(`Released lock ${lock.id} of stack "tty"`);
      expect(await lockIds('tty')).toEqual([]);
    } finally {
      await lock.release();
    }
  });
});
