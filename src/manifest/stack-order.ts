// What makes a set of stack roots unusable together, reported at the edgeops.yaml that says it: two roots naming
// one stack (their runs would manage the same resources, each deleting the other's), an `after` entry that names
// no stack root, and a cycle of `after` (no stack could go first).
import { existsSync, readdirSync } from 'node:fs';
import { join, relative, resolve } from 'node:path';
import type { ManifestIssue, SourcePos } from '../errors.ts';
import { dependencyOrder } from '../graph.ts';
import { parseFile } from './parse.ts';
import { valuePos } from './pointer.ts';
import { PROJECT_FILE_NAMES } from './schema/project.ts';

/** What stack-order needs of a root (a StackRoot has it). */
interface OrderedRoot {
  dir: string;
  stack: string;
  after: string[];
  projectFiles: string[];
}

/** The position of `pointer` in the first project file of the root that has it, else the file's start. */
function positionIn(root: OrderedRoot, repoRoot: string, cwd: string, pointer: string): SourcePos {
  for (const file of root.projectFiles) {
    const abs = resolve(repoRoot, file);
    const doc = parseFile({ abs, rel: relative(cwd, abs) || abs }).docs[0];
    if (doc && doc.positions.has(pointer)) return valuePos(doc, pointer);
  }
  return { file: relative(cwd, resolve(repoRoot, root.projectFiles[0] ?? root.dir)), line: 1, col: 1 };
}

const hasProjectFile = (abs: string): boolean => {
  try {
    return existsSync(abs) && readdirSync(abs).some((n) => PROJECT_FILE_NAMES.includes(n.toLowerCase()));
  } catch {
    return false;
  }
};

/** `base`: the repository root, which the roots' dirs are relative to. */
export function stackOrderIssues(roots: readonly OrderedRoot[], base: string, cwd: string, opts: { allowSameStack: boolean }): ManifestIssue[] {
  const issues: ManifestIssue[] = [];
  const fileOf = (root: OrderedRoot): string => relative(cwd, resolve(base, root.projectFiles[0] ?? root.dir));

  if (!opts.allowSameStack) {
    const byStack = new Map<string, OrderedRoot>();
    for (const root of roots) {
      const first = byStack.get(root.stack);
      if (!first) {
        byStack.set(root.stack, root);
        continue;
      }
      issues.push({
        pos: positionIn(root, base, cwd, '/stack'),
        message: `stack: "${root.stack}" is also the stack of ${fileOf(first)}: two stack roots naming one stack would manage the same resources (give each its own stack:)`,
      });
    }
  }

  const byDir = new Map(roots.map((r) => [r.dir, r]));
  for (const root of roots) {
    root.after.forEach((dir, i) => {
      if (dir === root.dir || !hasProjectFile(join(base, dir))) {
        issues.push({
          pos: positionIn(root, base, cwd, `/after/${i}`),
          message: dir === root.dir ? 'after: names this stack root itself' : `after: ${dir} is not a stack root (a directory with an edgeops.yaml)`,
        });
      }
    });
  }
  if (issues.length > 0) return issues;

  const depsOf = (dir: string): string[] => (byDir.get(dir)?.after ?? []).filter((d) => byDir.has(d));
  const cycles: string[][] = [];
  for (const _ of dependencyOrder(roots.map((r) => r.dir), depsOf, (cycle) => cycles.push(cycle)));
  for (const cycle of cycles) {
    const first = byDir.get(cycle[0]!)!;
    const next = cycle[1 % cycle.length]!;
    issues.push({
      pos: positionIn(first, base, cwd, `/after/${first.after.indexOf(next)}`),
      message: `after: a cycle: ${[...cycle, cycle[0]!].join(' -> ')} (no stack could apply first)`,
    });
  }
  return issues;
}
