// The policy set of a stack: the Policy, PolicyException and PolicyTest documents of the directories named by
// edgeops.yaml `policies:` (and of the built-in pack `edgeops:baseline`), plus any among the manifests, read,
// schema-checked and compiled. Its digest (of policies and exceptions) is part of the plan checksum, so a plan
// approved under one policy set is stale under another.
import { createHash } from 'node:crypto';
import { readdirSync, readFileSync, statSync } from 'node:fs';
import { dirname, join, relative, resolve } from 'node:path';
import type { ManifestIssue, SourcePos } from '../errors.ts';
import { canonicalJson } from '../kinds/marker.ts';
import type { Json } from '../kinds/resource-kind.ts';
import type { DesiredState, ManifestDoc, ProjectConfig } from '../manifest/document.ts';
import { parseText } from '../manifest/parse.ts';
import { BASELINE, BASELINE_YAML } from './baseline.ts';
import { compilePolicies, type CompiledPolicy, type LineReader } from './compile.ts';
import { readPolicyDocuments, type PolicyExceptionDoc, type PolicyTestDoc } from './documents.ts';
import { isPolicyKind } from './schemas.ts';

export interface PolicySet {
  policies: CompiledPolicy[];
  exceptions: PolicyExceptionDoc[];
  tests: PolicyTestDoc[];
  /** `sha256:` of the policies and exceptions, whatever their files. */
  digest: string;
  /** The files the set was read from (the Action compares them with the pull request's changes). */
  files: string[];
  readLine: LineReader;
  /** Notes for validate: a policy without a test. */
  warnings: string[];
}

/** A stack's policies, with its resource documents by address (the positions results point at). */
interface StackPolicies {
  set: PolicySet;
  docs: ReadonlyMap<string, ManifestDoc>;
}

// Compiled programs are no data of the desired state: kept beside it, so it stays plain JSON (goldens, tests)
// and the manifest stages need not know the policy types.
const ATTACHED = new WeakMap<DesiredState, StackPolicies>();

export function attachPolicies(desired: DesiredState, policies: StackPolicies): void {
  ATTACHED.set(desired, policies);
}

/** The stack's policies, when it has any. */
export const policiesOf = (desired: DesiredState): StackPolicies | undefined => ATTACHED.get(desired);

const YAML_NAME = /\.ya?ml$/i;

function yamlFilesUnder(dir: string): string[] {
  const out: string[] = [];
  const walk = (at: string): void => {
    for (const entry of readdirSync(at, { withFileTypes: true }).sort((a, b) => a.name.localeCompare(b.name))) {
      if (entry.name.startsWith('.') || entry.name === 'node_modules') continue;
      const path = join(at, entry.name);
      if (entry.isDirectory()) walk(path);
      else if (entry.isFile() && YAML_NAME.test(entry.name)) out.push(path);
    }
  };
  walk(dir);
  return out;
}

/** Documents of a YAML text, as ManifestDocs (positions kept). */
function docsOfText(text: string, file: string, dir: string, issues: ManifestIssue[]): ManifestDoc[] {
  const parsed = parseText(text, file);
  issues.push(...parsed.issues);
  return parsed.docs.map((p) => {
    const { kind, name, ...fields } = p.value;
    return { kind: String(kind ?? ''), name: typeof name === 'string' ? name : '', fields, pos: p.pos, positions: p.positions, dir };
  });
}

/** The documents of `policies:` entries (directories relative to the project file, or `edgeops:baseline`). */
/** Where an entry of `policies:` is written in the project file, for a message about it; else the file's start. */
function entryPos(projectFile: string | undefined, entry: string, cwd: string): SourcePos {
  if (!projectFile) return { file: '.', line: 1, col: 1 };
  const lines = safeRead(resolve(cwd, projectFile)).split('\n');
  const line = lines.findIndex((l) => /^policies\s*:/.test(l) || (l.includes(entry) && /^\s*-/.test(l)));
  if (line < 0) return { file: projectFile, line: 1, col: 1 };
  const col = lines[line]!.indexOf(entry);
  return { file: projectFile, line: line + 1, col: col < 0 ? 1 : col + 1 };
}

function readPolicySources(entries: readonly string[], base: string, cwd: string, texts: Map<string, string>, issues: ManifestIssue[], projectFile?: string): ManifestDoc[] {
  const docs: ManifestDoc[] = [];
  for (const entry of entries) {
    if (entry === BASELINE) {
      texts.set(BASELINE, BASELINE_YAML);
      docs.push(...docsOfText(BASELINE_YAML, BASELINE, cwd, issues));
      continue;
    }
    const abs = resolve(base, entry);
    let files: string[];
    try {
      files = statSync(abs).isDirectory() ? yamlFilesUnder(abs) : [abs];
    } catch {
      issues.push({ pos: entryPos(projectFile, entry, cwd), message: `policies: "${entry}" does not exist (${relative(cwd, abs) || '.'})` });
      continue;
    }
    for (const file of files) {
      const rel = relative(cwd, file);
      const text = readFileSync(file, 'utf8');
      texts.set(rel, text);
      for (const doc of docsOfText(text, rel, dirname(file), issues)) {
        if (isPolicyKind(doc.kind)) docs.push(doc);
        else issues.push({ pos: doc.pos, message: `a policies directory holds Policy, PolicyException and PolicyTest documents, not ${doc.kind || 'a document without kind'}` });
      }
    }
  }
  return docs;
}

function digestOf(docs: readonly ManifestDoc[]): string {
  const meaning = docs
    .filter((d) => d.kind === 'Policy' || d.kind === 'PolicyException')
    .map((d) => ({ kind: d.kind, name: d.name, fields: d.fields as Json }))
    .sort((a, b) => `${a.kind}/${a.name}`.localeCompare(`${b.kind}/${b.name}`));
  return `sha256:${createHash('sha256').update(canonicalJson(meaning as Json)).digest('hex')}`;
}

/**
 * The stack's policy set from its project file and the policy documents among its manifests; undefined when it
 * has none. Every problem (schema, CEL syntax and types) is an issue at its file:line:col.
 */
export function loadPolicySet(config: ProjectConfig, manifestDocs: readonly ManifestDoc[], cwd: string): { set?: PolicySet; issues: ManifestIssue[] } {
  const issues: ManifestIssue[] = [];
  const texts = new Map<string, string>();
  const base = config.file ? dirname(resolve(cwd, config.file)) : cwd;
  // A policies directory inside the stack's own tree is read both ways: each document counts once.
  const docs = uniqueDocs([...readPolicySources(config.policies ?? [], base, cwd, texts, issues, config.file), ...manifestDocs]);
  if (docs.length === 0) return { issues };
  return buildPolicySet(docs, texts, cwd, issues);
}

/**
 * `edgeops policy test PATH...`: the policy documents of each path (a policies directory or file, a stack
 * directory with its edgeops.yaml's `policies:`, or `edgeops:baseline`); documents of other kinds are skipped.
 */
export function loadPolicyPaths(paths: readonly string[], cwd: string): { set?: PolicySet; issues: ManifestIssue[] } {
  const issues: ManifestIssue[] = [];
  const texts = new Map<string, string>();
  const docs: ManifestDoc[] = [];
  for (const path of paths) {
    if (path === BASELINE) {
      docs.push(...readPolicySources([BASELINE], cwd, cwd, texts, issues));
      continue;
    }
    const abs = resolve(cwd, path);
    const project = ['edgeops.yaml', 'edgeops.yml'].map((f) => join(abs, f)).find((f) => statSync(f, { throwIfNoEntry: false })?.isFile());
    if (project) {
      const config = docsOfText(readFileSync(project, 'utf8'), relative(cwd, project), abs, issues)[0]?.fields.policies;
      if (Array.isArray(config)) docs.push(...readPolicySources(config.map(String), abs, cwd, texts, issues));
    }
    let files: string[];
    try {
      files = statSync(abs).isDirectory() ? yamlFilesUnder(abs) : [abs];
    } catch {
      issues.push({ pos: { file: path, line: 1, col: 1 }, message: 'does not exist' });
      continue;
    }
    for (const file of files) {
      if (file === project || /^edgeops\.ya?ml$/i.test(file.slice(dirname(file).length + 1))) continue;
      const rel = relative(cwd, file);
      const text = readFileSync(file, 'utf8');
      texts.set(rel, text);
      docs.push(...docsOfText(text, rel, dirname(file), issues).filter((d) => isPolicyKind(d.kind)));
    }
  }
  const unique = uniqueDocs(docs);
  if (unique.length === 0) return { issues };
  return buildPolicySet(unique, texts, cwd, issues);
}

const uniqueDocs = (docs: readonly ManifestDoc[]): ManifestDoc[] => [...new Map(docs.map((d) => [`${d.pos.file}:${d.pos.line}:${d.pos.col}`, d])).values()];

function buildPolicySet(docs: ManifestDoc[], texts: Map<string, string>, cwd: string, issues: ManifestIssue[]): { set?: PolicySet; issues: ManifestIssue[] } {
  const read = readPolicyDocuments(docs);
  issues.push(...read.issues);
  const lineCache = new Map<string, string[]>();
  const readLine: LineReader = (file, line) => {
    let lines = lineCache.get(file);
    if (!lines) {
      const text = texts.get(file) ?? safeRead(resolve(cwd, file));
      lineCache.set(file, (lines = text.split('\n')));
    }
    return lines[line - 1];
  };
  const { compiled, issues: celIssues } = compilePolicies(read.documents.policies, readLine);
  issues.push(...celIssues);
  const { exceptions, tests } = read.documents;
  for (const e of exceptions) {
    if (!read.documents.policies.some((p) => p.name === e.policy)) issues.push({ pos: e.doc.positions.get('/policy') ?? e.doc.pos, address: `PolicyException/${e.name}`, pointer: '/policy', message: `no policy named "${e.policy}"` });
  }
  const tested = new Set(tests.map((t) => t.policy));
  const warnings = read.documents.policies.filter((p) => !tested.has(p.name)).map((p) => `${p.doc.pos.file}:${p.doc.pos.line}:${p.doc.pos.col}: Policy/${p.name} has no PolicyTest (edgeops policy test runs them)`);
  const files = [...new Set(docs.map((d) => d.pos.file))].filter((f) => f !== BASELINE).sort();
  return { set: { policies: compiled, exceptions, tests, digest: digestOf(docs), files, readLine, warnings }, issues };
}

function safeRead(file: string): string {
  try {
    return readFileSync(file, 'utf8');
  } catch {
    return '';
  }
}
