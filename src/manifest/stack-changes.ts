// Which stacks a change touches: a stack is changed when any file it is made of differs between the merge base of
// a ref and the working tree (uncommitted and untracked files included), or when a manifest of it was deleted
// (a YAML file under its root, outside deeper roots, present at the base and gone now). A stack root whose
// edgeops.yaml was at the merge base and is gone now is a removed stack: its settings are read from the base.
import { readdirSync } from 'node:fs';
import { join } from 'node:path';
import { ConfigError } from '../errors.ts';
import type { ProjectConfig } from './document.ts';
import { parseText } from './parse.ts';
import { PROJECT_FILE_NAMES } from './schema/project.ts';
import { UNNAMED_STACK, type StackRoot } from './stack-roots.ts';

/** A stack root that was at the merge base and is gone now. */
export interface RemovedStack {
  dir: string;
  stack: string;
  environment: string | null;
  /** Its edgeops.yaml as it was at the merge base (its api_url and the like). */
  config: ProjectConfig;
  /** Repository-relative. */
  projectFile: string;
}

interface StackChanges {
  /** The commit the working tree is compared with. */
  base: string;
  /** The dirs of the stacks that changed. */
  changed: Set<string>;
  removed: RemovedStack[];
}

function git(repoRoot: string, args: string[]): string {
  // Loaded here, not at the top: a plan that compares nothing with git does not load child_process at all.
  const { execFileSync } = process.getBuiltinModule('node:child_process');
  try {
    return execFileSync('git', args, { cwd: repoRoot, encoding: 'utf8', stdio: ['ignore', 'pipe', 'pipe'], maxBuffer: 64 * 1024 * 1024 });
  } catch (err) {
    const stderr = String((err as { stderr?: string }).stderr ?? '').trim().split('\n')[0] ?? '';
    throw new ConfigError(`--changed-since: git ${args.join(' ')} failed${stderr ? `: ${stderr}` : ''}`);
  }
}

const lines = (text: string): string[] => text.split('\n').filter((l) => l !== '');
const isProjectFile = (path: string): boolean => PROJECT_FILE_NAMES.includes((path.split('/').pop() ?? '').toLowerCase());
const dirOf = (path: string): string => (path.includes('/') ? path.slice(0, path.lastIndexOf('/')) : '.');
const within = (path: string, dir: string): boolean => dir === '.' || path === dir || path.startsWith(`${dir}/`);

/** The deepest root `path` lies under, among `dirs`. */
function ownerOf(path: string, dirs: readonly string[]): string | undefined {
  let best: string | undefined;
  for (const dir of dirs) if (within(path, dir) && (best === undefined || dir.length > best.length || best === '.')) best = dir;
  return best;
}

/**
 * The changes since `git merge-base REF HEAD` for `roots` (all found under `scope`, repository-relative dirs of
 * the paths given): which changed, and which stack roots under the scope were removed.
 */
export function changedSince(ref: string, repoRoot: string, roots: readonly StackRoot[], scope: readonly string[]): StackChanges {
  const base = git(repoRoot, ['merge-base', ref, 'HEAD']).trim();
  const touched = [
    ...lines(git(repoRoot, ['diff', '--name-only', '--no-renames', base, '--'])),
    ...lines(git(repoRoot, ['ls-files', '--others', '--exclude-standard', '--full-name'])),
  ];
  const dirs = roots.map((r) => r.dir);
  const changed = new Set<string>();
  for (const root of roots) {
    const inputs = new Set(root.inputs);
    const hit = touched.some((path) => inputs.has(path) || (/\.ya?ml$/i.test(path) && !isProjectFile(path) && ownerOf(path, dirs) === root.dir));
    if (hit) changed.add(root.dir);
  }
  const removed: RemovedStack[] = [];
  const current = new Set(dirs);
  const baseFiles = lines(git(repoRoot, ['ls-tree', '-r', '--name-only', base])).filter(isProjectFile);
  const seen = new Set<string>();
  for (const file of baseFiles) {
    const dir = dirOf(file);
    if (seen.has(dir) || current.has(dir) || !scope.some((s) => within(dir, s))) continue;
    if (!existsNow(repoRoot, dir)) {
      seen.add(dir);
      const doc = parseText(git(repoRoot, ['show', `${base}:${file}`]), file).docs[0];
      const config = (doc?.value ?? {}) as ProjectConfig;
      removed.push({ dir, stack: typeof config.stack === 'string' ? config.stack : UNNAMED_STACK, environment: typeof config.environment === 'string' ? config.environment : null, config, projectFile: file });
    }
  }
  return { base, changed, removed };
}

/** Whether `dir` still holds a project file in the working tree. */
function existsNow(repoRoot: string, dir: string): boolean {
  try {
    return readdirSync(join(repoRoot, dir)).some((name) => PROJECT_FILE_NAMES.includes(name.toLowerCase()));
  } catch {
    return false;
  }
}
