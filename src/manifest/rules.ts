// Stage 3, rules: what a schema cannot say about a document on its own. Unknown kinds (with a suggestion),
// names (pattern, and "_" which would make a name read as a literal id), duplicate Kind/name across files,
// the description limit in bytes, the metadata limit counted with the ownership marker, and header names that
// differ only in case.
import { isObj } from '../contract/json.ts';
import type { ManifestIssue, SourcePos } from '../errors.ts';
import { KINDS } from '../kinds/index.ts';
import { addressOf, type ManifestDoc } from './document.ts';
import { DESCRIPTION_MAX_BYTES, METADATA_MAX_BYTES, NAME_PATTERN } from './schema-parts.ts';
import { movedFromIssues } from './moved-from.ts';
import { didYouMean } from './schema/messages.ts';
import { childPointer, fieldPath, keyPos, slotsAt, valuePos } from './pointer.ts';
import { kindValidation } from './schema.ts';

/** The reserved metadata key holding the ownership marker (DESIGN 4). */
export const MARKER_KEY = 'edgeops';

export interface RuleOptions {
  /** The stack the marker will name (its length counts against the metadata limit). Default "default". */
  stack?: string;
  /** Kinds that exist (default: every kind of KINDS). */
  kinds?: readonly string[];
}

const NAME = new RegExp(NAME_PATTERN);
const where = (pos: SourcePos): string => `${pos.file}:${pos.line}:${pos.col}`;

const NAME_RULE = 'lower-case letters, digits and "-", at most 64 characters, starting and ending with a letter or digit';

function nameIssue(doc: ManifestDoc): string | undefined {
  const { name } = doc;
  if (!doc.positions.has('/name') || NAME.test(name)) return undefined;
  if (!name.includes('_')) return `name "${name}" must be ${NAME_RULE}`;
  // "_" gets its own reason; any other problem is named too, so one fix makes the name valid.
  const upper = /[A-Z]/.test(name);
  const message = `name "${name}" must not contain "_" (a value with "_" is read as a literal id)${upper ? ' or upper-case letters' : ''}`;
  return NAME.test(name.replace(/_/g, '-').toLowerCase()) ? message : `${message}, and must be ${NAME_RULE}`;
}

/** Header names ignore case: `Content-Type` and `content-type` in one map (or list) are one header given twice. */
function headerIssues(doc: ManifestDoc, address: string): ManifestIssue[] {
  const issues: ManifestIssue[] = [];
  for (const pattern of kindValidation(doc.kind)?.headerPointers ?? []) {
    for (const slot of slotsAt(doc.fields, pattern)) {
      const value = slot.value;
      const names = isObj(value) ? Object.keys(value) : Array.isArray(value) ? value.filter((v): v is string => typeof v === 'string') : [];
      const first = new Map<string, string>();
      names.forEach((name, i) => {
        const earlier = first.get(name.toLowerCase());
        if (earlier === undefined) return void first.set(name.toLowerCase(), name);
        if (earlier === name) return; // an exact repeat: the schema's uniqueItems reports it
        const pos = isObj(value) ? keyPos(doc, childPointer(slot.pointer, name)) : valuePos(doc, childPointer(slot.pointer, i));
        issues.push({ pos, address, message: `${fieldPath(slot.pointer)}: "${earlier}" and "${name}" are the same header (header names ignore case)` });
      });
    }
  }
  return issues;
}

/** The metadata as stored: the user's keys plus the marker; its size is what the service limits. */
export function storedMetadata(metadata: Record<string, unknown>, stack: string, address: string): string {
  return JSON.stringify({ ...metadata, [MARKER_KEY]: { stack, name: address } });
}

function fieldIssues(doc: ManifestDoc, stack: string, push: (pointer: string, message: string) => void): void {
  const { description, metadata } = doc.fields;
  if (typeof description === 'string') {
    const bytes = Buffer.byteLength(description);
    if (bytes > DESCRIPTION_MAX_BYTES) push('/description', `description: is ${bytes} bytes, at most ${DESCRIPTION_MAX_BYTES} are allowed`);
  }
  if (isObj(metadata)) {
    if (Object.hasOwn(metadata, MARKER_KEY)) {
      push(`/metadata/${MARKER_KEY}`, `metadata: the key "${MARKER_KEY}" is reserved for edgeops' ownership marker`);
      return;
    }
    const bytes = Buffer.byteLength(storedMetadata(metadata, stack, addressOf(doc)));
    if (bytes > METADATA_MAX_BYTES) {
      push('/metadata', `metadata: is ${bytes} bytes as stored with the ownership marker, at most ${METADATA_MAX_BYTES} are allowed`);
    }
  }
}

export function checkRules(docs: readonly ManifestDoc[], opts: RuleOptions = {}): ManifestIssue[] {
  const kinds = new Set(opts.kinds ?? KINDS.map((k) => k.kind));
  const stack = opts.stack ?? 'default';
  const issues: ManifestIssue[] = [];
  const first = new Map<string, ManifestDoc>();
  for (const doc of docs) {
    const address = addressOf(doc);
    const push = (pointer: string, message: string): void => {
      issues.push({ pos: valuePos(doc, pointer), address, message });
    };
    if (!kinds.has(doc.kind)) {
      push('/kind', `unknown kind "${doc.kind}"${didYouMean(doc.kind, kinds)}`);
      continue;
    }
    const bad = nameIssue(doc);
    if (bad) push('/name', bad);
    fieldIssues(doc, stack, push);
    issues.push(...headerIssues(doc, address));
    if (doc.name === '') continue;
    const earlier = first.get(address);
    if (!earlier) {
      first.set(address, doc);
      continue;
    }
    push('/name', `defined more than once: also at ${where(valuePos(earlier, '/name'))}`);
    issues.push({
      pos: valuePos(earlier, '/name'),
      address,
      message: `defined more than once: also at ${where(valuePos(doc, '/name'))}`,
    });
  }
  issues.push(...movedFromIssues(docs.filter((d) => kinds.has(d.kind))));
  return issues;
}
