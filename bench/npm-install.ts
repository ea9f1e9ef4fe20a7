// Benchmark 10: what installing edgeops costs a user: `npm pack`, then `npm install --omit=optional` of the
// tarball into an empty directory (the registry's packages come through npm's cache as for any user). Time and
// installed size are reported; there is no baseline to pair with, so the figure has no target of its own.
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

export const npmInstall: Benchmark = {
  name: 'npm-install',
  id: 10,
  title: 'npm install of the packed tarball, optional dependencies omitted',
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
    const size = await sizeOf(join(target, 'node_modules'));
    const packages = (await readdir(join(target, 'node_modules'))).filter((n) => !n.startsWith('.')).length;
    return [
      {
        name: 'npm-install',
        values: [['tarball', mb((await stat(tarball)).size)], ['install', ms(install.ms)], ['node_modules', mb(size)]],
        ratio: 1,
        target: 'reported',
        ok: true,
        note: `${packages} top-level packages; npm pack ${ms(pack.ms)}; install from npm's cache where it has the packages`,
      },
    ];
  },
};
