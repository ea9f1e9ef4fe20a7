// `moved_from`: a document renamed keeps its live resource. The document names its old name (or old names,
// or `Kind/old-name`); plan matches the live resource by the old marker and apply rewrites the marker only.
// Checked here with positions: each old name must be a valid name of the same kind, must not also be a
// document, must not be the document's own name, and may be claimed by one document only.
import type { ManifestIssue, SourcePos } from '../../errors.ts';
import type { Json } from '../../kinds/resource-kind.ts';
import { addressOf, type ManifestDoc } from '../document.ts';
import { valuePos } from '../pointer.ts';
import { childPointer } from '../../contract/field-path.ts';
import { NAME_PATTERN } from '../schema/parts.ts';

export const MOVED_FROM = 'moved_from';

const NAME = new RegExp(NAME_PATTERN);
const where = (pos: SourcePos): string => `${pos.file}:${pos.line}:${pos.col}`;

interface OldName {
  value: Json;
  pointer: string;
}

function oldNames(doc: ManifestDoc): OldName[] {
  const raw = doc.fields[MOVED_FROM];
  const base = `/${MOVED_FROM}`;
  if (raw === undefined || raw === null) return [];
  if (Array.isArray(raw)) return raw.map((value, i) => ({ value, pointer: childPointer(base, i) }));
  return [{ value: raw, pointer: base }];
}

/** The old addresses a document names (well-formed ones only; the others are reported by movedFromIssues). */
export function movedFromAddresses(doc: ManifestDoc): string[] {
  const out: string[] = [];
  for (const { value } of oldNames(doc)) {
    const address = oldAddress(doc, value);
    if (typeof address === 'string' && !out.includes(address)) out.push(address);
  }
  return out;
}

/** `Kind/old-name` for a well-formed value, else the reason it is not. */
function oldAddress(doc: ManifestDoc, value: Json): string | { error: string } {
  if (typeof value !== 'string') return { error: '' }; // the schema reports it
  const slash = value.indexOf('/');
  const kind = slash < 0 ? doc.kind : value.slice(0, slash);
  const name = slash < 0 ? value : value.slice(slash + 1);
  if (kind !== doc.kind) return { error: `"${value}" is a ${kind}; a ${doc.kind} can only move from another ${doc.kind} name (a move across kinds is a delete and a create)` };
  if (!NAME.test(name)) return { error: '' }; // the schema reports it
  return `${kind}/${name}`;
}

export function movedFromIssues(docs: readonly ManifestDoc[]): ManifestIssue[] {
  const issues: ManifestIssue[] = [];
  const documents = new Map<string, ManifestDoc>();
  for (const doc of docs) if (doc.name !== '' && !documents.has(addressOf(doc))) documents.set(addressOf(doc), doc);
  const claimedBy = new Map<string, { doc: ManifestDoc; pointer: string }>();
  for (const doc of docs) {
    const address = addressOf(doc);
    for (const { value, pointer } of oldNames(doc)) {
      const fail = (message: string): void => void issues.push({ pos: valuePos(doc, pointer), address, message: `${MOVED_FROM}: ${message}` });
      const old = oldAddress(doc, value);
      if (typeof old !== 'string') {
        if (old.error !== '') fail(old.error);
        continue;
      }
      if (old === address) {
        fail(`"${String(value)}" is this document's own name`);
        continue;
      }
      const other = documents.get(old);
      if (other) {
        fail(`${old} is also a document (at ${where(valuePos(other, '/name'))}); a resource cannot move from a name that still exists`);
        continue;
      }
      const earlier = claimedBy.get(old);
      if (earlier && earlier.doc !== doc) {
        fail(`${old} is also named by ${addressOf(earlier.doc)} (at ${where(valuePos(earlier.doc, earlier.pointer))}); one resource can move to one name only`);
        continue;
      }
      claimedBy.set(old, { doc, pointer });
    }
  }
  return issues;
}
