// The built CLI loads no module of Node's it does not use: undici's HTTP/2 client and commander's child
// processes are required at their first use (LAZY_REQUIRES in scripts/build.ts), and the manifest stages' clock
// loads no node:perf_hooks; the bin and the launcher are CommonJS, so Node 20 loads no part of its ES module
// loader that runs modules (Node 22 and later load it at start-up anyway). A plan against the service, the
// command that loads the most, records the built-in modules its process loaded.
import { execFile } from 'node:child_process';
import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { expect, it } from 'vitest';
import { LAZY_REQUIRES } from '../../scripts/build.ts';
import { cleanEnv, ROOT } from '../cli/run.ts';
import { fileTempDir } from '../helpers/temp-dirs.ts';
import { serviceForFile } from '../helpers/service.ts';

const { svc } = serviceForFile();

it('a plan of the built CLI loads neither node:http2, node:child_process nor node:perf_hooks, nor on Node 20 the ES module loader', async () => {
  const dir = fileTempDir('edgeops-lazy-requires-');
  writeFileSync(join(dir, 'a.yaml'), 'kind: IPPolicy\nname: office\ndescription: office\n');
  const record = join(dir, 'record.cjs');
  const loaded = join(dir, 'loaded.json');
  writeFileSync(record, `process.on('exit', () => require('node:fs').writeFileSync(${JSON.stringify(loaded)}, JSON.stringify(process.moduleLoadList)));\n`);
  const { stdout } = await promisify(execFile)(process.execPath, ['-r', record, join(ROOT, 'bin/edgeops.js'), 'plan', dir], {
    cwd: dir,
    env: cleanEnv({ EDGEOPS_API_URL: svc.url, EDGEOPS_API_KEY: svc.apiKey }),
  });
  expect(stdout).toContain('Plan: 1 to create');
  const modules = (JSON.parse(readFileSync(loaded, 'utf8')) as string[]).filter((m) => m.startsWith('NativeModule ')).map((m) => m.slice('NativeModule '.length));
  // The record is complete: the client's own modules are in it.
  expect(modules).toEqual(expect.arrayContaining(['net', 'http']));
  for (const unused of ['http2', 'child_process', 'perf_hooks']) expect(modules).not.toContain(unused);
  if (process.versions.node.startsWith('20.')) {
    for (const esm of ['internal/modules/esm/module_job', 'internal/modules/esm/translators', 'internal/fs/promises']) expect(modules).not.toContain(esm);
  }
});

it('names each lazy require by a text its dependency holds once', () => {
  for (const { file, eager } of LAZY_REQUIRES) {
    const path = file.source.includes('undici') ? 'node_modules/undici/lib/dispatcher/client.js' : 'node_modules/commander/lib/command.js';
    expect(path).toMatch(file);
    expect(readFileSync(join(ROOT, path), 'utf8').split(eager)).toHaveLength(2);
  }
});
