// edgeops.yaml: the project file a path uses (stack, api_url, concurrency, max_deletes, max_deletes_per_kind,
// adopt). The paths of one run may use several; they agree or the run stops naming both. A path that uses no
// project file runs on the defaults, so it disagrees with one that sets the stack or the service URL.
import type { ManifestIssue, SourcePos } from '../errors.ts';
import type { Json } from '../kinds/resource-kind.ts';
import type { ProjectConfig } from './document.ts';
import { discover, type DiscoveredRoot, type FoundFile } from './discover.ts';
import { issuesFromAjv } from './messages.ts';
import { parseFile } from './parse-file.ts';
import { childPointer, keyPos, rememberKeyPositions } from './pointer.ts';
import { projectValidator } from './validators.ts';

type ConfigKey = Exclude<keyof ProjectConfig, 'file'>;

/** The settings where a path without a project file would silently run somewhere else. */
const WHERE_KEYS: readonly ConfigKey[] = ['stack', 'api_url'];

export function readProjectFiles(files: FoundFile[], roots: readonly DiscoveredRoot[] = []): { config: ProjectConfig; issues: ManifestIssue[] } {
  const config: ProjectConfig = {};
  const issues: ManifestIssue[] = [];
  const setBy = new Map<string, string>();
  let whereSet: { pos: SourcePos; key: ConfigKey } | undefined;
  for (const file of files) {
    const parsed = parseFile(file);
    issues.push(...parsed.issues);
    if (parsed.docs.length > 1) {
      issues.push({ pos: parsed.docs[1]!.pos, message: 'the project file holds one document' });
    }
    const doc = parsed.docs[0];
    if (!doc) continue;
    rememberKeyPositions(doc, doc.keys);
    const validate = projectValidator();
    if (!validate(doc.value)) {
      issues.push(...issuesFromAjv(validate.errors ?? [], doc));
      continue;
    }
    config.file ??= file.rel;
    for (const [key, value] of Object.entries(doc.value) as [ConfigKey, Json][]) {
      const earlier = setBy.get(key);
      if (earlier !== undefined && JSON.stringify(config[key]) !== JSON.stringify(value)) {
        issues.push({
          pos: keyPos(doc, childPointer('', key)),
          message: `${key}: differs from the value in ${earlier} (the paths of one run must use the same settings)`,
        });
        continue;
      }
      setBy.set(key, file.rel);
      (config as Record<string, Json>)[key] = value;
    }
    const key = WHERE_KEYS.find((k) => doc.value[k] !== undefined);
    if (key && !whereSet) whereSet = { pos: keyPos(doc, childPointer('', key)), key };
  }
  // Reported once, at the first file that sets the stack or the service.
  const bare = roots.find((r) => r.projectFiles.length === 0 && (r.manifests.length > 0 || r.skipped.length > 0));
  if (bare && whereSet) {
    issues.push({
      pos: whereSet.pos,
      message: `${whereSet.key}: set here, but ${bare.path} uses no edgeops.yaml (its ${whereSet.key} would be the default); the paths of one run must use the same settings (add an edgeops.yaml for ${bare.path}, or run it separately)`,
    });
  }
  return { config, issues };
}

/**
 * The project configuration of a run on `paths` (the edgeops.yaml each path uses) without reading any
 * manifest: for callers that need the stack when the manifests themselves may be invalid. Files that are
 * invalid are left out of `config` and reported in `issues`.
 */
export function readProjectConfig(paths: string[], cwd: string): { config: ProjectConfig; issues: ManifestIssue[] } {
  const found = discover(paths, cwd);
  return readProjectFiles(found.projectFiles, found.roots);
}
