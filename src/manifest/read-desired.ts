// The manifest pipeline the engine calls, its stages in order: discover (paths -> files and the project file),
// parse (YAML -> documents with positions), schema (each document against its kind's JSON Schema), rules (names,
// limits, headers, moved_from), resolve (references, parents, cycles, `{file}`/`{env}` secrets), value rules
// (the service's checks of a resolved body) and the contract (the request the kind would send). Every stage that
// can run does, so one run reports every problem of every file; then one ManifestError carries them all, in file
// order. Loading (discover and parse) reports every problem as an issue and never throws for bad input, so later
// stages still check what did load.
import { basename, dirname } from 'node:path';
import { ManifestError, NoManifestsError, type ManifestIssue, type SourcePos } from '../errors.ts';
import { checkWithContract } from './contract-check.ts';
import { discover, type DiscoveredRoot, readProjectFiles } from './discover.ts';
import { PROJECT_FILE_NAMES } from './schema/project.ts';
import { addressOf, type DesiredState, type FoundFile, type LoadedManifests, type ManifestDoc } from './document.ts';
import { assertPathsExist } from './missing-paths.ts';
import { resolveEnvironment } from './environment/resolve-environment.ts';
import { parseFile, type ParsedDoc } from './parse.ts';
import { rememberKeyPositions } from './pointer.ts';
import { Pace, runAll, runPaced, type Steps } from '../pace.ts';
import { resolveSteps } from './resolve.ts';
import { ruleSteps, valueRuleIssues } from './rules.ts';
import { validationSteps } from './schema.ts';
import { assertWholeStacks, type WholeStackCommand } from './stack-coverage.ts';
import { attachPolicies, loadPolicySet } from '../policy/policy-set.ts';
import { isPolicyKind } from '../policy/schemas.ts';

interface ReadOptions {
  env?: NodeJS.ProcessEnv;
  /** The stack chosen by a flag, if any (the metadata limit counts the marker, which names the stack). */
  stack?: string;
  /** Base of relative paths and of file names in messages (default: process.cwd()). */
  cwd?: string;
  /** Paths without documents are allowed (`--destroy`: planning the deletion of a whole stack on purpose). */
  allowEmpty?: boolean;
  /** Paths holding part of a stack are refused, worded for this command (what plans or compares from them). */
  wholeStacks?: WholeStackCommand;
  /** Deeper stack roots below the paths are not read (a run of several stacks runs each on its own). */
  ownStackFiles?: boolean;
}

const SHOWN_SKIPPED = 10;

/** Why each path yielded nothing: what it holds, and the files that were not read. */
function noDocumentsMessage(empty: readonly DiscoveredRoot[]): string {
  const lines = empty.map((root) => {
    const files = root.manifests.length;
    const holds = root.projectOnly ? 'a project file: settings, no documents'
      : files > 0
      ? `its ${files === 1 ? 'file holds' : `${files} YAML files hold`} no document (${root.manifests.slice(0, SHOWN_SKIPPED).map((f) => f.rel).join(', ')})`
      : root.settingsFiles.length > 0
      ? `no manifest besides the settings file${root.settingsFiles.length === 1 ? '' : 's'} ${root.settingsFiles.slice(0, SHOWN_SKIPPED).join(', ')}`
      : 'no *.yaml or *.yml file below it';
    const skipped = root.skipped.length === 0 ? ''
      : `; skipped ${root.skipped.slice(0, SHOWN_SKIPPED).join(', ')}${root.skipped.length > SHOWN_SKIPPED ? ` and ${root.skipped.length - SHOWN_SKIPPED} more` : ''} (not .yaml/.yml)`;
    return `  ${root.path}: ${holds}${skipped}`;
  });
  return [
    `no manifests: ${empty.length === 1 ? 'this path yields' : 'these paths yield'} no document, so there is nothing to plan from:`,
    ...lines,
    'Pass the directories or files that hold the manifests. To delete every resource of the stack on purpose, plan or apply a path without documents with --destroy.',
  ].join('\n');
}

export function sortIssues(issues: ManifestIssue[]): ManifestIssue[] {
  return issues
    .map((issue, i) => ({ issue, i }))
    .sort(
      (a, b) =>
        (a.issue.pos.file < b.issue.pos.file ? -1 : a.issue.pos.file > b.issue.pos.file ? 1 : 0) ||
        a.issue.pos.line - b.issue.pos.line ||
        a.issue.pos.col - b.issue.pos.col ||
        a.i - b.i,
    )
    .map(({ issue }) => issue);
}

/** The issues of later stages, less those about a value an environment could not resolve (already reported). */
function withoutRepeats(issues: ManifestIssue[], unresolved: readonly SourcePos[] | undefined): ManifestIssue[] {
  if (!unresolved?.length) return issues;
  const at = new Set(unresolved.map((p) => `${p.file}:${p.line}:${p.col}`));
  return issues.filter((i) => i.pos.via !== undefined || !at.has(`${i.pos.file}:${i.pos.line}:${i.pos.col}`));
}

export async function readDesiredState(paths: string[], opts: ReadOptions = {}): Promise<DesiredState> {
  const env = opts.env ?? process.env;
  const cwd = opts.cwd ?? process.cwd();
  // Usage errors first: a path that does not exist, or a part of a stack, is no input to report problems in.
  assertPathsExist(paths, cwd);
  if (opts.wholeStacks) assertWholeStacks(paths, cwd, opts.wholeStacks);
  const loaded = await loadManifestsYielding(paths, { cwd, ownStackFiles: opts.ownStackFiles });
  // A retired stack states no resource, whatever documents are left (or none): its plan deletes them all. Only
  // the problems of its edgeops.yaml count (retire: true is read from it only when it is valid).
  if (loaded.config.retire === true) {
    const settings = loaded.issues.filter((i) => PROJECT_FILE_NAMES.includes(basename(i.pos.file).toLowerCase()));
    if (settings.length > 0) throw new ManifestError(sortIssues(settings));
    return { resources: [], config: loaded.config };
  }
  // Problems reading what is there come first: a file that fails to parse is not an empty path.
  if (loaded.empty.length > 0 && loaded.issues.length === 0 && !opts.allowEmpty) throw new NoManifestsError(noDocumentsMessage(loaded.empty));
  const stack = opts.stack ?? env.EDGEOPS_STACK ?? loaded.config.stack ?? 'default';
  // Each stage gives answers to requests in flight (the lists' pages) a turn about every millisecond (pace.ts).
  const pace = new Pace();
  const later: ManifestIssue[] = [...(await runPaced(validationSteps(loaded.docs), pace))];
  later.push(...(await runPaced(ruleSteps(loaded.docs, { stack }), pace)));
  const resolved = await runPaced(resolveSteps(loaded.docs, { env, cwd }), pace);
  later.push(...resolved.issues);
  later.push(...(await valueRuleIssues(resolved.resolved, [...loaded.issues, ...later])));
  later.push(...(await checkWithContract(resolved.resources, loaded.docs, { stack, reported: [...loaded.issues, ...later], pace })));
  // Policy documents are no resources: they are read, checked and compiled on their own (src/policy/).
  const policies = loadPolicySet(loaded.config, loaded.policyDocs, cwd);
  later.push(...policies.issues);
  const issues = [...loaded.issues, ...withoutRepeats(later, loaded.unresolved)];
  if (issues.length) throw new ManifestError(sortIssues(issues));
  const desired: DesiredState = { resources: resolved.resources, config: loaded.config, ...(loaded.warnings?.length ? { warnings: sortIssues(loaded.warnings) } : {}) };
  if (policies.set) attachPolicies(desired, { set: policies.set, docs: new Map(loaded.docs.map((d) => [addressOf(d), d])) });
  return desired;
}

export interface LoadResult extends LoadedManifests {
  issues: ManifestIssue[];
  /** ResolvedEnvironment.unresolved. */
  unresolved?: SourcePos[];
  /** ResolvedEnvironment.inputs: the files of the stack's bases (absolute). */
  inputs?: string[];
  /** Paths that yielded no document although nothing went wrong reading them (read-desired.ts refuses them). */
  empty: DiscoveredRoot[];
  /** Policy, PolicyException and PolicyTest documents among the manifests: not resources. */
  policyDocs: ManifestDoc[];
}

export interface LoadOptions {
  /** Base of relative paths and of the file names in messages (default: process.cwd()). */
  cwd?: string;
  /** Deeper stack roots below the paths are not read (discover.ts). */
  ownStackFiles?: boolean;
}

/** A document -> ManifestDoc, or an issue when it has no usable kind (nothing else can be checked then). */
function toManifestDoc(parsed: ParsedDoc, dir: string, issues: ManifestIssue[]): ManifestDoc | undefined {
  const { kind, name, ...fields } = parsed.value;
  if (kind === undefined) {
    issues.push({ pos: parsed.pos, message: 'missing field "kind"' });
    return undefined;
  }
  if (typeof kind !== 'string') {
    issues.push({ pos: parsed.positions.get('/kind') ?? parsed.pos, message: 'kind: must be a string' });
    return undefined;
  }
  let docName = '';
  if (typeof name === 'string') docName = name;
  else if (name !== undefined) {
    const scalar = typeof name === 'number' || typeof name === 'boolean';
    if (scalar) docName = String(name);
    issues.push({
      pos: parsed.positions.get('/name') ?? parsed.pos,
      address: scalar ? `${kind}/${docName}` : undefined,
      message: `name: must be a string${scalar ? ' (put it in quotes)' : ''}`,
    });
  }
  const doc: ManifestDoc = { kind, name: docName, fields, pos: parsed.pos, positions: parsed.positions, dir };
  rememberKeyPositions(doc, parsed.keys);
  return doc;
}


/** One manifest file's documents, its problems into `issues`: how an environment reads its bases. */
function readDocs(file: FoundFile, issues: ManifestIssue[]): ManifestDoc[] {
  const parsed = parseFile(file);
  issues.push(...parsed.issues);
  const dir = dirname(file.abs);
  return parsed.docs.flatMap((p) => toManifestDoc(p, dir, issues) ?? []);
}

/** The manifests of `paths`, read in one go (no await). */
export function loadManifests(paths: string[], opts: LoadOptions = {}): LoadResult {
  return runAll(loadSteps(paths, opts));
}

/**
 * The same, yielding to the event loop between files: requests started before the manifests are read (the
 * live state's lists) are sent and their answers parsed while the files are still being read.
 */
function loadManifestsYielding(paths: string[], opts: LoadOptions = {}): Promise<LoadResult> {
  return runPaced(loadSteps(paths, opts));
}

/** The manifests of `paths`, a step per file (pace.ts). */
function* loadSteps(paths: string[], opts: LoadOptions): Steps<LoadResult> {
  const loading = startLoading(paths, opts);
  for (const file of loading.files) {
    yield;
    loading.read(file);
  }
  return loading.result();
}

function startLoading(paths: string[], opts: LoadOptions): { files: FoundFile[]; read(file: FoundFile): void; result(): LoadResult } {
  const cwd = opts.cwd ?? process.cwd();
  const found = discover(paths, cwd, { ownStackFiles: opts.ownStackFiles });
  const issues = [...found.issues];
  const project = readProjectFiles(found.projectFiles, found.roots);
  issues.push(...project.issues);
  const docs: ManifestDoc[] = [];
  const policyDocs: ManifestDoc[] = [];
  const yielded = new Map<string, number>(); // file -> documents and problems in it
  return {
    files: found.manifests,
    read(file) {
      const parsed = parseFile(file);
      issues.push(...parsed.issues);
      const dir = dirname(file.abs);
      for (const p of parsed.docs) {
        const doc = toManifestDoc(p, dir, issues);
        if (doc) (isPolicyKind(doc.kind) ? policyDocs : docs).push(doc);
      }
      yielded.set(file.abs, parsed.docs.length + parsed.issues.length);
    },
    result() {
      // A project file named alone yields settings, not documents: it counts as empty only when nothing else yields any.
      const empty = found.roots.filter((r) => !r.unreadable && (!r.projectOnly || docs.length === 0) && r.manifests.every((f) => !yielded.get(f.abs)));
      // An environment's bases, Patches and variables: every later stage sees plain documents.
      const environment = resolveEnvironment(docs, project.config, cwd, readDocs, project.issues.length === 0);
      issues.push(...environment.issues);
      // A stack whose documents all come from its bases is not empty.
      const fromBases = project.config.base !== undefined && environment.docs.length > 0;
      return { docs: environment.docs, config: project.config, issues, empty: fromBases ? [] : empty, warnings: environment.warnings, unresolved: environment.unresolved, inputs: environment.inputs, policyDocs };
    },
  };
}
