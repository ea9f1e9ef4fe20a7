// A rename the manifests did not say: the plan deletes one resource and creates another of the same kind with
// the same fields, which is what renaming a document without `moved_from` looks like. Apply would give the
// resource a new id (breaking whatever outside the stack holds the old one); the hint names the line that keeps
// it. Only pairs that match one to one are hinted, and only for kinds whose resources carry the ownership marker
// (a natural-key kind has no name to move).
import { canonicalJson } from '../kinds/marker.ts';
import type { ResourceKind } from '../kinds/resource-kind.ts';
import type { Action, FieldChange, RenameHint } from './plan-data.ts';

/**
 * The fields of one side as comparable text: each path with its value. A sensitive value is not shown in a plan,
 * so only its presence is compared; a value known only after apply never equals a live one.
 */
function fieldsOf(changes: readonly FieldChange[], side: 'old' | 'new'): string | undefined {
  if (changes.some((c) => c.knownAfterApply)) return undefined;
  const fields = changes.map((c) => `${c.path}\u0000${c.sensitive ? '(sensitive)' : canonicalJson(c[side] ?? null)}`);
  return fields.sort().join('\u0001');
}

/** The actions by kind and fields; an action whose fields cannot be compared is left out. */
function byFields(actions: readonly Action[], side: 'old' | 'new'): Map<string, Action[]> {
  const out = new Map<string, Action[]>();
  for (const a of actions) {
    const fields = fieldsOf(a.changes, side);
    if (fields === undefined) continue;
    const key = `${a.kind}\u0002${fields}`;
    out.set(key, [...(out.get(key) ?? []), a]);
  }
  return out;
}

export function renameHints(actions: readonly Action[], kinds: ReadonlyMap<string, ResourceKind>): RenameHint[] {
  const marked = (a: Action): boolean => a.module === undefined && kinds.get(a.kind)?.identity === 'marker';
  const deletes = actions.filter((a) => a.op === 'delete' && marked(a));
  const creates = actions.filter((a) => a.op === 'create' && marked(a));
  if (deletes.length === 0 || creates.length === 0) return [];
  const createdAs = byFields(creates, 'new');
  const deletedAs = byFields(deletes, 'old');
  const hints: RenameHint[] = [];
  for (const [key, gone] of deletedAs) {
    const made = createdAs.get(key);
    if (gone.length === 1 && made?.length === 1) hints.push({ from: gone[0]!.address, to: made[0]!.address });
  }
  return hints;
}
