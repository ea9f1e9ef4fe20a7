// `kind: Patch` documents: what one environment changes in the documents it shares with others. `set` is a JSON
// merge patch (RFC 7386: mappings merge, lists and scalars are replaced whole, null removes), `remove: true`
// drops the document. A `{var}` or `{template}` counts as one value on either side: it is never merged into.
// Each value a patch writes keeps the patch file's position, chained to the document it lands in.
import { isAbsolute, relative, resolve } from 'node:path';
import { isObj } from '../../contract/json.ts';
import type { ManifestIssue, SourcePos } from '../../errors.ts';
import type { Json, Obj } from '../../kinds/resource-kind.ts';
import type { ManifestDoc } from '../document.ts';
import { childPointer } from '../../contract/field-path.ts';
import { cloneJson, keyPos, keyPositionsOf, valuePos } from '../pointer.ts';
import { copyWithin, dropWithin, where } from './positions.ts';
import { typedValueKey } from './substitute.ts';

export const PATCH_KIND = 'Patch';

const PATCH_KEYS = new Set(['target', 'set', 'remove']);
const TARGET = /^([A-Za-z]+)\/(.+)$/;

/** A Patch document, checked: its target's address and what it does. */
export interface PatchDoc {
  doc: ManifestDoc;
  target: string;
  set?: Obj;
  remove: boolean;
}

/** The Patch of `doc`, or undefined with its problems in `issues`. */
export function readPatch(doc: ManifestDoc, issues: ManifestIssue[]): PatchDoc | undefined {
  const before = issues.length;
  const problem = (pointer: string, message: string, at = valuePos(doc, pointer)): void => {
    issues.push({ pos: at, address: 'Patch', ...(pointer ? { pointer } : {}), message });
  };
  if (doc.name !== '') problem('/name', 'a Patch has no name: `target: Kind/name` names the document it changes', keyPos(doc, '/name'));
  for (const key of Object.keys(doc.fields)) if (!PATCH_KEYS.has(key)) problem(childPointer('', key), 'unknown field (a Patch has target, set and remove)', keyPos(doc, childPointer('', key)));
  const { target, set, remove } = doc.fields;
  if (target === undefined) problem('', 'missing field "target" (the document to change, as Kind/name)', doc.pos);
  else if (typeof target !== 'string' || !TARGET.test(target)) problem('/target', 'must be Kind/name, e.g. HTTPSEdge/api');
  if (set !== undefined && !isObj(set)) problem('/set', 'must be a mapping of the fields to change (a JSON merge patch)');
  if (remove !== undefined && remove !== true) problem('/remove', 'must be true (leave it out to keep the document)');
  if (set === undefined && remove === undefined) problem('', 'a Patch needs set (fields to change) or remove: true', doc.pos);
  if (set !== undefined && remove === true) problem('/remove', 'a Patch either sets fields or removes the document, not both');
  if (isObj(set)) {
    for (const key of ['kind', 'name'] as const) {
      if (key in set) problem(childPointer('/set', key), `a Patch cannot change the ${key} (to rename, change the base and give the document moved_from)`, keyPos(doc, childPointer('/set', key)));
    }
  }
  if (issues.length > before) return undefined;
  return { doc, target: target as string, ...(isObj(set) ? { set } : {}), remove: remove === true };
}

/** `{file: PATH}` or `{env: VAR}`: a secret's source, one value like `{var}` (never merged into). */
function secretSourceKey(value: Json): 'file' | 'env' | undefined {
  if (!isObj(value)) return undefined;
  const keys = Object.keys(value);
  return keys.length === 1 && (keys[0] === 'file' || keys[0] === 'env') ? keys[0] : undefined;
}

/** A value that a merge patch replaces whole, never merges into. */
const isAtomic = (value: Json): boolean => !isObj(value) || typedValueKey(value) !== undefined || secretSourceKey(value) !== undefined;

/**
 * RFC 7386's MergePatch of a value that is no mapping (or an atomic one): the patch with its nulls left out. A
 * `{file: PATH}` written in the patch's directory is rebased onto the document's, which `{file}` is read from.
 */
function withoutNulls(value: Json, from: string, to: string): Json {
  if (secretSourceKey(value) === 'file' && typeof (value as Obj).file === 'string' && from !== to) {
    const path = (value as Obj).file as string;
    return { file: isAbsolute(path) ? path : relative(to, resolve(from, path)) };
  }
  if (isAtomic(value)) return cloneJson(value);
  const out: Obj = {};
  for (const key in value as Obj) if ((value as Obj)[key] !== null) out[key] = withoutNulls((value as Obj)[key]!, from, to);
  return out;
}

/**
 * Applies `patch.set` to `target` (a copy the caller owns), moving positions; returns whether anything changed.
 */
export function applySet(target: ManifestDoc, patch: PatchDoc): boolean {
  const via = `Patch of ${patch.target}; document at ${where(target.pos)}`;
  const keys = keyPositionsOf(target);
  const patchKeys = keyPositionsOf(patch.doc);
  const before = JSON.stringify(target.fields);
  const merge = (into: Obj, changes: Obj, pointer: string): void => {
    for (const key in changes) {
      const change = changes[key]!;
      const at = childPointer(pointer, key);
      const current = into[key];
      if (change === null) {
        delete into[key];
        dropWithin(target.positions, at);
        if (keys) dropWithin(keys, at);
      } else if (!isAtomic(change) && current !== undefined && !isAtomic(current)) {
        merge(current as Obj, change as Obj, at);
      } else {
        into[key] = withoutNulls(change, patch.doc.dir, target.dir);
        dropWithin(target.positions, at);
        if (keys) dropWithin(keys, at);
        copyWithin(patch.doc.positions, `/set${at}`, target.positions, at, via);
        if (keys && patchKeys) copyWithin(patchKeys, `/set${at}`, keys, at, via);
      }
      if (change !== null && keys && patchKeys?.has(`/set${at}`)) keys.set(at, { ...patchKeys.get(`/set${at}`)!, via });
    }
  };
  merge(target.fields, patch.set ?? {}, '');
  return JSON.stringify(target.fields) !== before;
}

/** A document as the resolver's own copy: its fields and position tables can be changed without touching the loaded one. */
export function copyDoc(doc: ManifestDoc, remember: (copy: ManifestDoc, keys: Map<string, SourcePos>) => void): ManifestDoc {
  const copy: ManifestDoc = { ...doc, fields: cloneJson(doc.fields), positions: new Map(doc.positions) };
  remember(copy, new Map(keyPositionsOf(doc) ?? []));
  return copy;
}
