// References between documents: each field a kind declares in `refs` takes a literal id (with the id prefix of
// an allowed kind) or the name of a managed resource of an allowed kind. Names become PendingRefs.
import type { ResourceKind, Json } from '../kinds/resource-kind.ts';
import { didYouMean } from './schema/messages.ts';

/** The managed resources by name: which kinds define each name. */
export class NameIndex {
  private readonly kindsByName = new Map<string, string[]>();
  private readonly namesByKind = new Map<string, string[]>();

  add(kind: string, name: string): void {
    const kinds = this.kindsByName.get(name) ?? [];
    if (kinds.includes(kind)) return;
    kinds.push(kind);
    this.kindsByName.set(name, kinds);
    const names = this.namesByKind.get(kind);
    if (names) names.push(name);
    else this.namesByKind.set(kind, [name]);
  }

  kindsOf(name: string): readonly string[] {
    return this.kindsByName.get(name) ?? [];
  }

  namesOf(kinds: readonly string[]): string[] {
    return kinds.flatMap((k) => this.namesByKind.get(k) ?? []);
  }
}

export type RefOutcome = { address: string } | { literal: string } | { error: string };

const either = (kinds: readonly string[]): string => kinds.join(' or ');

function literal(value: string, allowed: readonly string[], kinds: ReadonlyMap<string, ResourceKind>): RefOutcome {
  const prefixOf = (k: string): string | undefined => kinds.get(k)?.idPrefix;
  const own = allowed.find((k) => {
    const p = prefixOf(k);
    return p !== undefined && value.startsWith(p);
  });
  if (own) {
    return value.length > prefixOf(own)!.length ? { literal: value } : { error: `"${value}" is not a complete id` };
  }
  const other = [...kinds.values()].find((k) => k.idPrefix !== undefined && value.startsWith(k.idPrefix));
  if (other) return { error: `wrong kind: "${value}" is an id of kind ${other.kind}, but this field takes ${either(allowed)}` };
  const expected = allowed.map((k) => `${k} (${prefixOf(k) ?? 'no id'}...)`);
  return { error: `"${value}" is neither a name (names have no "_") nor an id of ${either(expected)}` };
}

/** Resolves one reference value. Names never contain "_", so a value with "_" is a literal id. */
export function resolveRef(
  value: Json,
  allowed: readonly string[],
  index: NameIndex,
  kinds: ReadonlyMap<string, ResourceKind>,
): RefOutcome | undefined {
  if (typeof value !== 'string' || value === '') return undefined; // the schema reports it
  if (value.includes('_')) return literal(value, allowed, kinds);
  const defined = index.kindsOf(value);
  const matches = defined.filter((k) => allowed.includes(k));
  if (matches.length === 1) return { address: `${matches[0]}/${value}` };
  if (matches.length > 1) {
    const both = matches.map((k) => `${k}/${value}`).join(' and ');
    return { error: `"${value}" is ambiguous: ${both} both exist; use a literal id or rename one` };
  }
  if (defined.length) {
    return { error: `wrong kind: "${value}" names ${defined.map((k) => `${k}/${value}`).join(' and ')}, but this field takes ${either(allowed)}` };
  }
  return { error: `no ${either(allowed)} named "${value}"${didYouMean(value, index.namesOf(allowed))}` };
}
