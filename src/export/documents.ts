// One exported resource -> one manifest document: the live body in the request shape (so `plan` compares it
// equal), references to exported resources by name, the user's metadata as a mapping without the marker, and a
// `{env: ...}` placeholder for each write-only field the service never returns (a certificate's private key).
import { isObj } from '../contract/json.ts';
import { MARKER_KEY, parseMetadata } from '../kinds/marker.ts';
import { pointerSegments } from '../kinds/refs.ts';
import type { Json, Obj } from '../kinds/resource-kind.ts';
import { placeholderEnvVar } from './names.ts';
import type { ExportEntry, Selection } from './select.ts';

/** The manifest document, in field order: kind, name, description, metadata, then the rest. */
type ManifestDocument = { kind: string; name: string } & Obj;

export interface Placeholder {
  /** The environment variable the document reads, e.g. EDGEOPS_KEY_WILD. */
  envVar: string;
  address: string;
  field: string;
}

export interface ExportedDoc {
  entry: ExportEntry;
  doc: ManifestDocument;
  placeholders: Placeholder[];
  warnings: string[];
}

/** Short tags for the placeholder variable of known write-only fields; others use the field name. */
const PLACEHOLDER_TAGS: Record<string, string> = { private_key_pem: 'KEY' };


/** Replaces the values at a ref pointer (`/a/b`, or each element of `/a/ids/*`) in place. */
function mapAt(body: Obj, pointer: string, fn: (value: Json) => Json): void {
  const segments = pointerSegments(pointer);
  const many = segments[segments.length - 1] === '*';
  const path = many ? segments.slice(0, -1) : segments;
  let parent: Json | undefined = body;
  for (const seg of path.slice(0, -1)) parent = isObj(parent) ? parent[seg] : undefined;
  const last = path[path.length - 1]!;
  if (!isObj(parent) || parent[last] === undefined || parent[last] === null) return;
  const value: Json = parent[last];
  parent[last] = many ? (Array.isArray(value) ? value.map(fn) : value) : fn(value);
}

/**
 * A reference becomes the target's name when the target is exported too, except from a managed resource to an
 * unmanaged one: that reference was a literal id in the manifests it came from, and keeping the id means
 * `plan` on an `--all` export shows no change for any managed resource, adopted or not.
 */
function referenceName(entry: ExportEntry, kinds: readonly string[], id: Json, selection: Selection): Json {
  if (typeof id !== 'string') return id;
  const target = selection.byId.get(id);
  if (!target || !kinds.includes(target.kind.kind)) return id;
  if (entry.managed && !target.managed) return id;
  return target.name;
}

export function toDocument(entry: ExportEntry, selection: Selection): ExportedDoc {
  const { kind, item, name } = entry;
  const address = `${kind.kind}/${name}`;
  const body = structuredClone(entry.body);
  const warnings: string[] = [];
  const placeholders: Placeholder[] = [];

  for (const ref of kind.refs) mapAt(body, ref.pointer, (id) => referenceName(entry, ref.kinds, id, selection));

  if (kind.identity === 'marker' && !entry.managed) {
    const raw = item.raw.metadata;
    const { user } = parseMetadata(raw);
    if (typeof raw === 'string' && raw.trim() !== '' && user === undefined) {
      warnings.push(`${address} (${item.id}): its metadata is not a JSON object, so it is not exported (adopting the resource replaces it)`);
    }
    if (isObj(body.metadata) && MARKER_KEY in body.metadata) {
      const { [MARKER_KEY]: _reserved, ...rest } = body.metadata;
      if (Object.keys(rest).length > 0) body.metadata = rest;
      else delete body.metadata;
      warnings.push(`${address} (${item.id}): its metadata key "${MARKER_KEY}" is reserved for the ownership marker and is not exported`);
    }
  }

  for (const field of kind.writeOnly) {
    const envVar = placeholderEnvVar(PLACEHOLDER_TAGS[field] ?? field.toUpperCase(), name);
    body[field] = { env: envVar };
    placeholders.push({ envVar, address, field });
  }

  const { description, metadata, ...rest } = body;
  const doc: ManifestDocument = {
    kind: kind.kind,
    name,
    ...(description !== undefined ? { description } : {}),
    ...(metadata !== undefined ? { metadata } : {}),
    ...rest,
  };
  return { entry, doc, placeholders, warnings };
}
