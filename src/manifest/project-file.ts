// edgeops.yaml: the project file at a root (stack, api_url, concurrency, max_deletes, max_deletes_per_kind, adopt).
// Several roots may each have one; they agree or the run stops with both positions.
import type { ManifestIssue } from '../errors.ts';
import type { Json } from '../kinds/resource-kind.ts';
import type { ProjectConfig } from './document.ts';
import { discover, type FoundFile } from './discover.ts';
import { issuesFromAjv } from './messages.ts';
import { parseFile } from './parse-file.ts';
import { childPointer } from './pointer.ts';
import { keyPos, rememberKeyPositions } from './positions.ts';
import { projectValidator } from './validators.ts';

type ConfigKey = Exclude<keyof ProjectConfig, 'file'>;

export function readProjectFiles(files: FoundFile[]): { config: ProjectConfig; issues: ManifestIssue[] } {
  const config: ProjectConfig = {};
  const issues: ManifestIssue[] = [];
  const setBy = new Map<string, string>();
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
          message: `${key}: differs from the value in ${earlier} (project files of a run must agree)`,
        });
        continue;
      }
      setBy.set(key, file.rel);
      (config as Record<string, Json>)[key] = value;
    }
  }
  return { config, issues };
}

/**
 * The project configuration of a run on `paths` (the edgeops.yaml at each root) without reading any manifest:
 * for callers that need the stack when the manifests themselves may be invalid. Files that are invalid are
 * left out of `config` and reported in `issues`.
 */
export function readProjectConfig(paths: string[], cwd: string): { config: ProjectConfig; issues: ManifestIssue[] } {
  return readProjectFiles(discover(paths, cwd).projectFiles);
}
