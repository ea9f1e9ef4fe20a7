// `export --id ID...`: the export of just the live resources named, each with the natural-key items that belong
// to it (a route's response headers, a subscription's sources: plan reads them as part of their parent). A
// reference to a resource left out stays a literal id, so the documents plan as they are. An id no live
// resource has, or one another stack manages, is refused with every such id named, before anything is written.
import { ConfigError } from '../errors.ts';
import { naturalParentId } from '../engine/ownership.ts';
import type { LiveState } from '../engine/live.ts';
import { parseMetadata } from '../kinds/marker.ts';
import type { LiveItem, ResourceKind } from '../kinds/resource-kind.ts';
import type { ExportEntry, Selection } from './select.ts';

function liveById(kinds: readonly ResourceKind[], live: LiveState): Map<string, { kind: ResourceKind; item: LiveItem }> {
  const out = new Map<string, { kind: ResourceKind; item: LiveItem }>();
  for (const kind of kinds) {
    if (kind.identity !== 'marker') continue;
    for (const item of live.byKind.get(kind.kind) ?? []) out.set(item.id, { kind, item });
  }
  return out;
}

/** Why `id` cannot be exported, or undefined when `selection` (every exportable resource) holds it. */
function refusal(id: string, found: { kind: ResourceKind; item: LiveItem } | undefined, selection: Selection, stack: string): string | undefined {
  if (!found) return `${id}: no live resource has this id`;
  if (selection.byId.has(id)) return undefined;
  const { marker } = parseMetadata(found.item.raw.metadata);
  if (marker && marker.stack !== stack) {
    return `${id} (${found.kind.kind}) is ${marker.name} of stack "${marker.stack}": export it from that stack (--stack ${marker.stack})`;
  }
  const why = selection.warnings.find((w) => w.includes(id));
  return `${id} (${found.kind.kind}) cannot be exported${why ? `: ${why}` : ''}`;
}

interface Picked {
  selection: Selection;
  /** Resources the stack manages that were not picked: a plan of the picked documents alone deletes them. */
  notPicked: number;
}

/** `selection` (made with every resource) narrowed to the ids given and their natural-key items. */
export function onlyIds(kinds: readonly ResourceKind[], live: LiveState, selection: Selection, ids: readonly string[], stack: string): Picked {
  const byId = liveById(kinds, live);
  const wanted = [...new Set(ids)];
  const problems = wanted.map((id) => refusal(id, byId.get(id), selection, stack)).filter((p): p is string => p !== undefined);
  if (problems.length > 0) {
    throw new ConfigError(`cannot export ${problems.length === 1 ? 'this id' : 'these ids'}:\n${problems.map((p) => `  ${p}`).join('\n')}`);
  }
  const keep = new Set(wanted);
  const belongs = (e: ExportEntry): boolean => {
    if (e.kind.identity === 'marker') return keep.has(e.item.id);
    const parent = naturalParentId(e.kind, e.kind.fromLive(e.item.raw));
    return parent !== undefined && keep.has(parent);
  };
  const entries = selection.entries.filter(belongs);
  const exportedIds = entries.filter((e) => e.kind.identity === 'marker').map((e) => e.item.id);
  const notPicked = selection.entries.filter((e) => e.managed && e.kind.identity === 'marker' && !keep.has(e.item.id)).length;
  return {
    selection: {
      entries,
      byId: new Map([...selection.byId].filter(([id]) => keep.has(id))),
      otherStacks: 0,
      warnings: selection.warnings.filter((w) => exportedIds.some((id) => w.includes(id))),
    },
    notPicked,
  };
}
