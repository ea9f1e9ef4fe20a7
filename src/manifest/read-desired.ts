// The manifest pipeline the engine calls: load -> validate -> rules -> resolve. Every stage that can run does,
// so one run reports every problem of every file; then one ManifestError carries them all, in file order.
import { ManifestError, type ManifestIssue } from '../errors.ts';
import type { DesiredState } from './document.ts';
import { loadManifestsYielding, yieldToEventLoop } from './load.ts';
import { resolveDocs } from './resolve.ts';
import { checkRules } from './rules.ts';
import { validateDocs } from './validate.ts';

export interface ReadOptions {
  env?: NodeJS.ProcessEnv;
  /** The stack chosen by a flag, if any (the metadata limit counts the marker, which names the stack). */
  stack?: string;
  /** Base of relative paths and of file names in messages (default: process.cwd()). */
  cwd?: string;
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
  const stack = opts.stack ?? env.EDGEOPS_STACK ?? loaded.config.stack ?? 'default';
  // Each stage lets answers to requests in flight be handled before it runs (see loadManifestsYielding).
  const issues = [...loaded.issues, ...validateDocs(loaded.docs)];
  await yieldToEventLoop();
  issues.push(...checkRules(loaded.docs, { stack }));
  await yieldToEventLoop();
  const resolved = resolveDocs(loaded.docs, { env, cwd });
  issues.push(...resolved.issues);
  if (issues.length) throw new ManifestError(sortIssues(issues));
  return { resources: resolved.resources, config: loaded.config };
}
