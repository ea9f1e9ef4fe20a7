// Which unmanaged resources an `--all` export can hand to adoption. The exported directory plans with
// `adopt: true`, so each unmanaged document must be adopted, never created as a copy; a resource that adoption
// cannot match to its own document (nothing to match it by, or another live resource with the same natural
// key) is left out of the export and named instead. The test is adoption itself (src/engine/adopt.ts) run on
// the exported bodies, so the export and the plan that follows cannot disagree.
import { adoptLive } from '../engine/adopt.ts';
import type { LiveState } from '../engine/live.ts';
import type { ResourceKind } from '../kinds/resource-kind.ts';
import type { DesiredResource } from '../manifest/document.ts';
import type { ExportEntry, Selection } from './select.ts';

export interface LeftOut {
  kind: string;
  id: string;
  /** Why adoption cannot take it, in words for the export's report. */
  why: string;
}

const address = (e: ExportEntry): string => `${e.kind.kind}/${e.name}`;

/**
 * An unmanaged entry's document as the planner will see it: the live body with literal ids (a reference by
 * name resolves, at plan time, to the id of the resource adopted for it: the same id).
 */
function asDesired(e: ExportEntry): DesiredResource {
  return { kind: e.kind.kind, name: e.name, address: address(e), spec: e.body, dependsOn: [], pos: { file: '(export)', line: 1, col: 1 } };
}

function reason(e: ExportEntry): string {
  const keys = e.kind.adoptKeys?.(e.body) ?? [];
  if (keys.length === 0) return 'nothing to match it by (no description, hostport, labels or other natural key)';
  return `another live ${e.kind.kind} has the same ${keys[0]!.split(' ')[0]}`;
}

/**
 * The selection without the unmanaged marker-kind entries adoption would not adopt, and those entries. Leaving
 * one out only removes a rival for the others, so every entry kept is still adopted.
 */
export function keepAdoptable(kinds: readonly ResourceKind[], live: LiveState, selection: Selection, stack: string): { selection: Selection; leftOut: LeftOut[] } {
  const candidates = selection.entries.filter((e) => !e.managed && e.kind.identity === 'marker');
  if (candidates.length === 0) return { selection, leftOut: [] };
  const { adoptions } = adoptLive(kinds, { resources: candidates.map(asDesired), config: {} }, live, stack);
  const adopted = new Set(adoptions.map((a) => a.address));
  const out = candidates.filter((e) => !adopted.has(address(e)));
  if (out.length === 0) return { selection, leftOut: [] };
  const dropped = new Set(out);
  const byId = new Map([...selection.byId].filter(([, e]) => !dropped.has(e)));
  return {
    // References to a left-out resource stay literal ids (toDocument names only what byId holds).
    selection: { ...selection, entries: selection.entries.filter((e) => !dropped.has(e)), byId },
    leftOut: out.map((e) => ({ kind: e.kind.kind, id: e.item.id, why: reason(e) })),
  };
}
