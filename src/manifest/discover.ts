// Stage 1, discover: which files a set of paths means, and the settings they run with. Every *.yaml/*.yml (in any
// letter case) below each path (sorted, so the order is the same on every machine), skipping node_modules,
// .edgeops, dot-directories and dot-files, plus the project file (edgeops.yaml) each path uses: the one in its
// directory or the nearest one above it, up to the repository root (the directory holding .git). A project file
// deeper in a tree belongs to a run at that directory: it is neither a resource file nor this run's configuration.
//
// The project file sets stack, api_url, concurrency, max_deletes, max_deletes_per_kind and adopt. The paths of
// one run may use several; they agree or the run stops naming both. A path that uses no project file runs on the
// defaults, so it disagrees with one that sets the stack or the service URL.
import { existsSync, readdirSync, realpathSync, statSync, type Stats } from 'node:fs';
import { basename, dirname, join, relative, resolve } from 'node:path';
import type { ManifestIssue, SourcePos } from '../errors.ts';
import type { Json } from '../kinds/resource-kind.ts';
import type { FoundFile, ProjectConfig } from './document.ts';
import { issuesFromAjv } from './schema/messages.ts';
import { parseFile } from './parse.ts';
import { keyPos, rememberKeyPositions } from './pointer.ts';
import { childPointer } from '../contract/field-path.ts';
import { PROJECT_FILE_NAMES } from './schema/project.ts';
import { projectErrors } from './schema.ts';

/** One path as given, with what it yielded: a path that yields no document is an error (read-desired.ts). */
export interface DiscoveredRoot {
  /** As given on the command line. */
  path: string;
  /** The manifest files it yielded. */
  manifests: FoundFile[];
  /** The project files it uses: named explicitly, or found in or above its directory. */
  projectFiles: FoundFile[];
  /** A project file named explicitly: it yields settings, never documents. */
  projectOnly: boolean;
  /** Files below it that are not read (another extension, dot-files), relative to the cwd. */
  skipped: string[];
  /** Project files below a directory (its own, and deeper ones), relative to the cwd: settings, not manifests. */
  settingsFiles: string[];
  /** It could not be read at all (an issue says why). */
  unreadable: boolean;
}

export interface Discovery {
  manifests: FoundFile[];
  projectFiles: FoundFile[];
  roots: DiscoveredRoot[];
  issues: ManifestIssue[];
}

const SKIPPED_DIRS = new Set(['node_modules', '.edgeops']);
const YAML_NAME = /\.ya?ml$/i;
const isProjectFileName = (name: string): boolean => PROJECT_FILE_NAMES.includes(name.toLowerCase());
const isManifestName = (name: string): boolean => YAML_NAME.test(name) && !isProjectFileName(name);

const reason = (err: unknown): string => {
  const code = (err as NodeJS.ErrnoException).code;
  if (code === 'ENOENT' || code === 'ENOTDIR') return 'does not exist';
  if (code === 'EACCES' || code === 'EPERM') return 'permission denied';
  if (code === 'ELOOP') return 'symbolic link loop';
  return code ?? (err as Error).message;
};

/** The project files directly in `dir` (edgeops.yaml, edgeops.yml; any letter case), sorted. */
function projectFilesIn(dir: string): string[] {
  try {
    return readdirSync(dir).filter(isProjectFileName).sort().map((name) => join(dir, name))
      .filter((abs) => statSync(abs, { throwIfNoEntry: false })?.isFile());
  } catch {
    return [];
  }
}

/**
 * The project files a path in `dir` uses: those of `dir`, else of the nearest directory above it that has
 * one, stopping at the repository root (a directory holding .git) or the filesystem root.
 */
export function nearestProjectFiles(dir: string): string[] {
  for (let at = dir; ; at = dirname(at)) {
    const found = projectFilesIn(at);
    if (found.length > 0) return found;
    if (existsSync(join(at, '.git')) || dirname(at) === at) return [];
  }
}

interface DiscoverOptions {
  /**
   * A directory below a path that holds a project file is another stack root: its files are its own stack's, not
   * read here (a run of several stacks, each on its own). Without it they are read, as a run of one directory has.
   */
  ownStackFiles?: boolean;
}

export function discover(paths: string[], cwd: string, opts: DiscoverOptions = {}): Discovery {
  const out: Discovery = { manifests: [], projectFiles: [], roots: [], issues: [] };
  const seen = new Map<string, FoundFile>();
  const rel = (abs: string): string => relative(cwd, abs) || '.';
  const issue = (abs: string, message: string): void => {
    out.issues.push({ pos: { file: rel(abs), line: 1, col: 1 }, message });
  };
  /** The file once per run (by real path), added to `list` the first time; undefined when unreadable. */
  const add = (list: FoundFile[], abs: string): FoundFile | undefined => {
    let real: string;
    try {
      real = realpathSync(abs);
    } catch (err) {
      issue(abs, `cannot read: ${reason(err)}`);
      return undefined;
    }
    const known = seen.get(real);
    if (known) return known;
    const file = { abs, rel: rel(abs) };
    seen.set(real, file);
    list.push(file);
    return file;
  };
  const statOf = (abs: string): Stats | undefined => {
    try {
      return statSync(abs);
    } catch (err) {
      issue(abs, `cannot read: ${reason(err)}`);
      return undefined;
    }
  };

  const walk = (dir: string, visited: Set<string>, root: DiscoveredRoot): void => {
    let entries: string[];
    try {
      entries = readdirSync(dir).sort();
    } catch (err) {
      issue(dir, `cannot read directory: ${reason(err)}`);
      return;
    }
    for (const name of entries) {
      const abs = join(dir, name);
      if (SKIPPED_DIRS.has(name)) continue;
      // Dot-files too: .gitlab-ci.yml and the like are never manifests.
      if (name.startsWith('.')) {
        if (statSync(abs, { throwIfNoEntry: false })?.isFile()) root.skipped.push(rel(abs));
        continue;
      }
      const stat = statOf(abs);
      if (!stat) continue;
      if (stat.isDirectory()) {
        const real = realpathSync(abs);
        if (visited.has(real)) continue;
        if (opts.ownStackFiles && projectFilesIn(abs).length > 0) continue;
        walk(abs, new Set(visited).add(real), root);
      } else if (stat.isFile() && isManifestName(name)) {
        const file = add(out.manifests, abs);
        if (file) root.manifests.push(file);
      } else if (stat.isFile()) {
        (isProjectFileName(name) ? root.settingsFiles : root.skipped).push(rel(abs));
      }
    }
  };

  const useProjectFiles = (root: DiscoveredRoot, files: string[]): void => {
    for (const abs of files) {
      const file = add(out.projectFiles, abs);
      if (file) root.projectFiles.push(file);
    }
  };

  for (const path of paths) {
    const abs = resolve(cwd, path);
    const root: DiscoveredRoot = { path, manifests: [], projectFiles: [], projectOnly: false, skipped: [], settingsFiles: [], unreadable: false };
    out.roots.push(root);
    const stat = statOf(abs);
    if (!stat) {
      root.unreadable = true;
      continue;
    }
    if (stat.isDirectory()) {
      useProjectFiles(root, nearestProjectFiles(abs));
      walk(abs, new Set([realpathSync(abs)]), root);
    } else if (isProjectFileName(basename(abs))) {
      root.projectOnly = true;
      useProjectFiles(root, [abs]);
    } else {
      // A file named explicitly is read whatever its extension, with the settings of its directory.
      useProjectFiles(root, nearestProjectFiles(dirname(abs)));
      const file = add(out.manifests, abs);
      if (file) root.manifests.push(file);
    }
  }
  return out;
}

// The project files found: their settings, merged, with every disagreement reported.
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
    const wrong = projectErrors(doc.value);
    if (wrong.length > 0) {
      issues.push(...issuesFromAjv(wrong, doc));
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
