// undici parses HTTP with llhttp, a WebAssembly module. Node 20's V8 also compiles its large parser function with
// the optimizing tier (TurboFan), in the background, and the process waits for that work at exit: about 110 ms of
// every command that talks to the service. On Node 20 no command starts that compile: V8 traces each WebAssembly
// function it compiles, with the tier, and a plan's trace must show the baseline tier (Liftoff) only. Later Nodes
// optimize the parser once it runs hot and do not wait for it at exit; there the check does not apply (and
// their V8 ignores the flag once running), as the packed-install checks apply to one Node each.
import { execFile } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { expect, it, onTestFinished } from 'vitest';
import { cleanEnv, ROOT } from '../cli/run.ts';
import { serviceForFile } from '../helpers/service.ts';

const { svc } = serviceForFile();

it.runIf(process.versions.node.startsWith('20.'))('on Node 20 a plan compiles undici\'s HTTP parser with the baseline tier only', async () => {
  // Made here, not for the file: where the test is skipped, so are the file's hooks.
  const dir = mkdtempSync(join(tmpdir(), 'edgeops-wasm-tier-'));
  onTestFinished(() => rmSync(dir, { recursive: true, force: true }));
  writeFileSync(join(dir, 'a.yaml'), 'kind: IPPolicy\nname: office\ndescription: office\n');
  const { stdout } = await promisify(execFile)(
    process.execPath,
    ['--trace-wasm-compilation-times', join(ROOT, 'bin/edgeops.js'), 'plan', dir],
    { cwd: dir, env: cleanEnv({ EDGEOPS_API_URL: svc.url, EDGEOPS_API_KEY: svc.apiKey }) },
  );
  expect(stdout).toContain('Plan: 1 to create');
  // The trace is there, so the parser was compiled in this run and its absence below says something.
  expect(stdout).toMatch(/^Compiled function .* using Liftoff/m);
  expect(stdout.match(/^Compiled function .* using TurboFan.*$/gm) ?? []).toEqual([]);
});
