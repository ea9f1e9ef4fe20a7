// The fmt operation: every manifest file under the paths (the files plan reads, plus an edgeops.yaml inside a
// path) rewritten in the canonical layout (src/format/). All files are read and formatted before any is written:
// one file that is not YAML stops the run with its file:line:col and nothing is written. With `check`, nothing
// is written at all and the files that would change are the answer. No request is made.
import { readFileSync, writeFileSync } from 'node:fs';
import { isAbsolute, relative, resolve } from 'node:path';
import { ManifestError, NoManifestsError, type ManifestIssue } from '../errors.ts';
import { formatText } from '../format/format-text.ts';
import type { FoundFile } from '../manifest/document.ts';
import { discover, type Discovery } from '../manifest/discover.ts';
import { assertPathsExist } from '../manifest/missing-paths.ts';
import { sortIssues } from '../manifest/read-desired.ts';
import { kindSchemas } from '../manifest/schema/kinds.ts';
import { projectSchema } from '../manifest/schema/project.ts';
import type { Schema } from '../manifest/schema/parts.ts';
import { PATCH_KIND } from '../manifest/environment/patches.ts';

/** A Patch's key order: kind, target, set (in the order of its target kind's fields), remove. */
function patchOrder(schemas: ReadonlyMap<string, Schema>, target: string | undefined): Schema {
  const fields = schemas.get(target?.slice(0, target.indexOf('/')) ?? '')?.properties as Schema | undefined;
  return { properties: { kind: {}, target: {}, set: { properties: fields ?? {} }, remove: {} } };
}

interface FmtRequest {
  paths: string[];
  /** Base of relative paths and of the file names reported. */
  cwd: string;
  /** Report the files that would change; write nothing. */
  check: boolean;
}

interface FmtResult {
  /** Every file looked at, relative to the cwd. */
  files: string[];
  /** The files not in the canonical layout (rewritten unless `check`), relative to the cwd. */
  changed: string[];
}

const inside = (root: string, abs: string): boolean => {
  const rel = relative(root, abs);
  return rel === '' || (!rel.startsWith('..') && !isAbsolute(rel));
};

/** The files of a run: every manifest, and each edgeops.yaml that lies inside one of the paths. */
function filesOf(found: Discovery, cwd: string): { file: FoundFile; project: boolean }[] {
  const projects = found.projectFiles.filter((f) => found.roots.some((root) => inside(resolve(cwd, root.path), f.abs)));
  return [...found.manifests.map((file) => ({ file, project: false })), ...projects.map((file) => ({ file, project: true }))]
    .sort((a, b) => (a.file.rel < b.file.rel ? -1 : a.file.rel > b.file.rel ? 1 : 0));
}

export function run(request: FmtRequest): FmtResult {
  assertPathsExist(request.paths, request.cwd);
  const found = discover(request.paths, request.cwd);
  const issues: ManifestIssue[] = [...found.issues];
  const files = filesOf(found, request.cwd);
  if (issues.length === 0 && files.length === 0) {
    throw new NoManifestsError(`no manifests: no *.yaml or *.yml file in ${request.paths.join(', ')}; nothing to format`);
  }
  const schemas = kindSchemas();
  const project = projectSchema();
  const rewrites: { file: FoundFile; text: string }[] = [];
  for (const { file, project: isProject } of files) {
    let text: string;
    try {
      text = readFileSync(file.abs, 'utf8');
    } catch (err) {
      issues.push({ pos: { file: file.rel, line: 1, col: 1 }, message: `cannot read file: ${(err as NodeJS.ErrnoException).code ?? (err as Error).message}` });
      continue;
    }
    const schemaOf = (kind: string | undefined, target?: string): Schema | undefined =>
      isProject ? project : kind === PATCH_KIND ? patchOrder(schemas, target) : kind === undefined ? undefined : schemas.get(kind);
    const formatted = formatText(text, file.rel, schemaOf);
    issues.push(...formatted.issues);
    if (formatted.issues.length === 0 && formatted.text !== text) rewrites.push({ file, text: formatted.text });
  }
  if (issues.length > 0) throw new ManifestError(sortIssues(issues));
  if (!request.check) for (const { file, text } of rewrites) writeFileSync(file.abs, text);
  return { files: files.map((f) => f.file.rel), changed: rewrites.map((r) => r.file.rel) };
}
