// The bases of a stack: directories of shared documents, each with an edgeops.yaml that says `role: base` and
// declares the variables its documents use. Read in the order the stack lists them, before its own documents.
import { statSync } from 'node:fs';
import { dirname, relative, resolve } from 'node:path';
import { isObj } from '../../contract/json.ts';
import type { ManifestIssue, SourcePos } from '../../errors.ts';
import type { Json } from '../../kinds/resource-kind.ts';
import { discover, nearestProjectFiles } from '../discover.ts';
import type { FoundFile, ManifestDoc } from '../document.ts';
import { parseFile, type ParsedDoc } from '../parse.ts';
import { childPointer } from '../../contract/field-path.ts';
import { keyPos, rememberKeyPositions, valuePos } from '../pointer.ts';
import { issuesFromAjv } from '../schema/messages.ts';
import { projectErrors } from '../schema.ts';
import { where } from './positions.ts';
import type { VarDeclaration, VarType } from './var-types.ts';

/** Reads one manifest file into documents (read-desired.ts's loader), its problems into `issues`. */
export type ReadDocs = (file: FoundFile, issues: ManifestIssue[]) => ManifestDoc[];

/** An edgeops.yaml read with the positions of its values. */
export function readProjectDoc(file: FoundFile, issues: ManifestIssue[]): ParsedDoc | undefined {
  const parsed = parseFile(file);
  issues.push(...parsed.issues);
  const doc = parsed.docs[0];
  if (doc) rememberKeyPositions(doc, doc.keys);
  return doc;
}

interface Bases {
  docs: ManifestDoc[];
  declarations: Map<string, VarDeclaration>;
  /** Every file the bases were read from: their edgeops.yaml and manifests (absolute). */
  files: string[];
}

/** The variables a base's edgeops.yaml declares, each checked against its default. */
function declarationsOf(project: ParsedDoc, into: Map<string, VarDeclaration>, issues: ManifestIssue[]): void {
  const vars = project.value.vars;
  if (!isObj(vars)) return;
  for (const [name, spec] of Object.entries(vars)) {
    if (!isObj(spec)) continue; // the schema has said what is wrong with it
    const at = childPointer('/vars', name);
    const declaration: VarDeclaration = { name, type: spec.type as VarType, pos: keyPos(project, at) };
    if ('default' in spec) {
      const defaultAt = childPointer(at, 'default');
      declaration.default = spec.default as Json;
      declaration.defaultPos = valuePos(project, defaultAt);
      declaration.defaultPositions = new Map([...project.positions].filter(([p]) => p === defaultAt || p.startsWith(`${defaultAt}/`)).map(([p, pos]) => [p.slice(defaultAt.length), pos]));
    }
    const earlier = into.get(name);
    if (earlier && earlier.type !== declaration.type) {
      issues.push({ pos: declaration.pos, pointer: at, message: `declared as ${declaration.type} here and as ${earlier.type} at ${where(earlier.pos)}: the bases of one stack must agree` });
      continue;
    }
    if (!earlier) into.set(name, declaration);
  }
}

/**
 * Reads the bases a stack's edgeops.yaml (`project`, read from `projectFile`) lists: each must be a directory
 * with an edgeops.yaml saying `role: base`.
 */
export function readBases(project: ParsedDoc, projectFile: FoundFile, cwd: string, readDocs: ReadDocs, issues: ManifestIssue[]): Bases {
  const out: Bases = { docs: [], declarations: new Map(), files: [] };
  const list = project.value.base;
  if (!Array.isArray(list)) return out;
  list.forEach((entry, i) => {
    if (typeof entry !== 'string') return;
    const at = childPointer('/base', i);
    const pos: SourcePos = valuePos(project, at);
    const dir = resolve(dirname(projectFile.abs), entry);
    if (!statSync(dir, { throwIfNoEntry: false })?.isDirectory()) return issues.push({ pos, pointer: at, message: `${entry} is not a directory (a base is a directory of documents, relative to this file)` });
    const file = nearestProjectFiles(dir)[0];
    if (!file || dirname(file) !== dir) return issues.push({ pos, pointer: at, message: `${entry} has no edgeops.yaml: a base's edgeops.yaml says role: base and declares its variables` });
    const found: FoundFile = { abs: file, rel: relative(cwd, file) || file };
    const base = readProjectDoc(found, issues);
    if (!base) return issues.push({ pos, pointer: at, message: `${entry}'s edgeops.yaml is empty: a base's says role: base` });
    const wrong = projectErrors(base.value);
    if (wrong.length > 0) return issues.push(...issuesFromAjv(wrong, base));
    if (base.value.role !== 'base') return issues.push({ pos, pointer: at, message: `${entry} is a stack, not a base: its edgeops.yaml (${found.rel}) does not say role: base` });
    out.files.push(file);
    declarationsOf(base, out.declarations, issues);
    for (const manifest of discover([dir], cwd).manifests) {
      out.files.push(manifest.abs);
      out.docs.push(...readDocs(manifest, issues));
    }
  });
  return out;
}
