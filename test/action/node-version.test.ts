// The Node version edgeops asks for is what its runtime dependencies need, no more (design: Dependencies; Node 20 is the
// machine's Node). Dev dependencies (vitest's bundler wants 20.19) are for working on edgeops, not for running it,
// and do not count. The Action runs on the runner's own Node 24 (action.yml `runs.using`).
import { readFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { describe, expect, it } from 'vitest';

const ROOT = resolve(import.meta.dirname, '../..');
type Version = [number, number, number];

const parseVersion = (text: string): Version => {
  const [a = 0, b = 0, c = 0] = text.replace(/^v/, '').split('.').map((p) => (p === 'x' ? 0 : Number(p)));
  return [a, b, c];
};
const compare = (x: Version, y: Version): number => x[0] - y[0] || x[1] - y[1] || x[2] - y[2];

/** The range forms package-lock.json's engines fields use: `*`, `>=1.2.3`, `>= 14`, `20.x`, `^8.16.0`, `a || b`. */
function satisfies(version: Version, range: string): boolean {
  return range.split('||').some((part) => {
    const p = part.trim();
    if (p === '*' || p === '') return true;
    const ge = /^>=\s*(\S+)$/.exec(p);
    if (ge) return compare(version, parseVersion(ge[1]!)) >= 0;
    const caret = /^\^(\S+)$/.exec(p);
    if (caret) {
      const min = parseVersion(caret[1]!);
      return version[0] === min[0] && compare(version, min) >= 0;
    }
    const x = /^(\d+)\.x$/.exec(p);
    if (x) return version[0] === Number(x[1]);
    throw new Error(`range form not understood by this test: ${JSON.stringify(p)}`);
  });
}

const pkg = JSON.parse(readFileSync(join(ROOT, 'package.json'), 'utf8')) as { engines: { node: string } };
const lock = JSON.parse(readFileSync(join(ROOT, 'package-lock.json'), 'utf8')) as {
  packages: Record<string, { dev?: boolean; optional?: boolean; engines?: { node?: string } | string[] }>;
};
// engines.node is the supported lines, each from its first usable release (`^20.19.0 || ^22.13.0 || >=24`): the
// minimum is the lowest of their lower bounds.
const minimum = pkg.engines.node
  .split('||')
  .map((part) => parseVersion(/^\s*(?:>=|\^)\s*(\S+)\s*$/.exec(part)![1]!))
  .sort(compare)[0]!;
const runtime = Object.entries(lock.packages)
  .filter(([path, p]) => path !== '' && !p.dev && !Array.isArray(p.engines) && p.engines?.node)
  .map(([path, p]) => [path, (p.engines as { node: string }).node] as const);

describe('the Node version edgeops needs', () => {
  it('package.json and the lock file say the same', () => {
    expect((lock.packages[''] as { engines: { node: string } }).engines.node).toBe(pkg.engines.node);
  });

  it('admits Node 20 (best-effort), 22 from 22.13 (node:sqlite without a flag) and 24, and not 21 or 22.12', () => {
    for (const ok of ['20.19.0', '20.20.2', '22.13.0', '22.23.3', '24.0.0', '24.21.0']) expect(satisfies(parseVersion(ok), pkg.engines.node), ok).toBe(true);
    for (const no of ['20.18.1', '21.7.3', '22.12.0', '23.11.0']) expect(satisfies(parseVersion(no), pkg.engines.node), no).toBe(false);
  });

  it('every runtime dependency runs on the minimum, and at least one needs exactly it', () => {
    expect(runtime.length).toBeGreaterThan(10);
    const unmet = runtime.filter(([, range]) => !satisfies(minimum, range));
    expect(unmet).toEqual([]);
    const below: Version = minimum[2] > 0 ? [minimum[0], minimum[1], minimum[2] - 1] : [minimum[0], minimum[1] - 1, 99];
    expect(runtime.filter(([, range]) => !satisfies(below, range)).map(([path]) => path)).not.toEqual([]);
  });
});
