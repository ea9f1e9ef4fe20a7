// Whether the paths of a plan, apply or drift hold whole stacks. A stack root is the directory of the
// edgeops.yaml a path uses (discover.ts: the one in its directory or the nearest above it), and a run at the root
// reads every manifest below it. A plan is made from every document the run reads, and each resource of the
// stack without a document is deleted: a file or directory inside a root, given without the root's other
// manifests, would plan deleting the resources of every file it leaves out. That run is refused before any
// request, whatever --destroy and the delete limits say (they are for whole stacks). `validate` checks any part.
import { realpathSync, statSync } from 'node:fs';
import { dirname, isAbsolute, relative, resolve } from 'node:path';
import { PartialStackError } from '../errors.ts';
import { shellWord } from '../shell-word.ts';
import { discover, nearestProjectFiles } from './discover.ts';
import { refuseBases } from './environment/base-users.ts';

const SHOWN_LEFT_OUT = 10;

/** A stack root that the paths of a run hold only part of. */
interface PartialStack {
  /** The root: relative to the cwd when below it, else absolute (as are the other files named here). */
  root: string;
  /** Its edgeops.yaml. */
  projectFile: string;
  /** The paths of the run inside it, as given. */
  given: string[];
  /** Its manifests that no path of the run reads. */
  leftOut: string[];
}

const realOf = (abs: string): string => {
  try {
    return realpathSync(abs);
  } catch {
    return abs;
  }
};

/** The edgeops.yaml a path uses, or undefined (no stack root: a path that does not exist, or none above it). */
function projectFileOf(abs: string): string | undefined {
  const stat = statSync(abs, { throwIfNoEntry: false });
  if (!stat) return undefined;
  return nearestProjectFiles(stat.isDirectory() ? abs : dirname(abs))[0];
}

/** The stack roots that `paths` hold only part of, each with the manifests left out. */
function partialStacks(paths: readonly string[], cwd: string): PartialStack[] {
  const byFile = new Map<string, string[]>();
  for (const path of paths) {
    const file = projectFileOf(resolve(cwd, path));
    if (file) byFile.set(file, [...(byFile.get(file) ?? []), path]);
  }
  // A root given itself is read whole: the usual run (`edgeops plan .`, `plan infra`) walks nothing here.
  for (const [file, given] of byFile) {
    const root = realOf(dirname(file));
    if (given.some((path) => realOf(resolve(cwd, path)) === root)) byFile.delete(file);
  }
  if (byFile.size === 0) return [];
  const read = new Set(discover([...paths], cwd).manifests.map((f) => realOf(f.abs)));
  // Relative to the cwd when below it, else absolute: as the user would type it.
  const shown = (abs: string): string => {
    const rel = relative(cwd, abs);
    return rel === '' ? '.' : rel.startsWith('..') || isAbsolute(rel) ? abs : rel;
  };
  const partial: PartialStack[] = [];
  for (const [file, given] of byFile) {
    const leftOut = discover([dirname(file)], cwd).manifests.filter((f) => !read.has(realOf(f.abs))).map((f) => shown(f.abs));
    if (leftOut.length > 0) partial.push({ root: shown(dirname(file)), projectFile: shown(file), given, leftOut });
  }
  return partial;
}

/** The commands that take whole stacks only, as the refusal names them. */
export type WholeStackCommand = 'plan' | 'apply' | 'drift' | 'list' | 'graph --plan';

/** What a run of each command on part of a stack would get wrong, and what to run instead. */
function wording(command: WholeStackCommand, roots: string, many: boolean): { refusal: string; instead: string } {
  const stack = many ? 'stacks' : 'stack';
  switch (command) {
    case 'drift':
      return {
        refusal: 'refusing to check part of a stack for drift: drift reports each resource of the stack that no document given states, so this one would report the resources of the manifests left out.',
        instead: `Check the whole ${stack}: edgeops drift ${roots}`,
      };
    case 'list':
      return {
        refusal: 'refusing to list part of a stack: list marks each resource of the stack that no document given states as not in the manifests, so this one would mark the resources of the manifests left out.',
        instead: `List the whole ${stack}: edgeops list ${roots}`,
      };
    default:
      return {
        refusal: 'refusing to plan part of a stack: a plan deletes each resource of the stack that no document given states, so this one would delete the resources of the manifests left out.',
        instead: `Plan the whole ${stack}: edgeops ${command === 'graph --plan' ? 'graph --plan' : 'plan'} ${roots}`,
      };
  }
}

function partialStackMessage(partial: readonly PartialStack[], command: WholeStackCommand): string {
  const roots = partial.map((stack) => shellWord(stack.root)).join(' ');
  const { refusal, instead } = wording(command, roots, partial.length > 1);
  const lines = [refusal];
  for (const stack of partial) {
    const files = stack.leftOut.length;
    lines.push(`  ${stack.given.join(', ')} ${stack.given.length === 1 ? 'is' : 'are'} inside the stack root ${stack.root} (${stack.projectFile}), which also holds ${files === 1 ? 'this manifest' : `these ${files} manifests`}:`);
    lines.push(...stack.leftOut.slice(0, SHOWN_LEFT_OUT).map((f) => `    ${f}`));
    if (files > SHOWN_LEFT_OUT) lines.push(`    and ${files - SHOWN_LEFT_OUT} more`);
  }
  lines.push(instead);
  lines.push('To delete resources of a stack, remove their documents and plan the whole stack.');
  return lines.join('\n');
}

/** Throws PartialStackError, worded for `command`, when `paths` hold part of a stack (see the top of this file). */
export function assertWholeStacks(paths: readonly string[], cwd: string, command: WholeStackCommand): void {
  // A base of environments is no stack at all, whole or not.
  refuseBases(paths, cwd, command);
  const partial = partialStacks(paths, cwd);
  if (partial.length > 0) throw new PartialStackError(partialStackMessage(partial, command));
}
