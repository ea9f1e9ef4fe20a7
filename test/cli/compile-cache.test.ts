// On Node 22.1 and later the bin keeps V8's compiled code of its own modules between runs in the OS temp
// directory, as Node does; Node 20 has no such cache and writes nothing there. (The CLI's own chunks keep theirs
// beside it, on every Node: test/launch/code-cache.test.ts.)
import { existsSync, mkdtempSync, readdirSync, rmSync } from 'node:fs';
import module from 'node:module';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, expect, it } from 'vitest';
import { edgeops } from './run.ts';

/** Node's compile cache API, which Node 20 (and its types) lack. */
const hasCompileCache = typeof (module as { enableCompileCache?: unknown }).enableCompileCache === 'function';
const temp = mkdtempSync(join(tmpdir(), 'edgeops-compile-cache-'));
afterAll(() => rmSync(temp, { recursive: true, force: true }));

it(`${hasCompileCache ? 'fills' : 'leaves empty'} the temp directory's compile cache on Node ${process.versions.node}`, async () => {
  const r = await edgeops(['--version'], { env: { TMPDIR: temp, NODE_COMPILE_CACHE: undefined } });
  expect(r.code).toBe(0);
  expect(r.stderr).toBe('');
  const cache = join(temp, 'node-compile-cache');
  if (hasCompileCache) expect(readdirSync(cache).length).toBeGreaterThan(0);
  else expect(existsSync(cache)).toBe(false);
});
