// How one value or one field path is shown in a plan, on one line. Shared by the text and Markdown renderers so
// both print exactly the same words; the JSON renderer keeps raw values instead. Values that do not fit on one
// line (multi-line strings, long lists and mappings) are laid out by value-lines.ts.
import { createHash } from 'node:crypto';
import { showKey, showPath } from '../contract/field-path.ts';
import type { Json } from '../kinds/resource-kind.ts';
import type { FieldChange } from '../engine/plan-data.ts';
import { isPendingRef } from '../kinds/refs.ts';

export const SENSITIVE = '(sensitive)';
const KNOWN_AFTER_APPLY = '(known after apply)';

/** Text that is PEM blocks and nothing else (a certificate, a chain, a CA bundle). */
const PEM_ONLY = /^\s*-----BEGIN ([A-Z0-9 ]+)-----[\s\S]*-----END [A-Z0-9 ]+-----\s*$/;

export function isPem(value: Json | undefined): value is string {
  return typeof value === 'string' && PEM_ONLY.test(value);
}

/**
 * A PEM as `<PEM CERTIFICATE, 1 block, 1234 bytes, sha256:1a2b3c4d5e6f>`: its base64 says nothing to a reader,
 * and what the certificates in it say is shown beside it (value-lines.ts). Every other value is shown in full;
 * secrets never reach the renderers with a value.
 */
function pemFingerprint(text: string): string {
  const bytes = Buffer.byteLength(text);
  const digest = createHash('sha256').update(text).digest('hex').slice(0, 12);
  const label = PEM_ONLY.exec(text)?.[1] ?? 'BLOCK';
  const blocks = text.match(/-----BEGIN [A-Z0-9 ]+-----/g)?.length ?? 1;
  return `<PEM ${label}, ${blocks} block${blocks === 1 ? '' : 's'}, ${bytes} bytes, sha256:${digest}>`;
}

/** A string spanning lines (not a PEM): shown as its lines, not on one. */
export function isMultiLine(value: Json | undefined): value is string {
  return typeof value === 'string' && value.includes('\n') && !isPem(value);
}

/** `Kind/name` by live id, for the ids of managed resources (Plan.names). */
export type IdNames = Readonly<Record<string, string>>;

const NO_NAMES: IdNames = {};

function formatString(text: string, names: IdNames): string {
  const name = Object.hasOwn(names, text) ? names[text] : undefined;
  if (name !== undefined) return `${name} (${text})`;
  if (isPem(text)) return pemFingerprint(text);
  return JSON.stringify(text);
}

/**
 * A value as one line: strings quoted, objects and lists as compact JSON-like text, PendingRefs by name, and
 * the id of a managed resource as `Kind/name (id)`.
 */
export function formatValue(value: Json | undefined, names: IdNames = NO_NAMES): string {
  return formatWithin(value, Infinity, names)!;
}

const within = (text: string, limit: number): string | undefined => (text.length <= limit ? text : undefined);

/**
 * formatValue's text when it is at most `limit` characters long, else undefined, found out as soon as the text
 * passes the limit: whether a large value fits on one line is known without writing all of it out.
 */
export function formatWithin(value: Json | undefined, limit: number, names: IdNames = NO_NAMES): string | undefined {
  if (value === undefined) return within('null', limit);
  if (typeof value === 'string') return within(formatString(value, names), limit);
  if (value === null || typeof value !== 'object') return within(JSON.stringify(value), limit);
  if (isPendingRef(value)) return within(`id of ${value.$ref} ${KNOWN_AFTER_APPLY}`, limit);
  const parts: string[] = [];
  let length = 2; // the brackets
  const add = (prefix: string, item: Json): boolean => {
    const separator = parts.length === 0 ? 0 : 2;
    const text = formatWithin(item, limit - length - separator - prefix.length, names);
    if (text === undefined) return false;
    parts.push(prefix + text);
    length += separator + prefix.length + text.length;
    return true;
  };
  if (Array.isArray(value)) {
    for (let i = 0; i < value.length; i++) if (!add('', value[i]!)) return undefined;
    return within(`[${parts.join(', ')}]`, limit);
  }
  for (const key in value) if (Object.hasOwn(value, key) && !add(`${formatKey(key)}: `, value[key]!)) return undefined;
  return within(parts.length === 0 ? '{}' : `{${parts.join(', ')}}`, limit);
}

/** Each known id in a message (an API error naming a resource) followed by its `Kind/name`. */
export function nameIdsIn(text: string, names: IdNames = NO_NAMES): string {
  return text.replace(/\b[a-z]+_[A-Za-z0-9]+\b/g, (id) => (Object.hasOwn(names, id) ? `${names[id]} (${id})` : id));
}

export const formatKey = showKey;

/** A field's path in the one notation (contract/field-path.ts); the whole resource has a name of its own. */
export function formatPath(pointer: string): string {
  return pointer === '' || pointer === '/' ? '(whole resource)' : showPath(pointer);
}

/** The right-hand side of a change line: `new`, `old -> new` or `old` (for a removal). */
export function formatChange(change: FieldChange, names: IdNames = NO_NAMES): string {
  // A value holding references to resources this plan creates shows each as `id of Kind/name (known after apply)`.
  const newText = change.sensitive ? SENSITIVE
    : change.knownAfterApply && change.new === undefined ? KNOWN_AFTER_APPLY
    : formatValue(change.new, names);
  const oldText = change.sensitive ? SENSITIVE : formatValue(change.old, names);
  switch (change.kind) {
    case 'add':
      return newText;
    case 'remove':
      return change.sensitive ? SENSITIVE : `${oldText} -> null`;
    case 'replace':
      return change.sensitive ? SENSITIVE : `${oldText} -> ${newText}`;
  }
}
