// Which files a set of paths means: every *.yaml/*.yml below each path (sorted, so the order is the same on
// every machine), skipping node_modules, .edgeops, dot-directories and dot-files, plus the project files (edgeops.yaml)
// at the roots. A project file deeper in a tree belongs to a run at that directory: it is neither a resource
// file nor this run's configuration.
import { readdirSync, realpathSync, statSync, type Stats } from 'node:fs';
import { basename, join, relative, resolve } from 'node:path';
import type { ManifestIssue } from '../errors.ts';
import { PROJECT_FILE_NAMES } from './schema-project.ts';

export interface FoundFile {
  abs: string;
  /** Relative to the cwd: what messages print. */
  rel: string;
}

export interface Discovery {
  manifests: FoundFile[];
  projectFiles: FoundFile[];
  issues: ManifestIssue[];
}

const SKIPPED_DIRS = new Set(['node_modules', '.edgeops']);
const isManifestName = (name: string): boolean => /\.ya?ml$/.test(name) && !PROJECT_FILE_NAMES.includes(name);

const reason = (err: unknown): string => {
  const code = (err as NodeJS.ErrnoException).code;
  if (code === 'ENOENT' || code === 'ENOTDIR') return 'does not exist';
  if (code === 'EACCES' || code === 'EPERM') return 'permission denied';
  if (code === 'ELOOP') return 'symbolic link loop';
  return code ?? (err as Error).message;
};

export function discover(paths: string[], cwd: string): Discovery {
  const out: Discovery = { manifests: [], projectFiles: [], issues: [] };
  const seen = new Set<string>();
  const rel = (abs: string): string => relative(cwd, abs) || '.';
  const issue = (abs: string, message: string): void => {
    out.issues.push({ pos: { file: rel(abs), line: 1, col: 1 }, message });
  };
  const add = (list: FoundFile[], abs: string): void => {
    let real: string;
    try {
      real = realpathSync(abs);
    } catch (err) {
      issue(abs, `cannot read: ${reason(err)}`);
      return;
    }
    if (seen.has(real)) return;
    seen.add(real);
    list.push({ abs, rel: rel(abs) });
  };
  const statOf = (abs: string): Stats | undefined => {
    try {
      return statSync(abs);
    } catch (err) {
      issue(abs, `cannot read: ${reason(err)}`);
      return undefined;
    }
  };

  const walk = (dir: string, visited: Set<string>): void => {
    let entries: string[];
    try {
      entries = readdirSync(dir).sort();
    } catch (err) {
      issue(dir, `cannot read directory: ${reason(err)}`);
      return;
    }
    for (const name of entries) {
      const abs = join(dir, name);
      // Dot-files too: .gitlab-ci.yml and the like are never manifests.
      if (name.startsWith('.') || SKIPPED_DIRS.has(name)) continue;
      const stat = statOf(abs);
      if (!stat) continue;
      if (stat.isDirectory()) {
        const real = realpathSync(abs);
        if (visited.has(real)) continue;
        walk(abs, new Set(visited).add(real));
      } else if (stat.isFile() && isManifestName(name)) {
        add(out.manifests, abs);
      }
    }
  };

  for (const path of paths) {
    const abs = resolve(cwd, path);
    const stat = statOf(abs);
    if (!stat) continue;
    if (stat.isDirectory()) {
      for (const name of PROJECT_FILE_NAMES) {
        const candidate = join(abs, name);
        if (statSync(candidate, { throwIfNoEntry: false })?.isFile()) add(out.projectFiles, candidate);
      }
      walk(abs, new Set([realpathSync(abs)]));
    } else if (PROJECT_FILE_NAMES.includes(basename(abs))) {
      add(out.projectFiles, abs);
    } else {
      // A file named explicitly is read whatever its extension.
      add(out.manifests, abs);
    }
  }
  return out;
}
