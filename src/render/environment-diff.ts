// How two rendered stacks differ, by Kind/name and field, with plan's signs: `~` a value that differs, `+` one
// only the second has, `-` one only the first has; and the documents only one of them has. Mappings are
// compared field by field, lists and scalars whole (a Patch replaces lists whole too).
import { isObj } from '../contract/json.ts';
import { showPath } from '../contract/field-path.ts';
import type { Json } from '../kinds/resource-kind.ts';
import type { RenderedStack } from './rendered.ts';
import { childPointer } from '../contract/field-path.ts';
import { formatValue } from './values.ts';

const shown = (value: Json | undefined): string => formatValue(value);

/** The lines of the fields that differ between two documents, deepest mapping first. */
function fieldLines(a: Json | undefined, b: Json | undefined, pointer: string, out: string[]): void {
  if (JSON.stringify(a) === JSON.stringify(b)) return;
  if (isObj(a) && isObj(b)) {
    const keys = [...new Set([...Object.keys(a), ...Object.keys(b)])].sort();
    for (const key of keys) fieldLines(a[key], b[key], childPointer(pointer, key), out);
    return;
  }
  const path = showPath(pointer);
  if (a === undefined) out.push(`    + ${path}: ${shown(b)}`);
  else if (b === undefined) out.push(`    - ${path}: ${shown(a)}`);
  else out.push(`    ~ ${path}: ${shown(a)} -> ${shown(b)}`);
}

const label = (s: RenderedStack): string => (s.environment ? `${s.path} (environment ${s.environment})` : s.path);

export function environmentDiff(first: RenderedStack, second: RenderedStack): string {
  const a = new Map(first.docs.map((d) => [d.address, d]));
  const b = new Map(second.docs.map((d) => [d.address, d]));
  const addresses = [...new Set([...a.keys(), ...b.keys()])].sort();
  const out = [`--- ${label(first)}`, `+++ ${label(second)}`];
  let differ = 0;
  for (const address of addresses) {
    const x = a.get(address);
    const y = b.get(address);
    if (!x) out.push(`+ ${address}  # only in ${second.path}`);
    else if (!y) out.push(`- ${address}  # only in ${first.path}`);
    else {
      const lines: string[] = [];
      const { kind: _k, name: _n, ...xf } = x.document;
      const { kind: _k2, name: _n2, ...yf } = y.document;
      fieldLines(xf, yf, '', lines);
      if (lines.length === 0) continue;
      out.push(`~ ${address}`, ...lines);
    }
    differ++;
  }
  out.push('', differ === 0 ? 'No differences.' : `${differ} document${differ === 1 ? '' : 's'} differ${differ === 1 ? 's' : ''}; ${addresses.length - differ} the same.`);
  return `${out.join('\n')}\n`;
}
