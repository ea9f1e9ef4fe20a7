// Benchmark 10: what installing edgeops costs a user: `npm pack`, then the tarball installed as users do, into
// an empty project (`npm install --omit=optional`) and globally into an empty prefix (`npm install -g`, where npm
// installs optional dependencies whatever it is told). The registry's packages come through npm's cache as for
// any user. Time, installed size and package count are reported; there is no baseline to pair with, so the
// figures have no target of their own.
import { mkdir, readdir, stat } from 'node:fs/promises';
import { join } from 'node:path';
import { expectExit, repoRoot, timeProcess } from './lib/cli.ts';
import type { Benchmark } from './lib/context.ts';
import { mb, ms } from './lib/figure.ts';

async function sizeOf(path: string): Promise<number> {
  const s = await stat(path);
  if (!s.isDirectory()) return s.size;
  let total = 0;
  for (const name of await readdir(path)) total += await sizeOf(join(path, name));
  return total;
}

/** How many packages a node_modules tree holds, nested ones included (scoped ones counted one by one). */
async function packageCount(modules: string): Promise<number> {
  let count = 0;
  for (const name of await readdir(modules).catch(() => [] as string[])) {
    if (name.startsWith('.')) continue;
    const dirs = name.startsWith('@') ? (await readdir(join(modules, name))).map((n) => join(modules, name, n)) : [join(modules, name)];
    for (const dir of dirs) count += 1 + (await packageCount(join(dir, 'node_modules')));
  }
  return count;
}

export const npmInstall: Benchmark = {
  name: 'npm-install',
  id: 10,
  title: 'npm install of the packed tarball, into a project and globally',
  async run(ctx) {
    const packDir = join(ctx.tmp, 'pack');
    const target = join(ctx.tmp, 'install');
    await mkdir(packDir, { recursive: true });
    await mkdir(target, { recursive: true });
    const pack = expectExit(await timeProcess('npm', ['pack', '--pack-destination', packDir, '--silent'], { cwd: repoRoot }), [0], 'npm pack');
    const tarball = join(packDir, pack.stdout.trim().split('\n').pop()!);
    const install = expectExit(
      await timeProcess('npm', ['install', '--omit=optional', '--no-audit', '--no-fund', '--silent', tarball], { cwd: target }),
      [0],
      'npm install',
    );
    const prefix = join(ctx.tmp, 'global');
    const global = expectExit(
      await timeProcess('npm', ['install', '-g', '--prefix', prefix, '--no-audit', '--no-fund', '--silent', tarball], { cwd: ctx.tmp }),
      [0],
      'npm install -g',
    );
    const local = join(target, 'node_modules');
    const globalModules = join(prefix, 'lib', 'node_modules');
    const tarballSize = mb((await stat(tarball)).size);
    return [
      {
        name: 'npm-install',
        values: [['tarball', tarballSize], ['install', ms(install.ms)], ['node_modules', mb(await sizeOf(local))]],
        ratio: 1,
        target: 'reported',
        ok: true,
        note: `${await packageCount(local)} packages; npm pack ${ms(pack.ms)}; install from npm's cache where it has the packages`,
      },
      {
        name: 'npm-install-global',
        values: [['install', ms(global.ms)], ['installed', mb(await sizeOf(globalModules))]],
        ratio: 1,
        target: 'reported',
        ok: true,
        note: `${await packageCount(globalModules) - 1} packages besides edgeops; npm install -g of the same tarball into an empty prefix`,
      },
    ];
  },
};
