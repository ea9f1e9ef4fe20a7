// The canonical order of a manifest's keys: the order of the properties in the kind's schema (kind, name, then
// the fields of the create request, each module's fields in the module's order), at every depth the schema
// describes. Keys the schema does not know keep their order after the known ones; free-form mappings (labels,
// metadata, header values) keep the order they are written in. Merge keys (`<<`) come first in their mapping:
// they only supply defaults, which the written keys override wherever they stand.
//
// Reordering never changes what the document says. An alias must follow its anchor, so a pair that uses an
// anchor a sibling defines stays after that sibling; a document that defines one anchor name twice (an alias
// then names the nearest one before it) keeps its order.
import { isAlias, isMap, isScalar, isSeq, visit, type Document, type Node, type Pair, type YAMLMap } from 'yaml';
import type { Schema } from '../manifest/schema/parts.ts';
import { isMergeKey } from '../manifest/parse/yaml-tree.ts';

/** The schema of the value under `key` in a mapping described by `schema`. */
function propertySchema(schema: Schema | undefined, key: string): Schema | undefined {
  if (!schema) return undefined;
  const own = (schema.properties as Schema | undefined)?.[key] as Schema | undefined;
  if (own) return own;
  // The traffic policy's value: a document mapping (`then`) unless it is {file}/{env} (`else`).
  return propertySchema(schema.then as Schema | undefined, key);
}

/** The property names of a mapping's schema, in order (none for a free-form mapping). */
function propertyOrder(schema: Schema | undefined): string[] {
  if (!schema) return [];
  const own = Object.keys((schema.properties as Schema | undefined) ?? {});
  return own.length > 0 ? own : propertyOrder(schema.then as Schema | undefined);
}

const keyText = (pair: Pair): string | undefined => {
  const key = pair.key;
  return isScalar(key) && (typeof key.value === 'string' || typeof key.value === 'number') ? String(key.value) : undefined;
};

/** Anchors a subtree defines and the aliases it uses. */
function anchorsOf(node: unknown): { defines: Set<string>; uses: Set<string> } {
  const defines = new Set<string>();
  const uses = new Set<string>();
  visit(node as Node, {
    Node: (_, n) => {
      if (isAlias(n)) uses.add(n.source);
      else if ((n as { anchor?: string }).anchor) defines.add((n as { anchor: string }).anchor);
    },
  });
  return { defines, uses };
}

/**
 * The pairs in canonical order: ranked by the schema, each placed only once every sibling defining an anchor it
 * uses is placed (written order breaks ties).
 */
function ordered(pairs: Pair[], schema: Schema | undefined): Pair[] {
  const order = propertyOrder(schema);
  const rank = (pair: Pair): number => {
    if (isMergeKey(pair.key)) return -1;
    const at = order.indexOf(keyText(pair) ?? '');
    return at < 0 ? order.length : at;
  };
  const info = pairs.map((pair, i) => {
    const { defines, uses } = anchorsOf(pair);
    return { pair, i, rank: rank(pair), defines, uses };
  });
  const placed: typeof info = [];
  const left = [...info];
  while (left.length > 0) {
    const ready = left.filter((p) => !left.some((q) => q !== p && [...p.uses].some((a) => q.defines.has(a) && !p.defines.has(a))));
    // A cycle cannot happen in a document yaml parsed (an alias follows its anchor); keep written order if it did.
    const candidates = ready.length > 0 ? ready : left;
    const next = candidates.reduce((a, b) => (b.rank < a.rank || (b.rank === a.rank && b.i < a.i) ? b : a));
    placed.push(next);
    left.splice(left.indexOf(next), 1);
  }
  return placed.map((p) => p.pair);
}

function orderNode(node: unknown, schema: Schema | undefined): void {
  if (isMap(node)) {
    orderMap(node, schema);
  } else if (isSeq(node)) {
    for (const item of node.items) orderNode(item, schema?.items as Schema | undefined);
  }
}

function orderMap(map: YAMLMap, schema: Schema | undefined): void {
  for (const pair of map.items) {
    const key = keyText(pair);
    if (key !== undefined) orderNode(pair.value, propertySchema(schema, key));
  }
  if (propertyOrder(schema).length > 0) map.items = ordered(map.items as Pair[], schema);
}

/** True when some anchor name is defined twice in the document: reordering could change what an alias names. */
function reusesAnchorNames(doc: Document): boolean {
  const seen = new Set<string>();
  let twice = false;
  visit(doc, {
    Node: (_, n) => {
      const anchor = (n as { anchor?: string }).anchor;
      if (!anchor || isAlias(n)) return;
      if (seen.has(anchor)) twice = true;
      seen.add(anchor);
    },
  });
  return twice;
}

/** Puts the document's mapping in the order of `schema` (the kind's document schema), in place. */
export function orderDocument(doc: Document, schema: Schema): void {
  const contents = doc.contents;
  if (!isMap(contents) || reusesAnchorNames(doc)) return;
  // The comment above the first key heads the document (a modeline, a file header): it stays on top.
  const first = contents.items[0] as Pair | undefined;
  if (first && isScalar(first.key) && first.key.commentBefore) {
    const key = first.key as Node;
    contents.commentBefore = contents.commentBefore ? `${contents.commentBefore}\n${key.commentBefore}` : key.commentBefore;
    key.commentBefore = undefined;
  }
  orderMap(contents, schema);
}
