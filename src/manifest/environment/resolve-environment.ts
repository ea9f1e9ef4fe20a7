// An environment resolved into plain documents, in the order the rules give: the bases' documents, then the
// stack's own, then its Patches in file order, then `{var}` and `{template}`. Every check that runs on documents
// (schemas, the service's rules, references, cycles) then runs on the result, and finds every value at the
// place it was written (with the chain that brought it). A stack without bases, variables or Patches comes out
// as it went in, the same objects.
import { resolve } from 'node:path';
import type { ManifestIssue, SourcePos } from '../../errors.ts';
import type { Obj } from '../../kinds/resource-kind.ts';
import { addressOf, type FoundFile, type ManifestDoc, type ProjectConfig } from '../document.ts';
import { childPointer } from '../../contract/field-path.ts';
import { keyPos, rememberKeyPositions, valuePos } from '../pointer.ts';
import { readBases, readProjectDoc, type ReadDocs } from './bases.ts';
import { applySet, copyDoc, PATCH_KIND, readPatch, type PatchDoc } from './patches.ts';
import { where } from './positions.ts';
import { substituteDoc, typedValueKey, usedVars } from './substitute.ts';
import { stackVarValues } from './var-values.ts';

interface ResolvedEnvironment {
  docs: ManifestDoc[];
  issues: ManifestIssue[];
  warnings: ManifestIssue[];
  /** Every file the resolution read besides the stack's own: its bases' edgeops.yaml and manifests (absolute). */
  inputs: string[];
  /**
   * Where a `{var}` or `{template}` is left as written because it could not be resolved (its problem is
   * reported): later stages' complaints about the value there would only repeat it.
   */
  unresolved: SourcePos[];
}

/** Whether a value holds a `{var}` or `{template}` anywhere (every document of every stack is asked). */
function hasTypedValue(value: unknown): boolean {
  if (value === null || typeof value !== 'object') return false;
  if (Array.isArray(value)) {
    for (const item of value) if (hasTypedValue(item)) return true;
    return false;
  }
  if (typedValueKey(value as Obj)) return true;
  for (const key in value) if (hasTypedValue((value as Obj)[key])) return true;
  return false;
}

const copy = (doc: ManifestDoc): ManifestDoc => copyDoc(doc, rememberKeyPositions);

/** The positions of every `{var}` and `{template}` in a document. */
function typedPositions(doc: ManifestDoc, value: unknown, pointer: string, into: SourcePos[]): void {
  if (value === null || typeof value !== 'object') return;
  if (!Array.isArray(value) && typedValueKey(value as Obj)) {
    into.push(valuePos(doc, pointer));
    return;
  }
  for (const [key, item] of Object.entries(value)) typedPositions(doc, item, childPointer(pointer, key), into);
}

/**
 * The stack's documents `own` (in file order), resolved with the bases and variables its edgeops.yaml names.
 * `settingsValid`: false when that edgeops.yaml has problems of its own (reported): nothing is resolved, and
 * later stages leave its typed values alone.
 */
export function resolveEnvironment(own: readonly ManifestDoc[], config: ProjectConfig, cwd: string, readDocs: ReadDocs, settingsValid = true): ResolvedEnvironment {
  const out: ResolvedEnvironment = { docs: [], issues: [], warnings: [], inputs: [], unresolved: [] };
  const patchDocs = own.filter((d) => d.kind === PATCH_KIND);
  const usesEnvironment = config.base !== undefined || config.vars !== undefined || patchDocs.length > 0 || own.some((d) => hasTypedValue(d.fields));
  if (!usesEnvironment || config.role === 'base') {
    out.docs = [...own];
    return out;
  }
  if (!settingsValid) {
    out.docs = own.filter((d) => d.kind !== PATCH_KIND);
    for (const doc of out.docs) typedPositions(doc, doc.fields, '', out.unresolved);
    return out;
  }
  const projectFile: FoundFile | undefined = config.file ? { abs: resolve(cwd, config.file), rel: config.file } : undefined;
  const project = projectFile ? readProjectDoc(projectFile, []) : undefined;
  const bases = project && projectFile ? readBases(project, projectFile, cwd, readDocs, out.issues) : { docs: [], declarations: new Map(), files: [] };
  out.inputs.push(...bases.files);

  // Base documents first, then the stack's own: one Kind/name is defined once, and changed by a Patch.
  const docs: ManifestDoc[] = [];
  const fromBases = new Set(bases.docs);
  const byAddress = new Map<string, ManifestDoc>();
  for (const doc of bases.docs) {
    if (doc.kind === PATCH_KIND) {
      out.issues.push({ pos: doc.pos, address: PATCH_KIND, message: 'a Patch belongs in a stack\'s directory; a base holds the documents its stacks share' });
      continue;
    }
    docs.push(doc);
    if (doc.name !== '' && !byAddress.has(addressOf(doc))) byAddress.set(addressOf(doc), doc);
  }
  for (const doc of own) {
    if (doc.kind === PATCH_KIND) continue;
    const inBase = doc.name === '' ? undefined : byAddress.get(addressOf(doc));
    if (inBase && fromBases.has(inBase)) {
      out.issues.push({
        pos: keyPos(doc, '/name'), address: addressOf(doc),
        message: `also defined in a base, at ${where(inBase.pos)}: change it with a Patch (kind: Patch, target: ${addressOf(doc)}) instead of defining it again`,
      });
      continue;
    }
    docs.push(doc);
    if (doc.name !== '' && !byAddress.has(addressOf(doc))) byAddress.set(addressOf(doc), doc);
  }

  // Patches, in file order: each changes the document as the patches before it left it.
  const used = new Set<string>();
  for (const doc of [...bases.docs, ...own]) usedVars(doc.fields, used);
  const patched = new Map<ManifestDoc, ManifestDoc>(); // the loaded document -> the resolver's copy
  const removed = new Map<string, PatchDoc>();
  const dropped = new Set<ManifestDoc>();
  for (const doc of patchDocs) {
    const patch = readPatch(doc, out.issues);
    if (!patch) continue;
    const original = byAddress.get(patch.target);
    if (!original) {
      const gone = removed.get(patch.target);
      out.issues.push({
        pos: valuePos(doc, '/target'), address: PATCH_KIND, pointer: '/target',
        message: gone ? `${patch.target} was removed by the Patch at ${where(gone.doc.pos)}` : `no document ${patch.target} in the bases or this stack to patch`,
      });
      continue;
    }
    const target = patched.get(original) ?? copy(original);
    patched.set(original, target);
    target.sources = [...(target.sources ?? [where(original.pos)]), where(doc.pos)];
    if (patch.remove) {
      byAddress.delete(patch.target);
      removed.set(patch.target, patch);
      dropped.add(original);
      continue;
    }
    usedVars(patch.set ?? {}, used);
    if (!applySet(target, patch)) {
      out.warnings.push({ pos: doc.pos, address: PATCH_KIND, message: `the Patch of ${patch.target} changes nothing (its values are already the document's)` });
    }
  }
  const kept = docs.filter((d) => !dropped.has(d)).map((d) => patched.get(d) ?? d);

  // Variables and templates last, on the documents as patched.
  const vars = stackVarValues(project, bases.declarations, used, out);
  const declared = new Set(bases.declarations.keys());
  const copies = new Set(patched.values());
  for (const doc of kept) {
    // Every document of an environment names where it came from (render, the JSON plan).
    doc.sources ??= [where(doc.pos)];
    if (!hasTypedValue(doc.fields)) {
      out.docs.push(doc);
      continue;
    }
    const mine = copies.has(doc) ? doc : copy(doc);
    substituteDoc(mine, declared, vars, out.issues, out.unresolved);
    out.docs.push(mine);
  }
  return out;
}
