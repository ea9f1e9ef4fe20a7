// The manifest side's public surface: readDesiredState for the pipeline, the stages for tests and `export`.
export { readDesiredState, sortIssues, type ReadOptions } from './read-desired.ts';
export { loadManifests, type LoadOptions, type LoadResult } from './load.ts';
export { validateDocs } from './validate.ts';
export { checkRules, MARKER_KEY, type RuleOptions } from './rules.ts';
export { resolveDocs, type ResolveOptions, type ResolveResult } from './resolve.ts';
export type { DesiredResource, DesiredState, LoadedManifests, ManifestDoc, ProjectConfig } from './document.ts';
