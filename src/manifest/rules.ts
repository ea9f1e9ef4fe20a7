// Stage 4, rules: what a schema cannot say about a document on its own. Unknown kinds (with a suggestion),
// names (pattern, and "_" which would make a name read as a literal id), duplicate Kind/name across files,
// the description limit in bytes, the metadata limit counted with the ownership marker, header names that
// differ only in case, and moved_from (resolve/moved-from.ts).
//
// Stage 6, value rules: the service's checks of a resolved body that JSON Schema cannot say (a certificate
// chain that parses, a private key that matches its leaf: the kind's `valueRules`, from src/contract), run on
// the values the service would receive, once `{file}`/`{env}` secrets are read. A problem is reported at the
// field (at its `file`/`env` when read from one) with the service's own words, never with any of the value.
// Traffic policy text (inline, or read from {file}/{env}) is checked the same way, while it is resolved, by the
// rule the service applies (src/contract/traffic-policy.ts): text that does not parse, or names a phase the edge
// does not have, is reported at the field before any request. A document written as a mapping is the schema's
// to check.
import { isObj } from '../contract/json.ts';
import { describePolicyProblem, policyDocumentProblem } from '../contract/traffic-policy.ts';
import type { ManifestIssue, SourcePos } from '../errors.ts';
import { KINDS } from '../kinds/index.ts';
import { metadataProblem } from '../kinds/marker.ts';
import type { Json, Obj, ResourceKind, ValueRules } from '../kinds/resource-kind.ts';
import { addressOf, type ManifestDoc, type ResolvedDoc } from './document.ts';
import { isWithin, keyPos, slotsAt, valuePos } from './pointer.ts';
import { childPointer } from '../contract/field-path.ts';
import { movedFromIssues } from './resolve/moved-from.ts';
import { kindValidation } from './schema.ts';
import { didYouMean } from './schema/messages.ts';
import { DESCRIPTION_MAX_BYTES, NAME_PATTERN } from './schema/parts.ts';
import { runAll, type Steps } from '../pace.ts';
import { secretSource } from './secrets.ts';

interface RuleOptions {
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
        issues.push({ pos, address, pointer: slot.pointer, message: `"${earlier}" and "${name}" are the same header (header names ignore case)` });
      });
    }
  }
  return issues;
}

function fieldIssues(doc: ManifestDoc, stack: string, push: (pointer: string, message: string, field?: string) => void): void {
  const { description, metadata } = doc.fields;
  if (typeof description === 'string') {
    const bytes = Buffer.byteLength(description);
    if (bytes > DESCRIPTION_MAX_BYTES) push('/description', `is ${bytes} bytes, at most ${DESCRIPTION_MAX_BYTES} are allowed`, '/description');
  }
  if (isObj(metadata)) {
    const problem = metadataProblem(metadata as Obj, { stack, name: addressOf(doc) });
    if (problem) push(problem.pointer, problem.message, problem.field);
  }
}

function checkRules(docs: readonly ManifestDoc[], opts: RuleOptions = {}): ManifestIssue[] {
  return runAll(ruleSteps(docs, opts));
}

/** checkRules as steps, one per document (pace.ts). */
export function* ruleSteps(docs: readonly ManifestDoc[], opts: RuleOptions = {}): Steps<ManifestIssue[]> {
  const kinds = new Set(opts.kinds ?? KINDS.map((k) => k.kind));
  const stack = opts.stack ?? 'default';
  const issues: ManifestIssue[] = [];
  const first = new Map<string, ManifestDoc>();
  for (const doc of docs) {
    yield;
    const address = addressOf(doc);
    /** A problem reported at the value at `pointer`; with `field`, about that field (its path is shown first). */
    const push = (pointer: string, message: string, field?: string): void => {
      issues.push({ pos: valuePos(doc, pointer), address, ...(field === undefined ? {} : { pointer: field }), message });
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

// Stage 6: the value rules and traffic policy text, on resolved values.
/**
 * The problems of every resolved document whose kind has value rules. A document whose checked fields are not
 * all strings, or already have a problem (`earlier`: a file that cannot be read, a key where no key belongs),
 * is left to that problem.
 */
export async function valueRuleIssues(resolved: readonly ResolvedDoc[], earlier: readonly ManifestIssue[]): Promise<ManifestIssue[]> {
  const issues: ManifestIssue[] = [];
  const checks = new Map<ResourceKind, ReturnType<ValueRules['load']>>();
  for (const { doc, kind, resource } of resolved) {
    const rules = kind.valueRules;
    if (!rules || !rules.fields.every((field) => typeof resource.spec[field] === 'string')) continue;
    const reported = (field: string): boolean => earlier.some((i) => i.address === resource.address && i.pointer !== undefined && isWithin(i.pointer, childPointer('', field)));
    if (rules.fields.some(reported)) continue;
    if (!checks.has(kind)) checks.set(kind, rules.load());
    const problem = (await checks.get(kind)!)(resource.spec);
    if (!problem) continue;
    const field = problem.field ?? rules.fields[0]!;
    const source = secretSource(doc.fields[field] ?? null, childPointer('', field));
    issues.push({ pos: valuePos(doc, source.pointer), address: resource.address, pointer: childPointer('', field), message: `${problem.message}${source.note}` });
  }
  return issues;
}

/** The problem of the policy field at `pointer` (`written` as in the manifest, `text` resolved), with where to report it. */
export function policyTextIssue(
  written: Json,
  text: Json,
  pointer: string,
  phases: readonly string[],
): { pointer: string; field: string; message: string } | undefined {
  if (typeof text !== 'string') return undefined;
  const found = policyDocumentProblem(text, phases);
  if (!found) return undefined;
  const source = secretSource(written, pointer);
  return { pointer: source.pointer, field: pointer, message: `${describePolicyProblem('', found)}${source.note}` };
}
