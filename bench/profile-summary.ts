// Summarizes a V8 .cpuprofile (from `node --cpu-prof`): self and total time per function, heaviest first.
// `node --import tsx bench/profile-summary.ts FILE.cpuprofile [--top 30] [--filter src/]`
// Code loaded through tsx is whitespace-minified onto one line, so positions in the profile are re-mapped to
// the .ts source by transforming the file the way tsx does and reading the source map.
import { readFileSync } from 'node:fs';
import { SourceMap } from 'node:module';
import { fileURLToPath } from 'node:url';
import { parseArgs } from 'node:util';
import { transformSync } from 'esbuild';

interface ProfileNode {
  id: number;
  callFrame: { functionName: string; url: string; lineNumber: number; columnNumber: number };
  hitCount?: number;
  children?: number[];
}
interface Profile {
  nodes: ProfileNode[];
  samples: number[];
  timeDeltas: number[];
}

const { values, positionals } = parseArgs({
  allowPositionals: true,
  options: { top: { type: 'string', default: '30' }, filter: { type: 'string' } },
});

const profile = JSON.parse(readFileSync(positionals[0]!, 'utf8')) as Profile;
const byId = new Map(profile.nodes.map((n) => [n.id, n]));
const parent = new Map<number, number>();
for (const n of profile.nodes) for (const c of n.children ?? []) parent.set(c, n.id);

// Time per sample: the delta to the next sample, as Chrome DevTools counts it.
const selfUs = new Map<number, number>();
profile.samples.forEach((id, i) => selfUs.set(id, (selfUs.get(id) ?? 0) + (profile.timeDeltas[i + 1] ?? 0)));
const totalUs = [...selfUs.values()].reduce((a, b) => a + b, 0);

const tsconfig = JSON.parse(readFileSync(new URL('../tsconfig.json', import.meta.url), 'utf8')) as object;
const maps = new Map<string, SourceMap | null>();

/** The source map tsx's transform would produce for a .ts file (same esbuild options as tsx 4). */
function mapFor(url: string): SourceMap | null {
  if (!url.startsWith('file://') || !url.endsWith('.ts')) return null;
  let map = maps.get(url);
  if (map === undefined) {
    try {
      const file = fileURLToPath(url);
      const out = transformSync(readFileSync(file, 'utf8'), {
        loader: 'ts', format: 'esm', target: `node${process.versions.node}`, sourcemap: 'external',
        minifyWhitespace: true, keepNames: true, sourcefile: file, tsconfigRaw: tsconfig,
      });
      map = new SourceMap(JSON.parse(out.map) as ConstructorParameters<typeof SourceMap>[0]);
    } catch {
      map = null;
    }
    maps.set(url, map);
  }
  return map;
}

const label = (n: ProfileNode) => {
  const { url: rawUrl, lineNumber, columnNumber, functionName } = n.callFrame;
  const url = rawUrl.replace(/^file:\/\//, '').replace(/^.*\/(src|bench|node_modules)\//, '$1/');
  const entry = mapFor(rawUrl)?.findEntry(lineNumber, columnNumber);
  const line = entry && 'originalLine' in entry ? entry.originalLine + 1 : lineNumber + 1;
  return `${functionName || '(anonymous)'} ${url}:${line}`;
};

const self = new Map<string, number>();
const total = new Map<string, number>();
for (const [id, us] of selfUs) {
  const node = byId.get(id)!;
  self.set(label(node), (self.get(label(node)) ?? 0) + us);
  // Count each function once per stack for total time (recursion would otherwise double-count).
  const seen = new Set<string>();
  for (let cur: number | undefined = id; cur !== undefined; cur = parent.get(cur)) {
    const l = label(byId.get(cur)!);
    if (seen.has(l)) continue;
    seen.add(l);
    total.set(l, (total.get(l) ?? 0) + us);
  }
}

const top = Number(values.top);
const keep = (l: string) => !values.filter || l.includes(values.filter);
const print = (title: string, m: Map<string, number>) => {
  console.log(`\n${title} (of ${(totalUs / 1000).toFixed(0)} ms sampled)`);
  for (const [l, us] of [...m].filter(([l]) => keep(l)).sort((a, b) => b[1] - a[1]).slice(0, top)) {
    console.log(`${(us / 1000).toFixed(1).padStart(9)} ms ${((100 * us) / totalUs).toFixed(1).padStart(5)}%  ${l}`);
  }
};
print('self time', self);
print('total time', total);
