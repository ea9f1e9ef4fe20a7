// The manifest pipeline the engine calls: load -> validate -> rules -> resolve -> value rules -> contract. Every
// stage that can run does, so one run reports every problem of every file; then one ManifestError carries them
// all, in file order.
import { ManifestError, NoManifestsError, type ManifestIssue } from '../errors.ts';
import type { DiscoveredRoot } from './discover.ts';
import type { DesiredState } from './document.ts';
import { checkWithContract } from './contract-check.ts';
import { loadManifestsYielding, yieldToEventLoop } from './load.ts';
import { resolveDocs } from './resolve.ts';
import { checkRules } from './rules.ts';
import { validateDocs } from './validate.ts';
import { valueRuleIssues } from './value-rules.ts';

export interface ReadOptions {
  env?: NodeJS.ProcessEnv;
  /** The stack chosen by a flag, if any (the metadata limit counts the marker, which names the stack). */
  stack?: string;
  /** Base of relative paths and of file names in messages (default: process.cwd()). */
  cwd?: string;
  /** Paths without documents are allowed (`--destroy`: planning the deletion of a whole stack on purpose). */
  allowEmpty?: boolean;
}

const SHOWN_SKIPPED = 10;

/** Why each path yielded nothing: what it holds, and the files that were not read. */
export function noDocumentsMessage(empty: readonly DiscoveredRoot[]): string {
  const lines = empty.map((root) => {
    const files = root.manifests.length;
    const holds = root.projectOnly ? 'a project file: settings, no documents'
      : files > 0
      ? `its ${files === 1 ? 'file holds' : `${files} YAML files hold`} no document (${root.manifests.slice(0, SHOWN_SKIPPED).map((f) => f.rel).join(', ')})`
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

export async function readDesiredState(paths: string[], opts: ReadOptions = {}): Promise<DesiredState> {
  const env = opts.env ?? process.env;
  const cwd = opts.cwd ?? process.cwd();
  const loaded = await loadManifestsYielding(paths, { cwd });
  // Problems reading what is there come first: a file that fails to parse is not an empty path.
  if (loaded.empty.length > 0 && loaded.issues.length === 0 && !opts.allowEmpty) throw new NoManifestsError(noDocumentsMessage(loaded.empty));
  const stack = opts.stack ?? env.EDGEOPS_STACK ?? loaded.config.stack ?? 'default';
  // Each stage lets answers to requests in flight be handled before it runs (see loadManifestsYielding).
  const issues = [...loaded.issues, ...validateDocs(loaded.docs)];
  await yieldToEventLoop();
  issues.push(...checkRules(loaded.docs, { stack }));
  await yieldToEventLoop();
  const resolved = resolveDocs(loaded.docs, { env, cwd });
  issues.push(...resolved.issues);
  issues.push(...(await valueRuleIssues(resolved.resolved, issues)));
  await yieldToEventLoop();
  issues.push(...(await checkWithContract(resolved.resources, loaded.docs, { stack, reported: issues })));
  if (issues.length) throw new ManifestError(sortIssues(issues));
  return { resources: resolved.resources, config: loaded.config };
}
