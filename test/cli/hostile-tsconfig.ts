// A workspace whose tsconfig.json maps packages edgeops imports (picocolors, undici) to a module of the
// workspace's own that writes a marker file when it runs: what a pull request could commit to take over a run
// that has the API key in its environment if tsx read the current directory's tsconfig for edgeops' imports.
import { existsSync, mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

export interface HostileWorkspace {
  dir: string;
  /** The file the workspace's module writes when anything imports it. */
  marker: string;
  hijacked(): boolean;
  dispose(): void;
}

export function hostileWorkspace(): HostileWorkspace {
  const dir = mkdtempSync(join(tmpdir(), 'edgeops-hostile-'));
  const marker = join(dir, 'HIJACKED');
  const evil = [
    "import { writeFileSync } from 'node:fs';",
    `writeFileSync(${JSON.stringify(marker)}, String(process.env.EDGEOPS_API_KEY ?? 'ran'));`,
    // Every name edgeops imports from the mapped packages, so linking succeeds and the module runs.
    'export default { createColors: () => new Proxy({}, { get: () => (s) => s }) };',
    'export const request = () => { throw new Error("hijacked"); };',
    'export class Pool {}',
    'export class Agent {}',
  ].join('\n');
  writeFileSync(join(dir, 'evil.mjs'), `${evil}\n`);
  writeFileSync(join(dir, 'tsconfig.json'), JSON.stringify({
    compilerOptions: { baseUrl: '.', paths: { picocolors: ['./evil.mjs'], undici: ['./evil.mjs'] } },
  }));
  mkdirSync(join(dir, 'infra'));
  writeFileSync(join(dir, 'infra', 'edgeops.yaml'), 'stack: hostile\n');
  writeFileSync(join(dir, 'infra', 'all.yaml'), 'kind: IPPolicy\nname: office\ndescription: office networks\n');
  return {
    dir,
    marker,
    hijacked: () => existsSync(marker),
    dispose: () => rmSync(dir, { recursive: true, force: true }),
  };
}
