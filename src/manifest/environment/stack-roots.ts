// Which stacks a `validate` of a tree of environments checks: each stack root below the path (a directory with an
// edgeops.yaml that is not a base), resolved on its own, so that a change to a base that breaks one environment's
// Patch fails where it was made. A base given itself is checked through the stacks that use it. A tree without
// environments (no base anywhere in it) is validated as one set of documents, as it always was.
import { statSync } from 'node:fs';
import { dirname, relative, resolve } from 'node:path';
import { discover, nearestProjectFiles } from '../discover.ts';
import { parseFile } from '../parse.ts';
import { stacksUsingBase } from './base-users.ts';

const settingsOf = (file: string): Record<string, unknown> | undefined => parseFile({ abs: file, rel: file }).docs[0]?.value;

/**
 * The stack roots to validate one by one for `paths` (relative to `cwd`), or undefined when no path holds
 * or is a base of environments.
 */
export function environmentStackRoots(paths: readonly string[], cwd: string): string[] | undefined {
  const roots: string[] = [];
  let environments = false;
  const add = (dir: string): void => {
    const shown = relative(cwd, dir) || '.';
    if (!roots.includes(shown)) roots.push(shown);
  };
  for (const path of paths) {
    const abs = resolve(cwd, path);
    const stat = statSync(abs, { throwIfNoEntry: false });
    if (!stat) return undefined;
    const own = nearestProjectFiles(stat.isDirectory() ? abs : dirname(abs))[0];
    if (own && settingsOf(own)?.role === 'base') {
      environments = true;
      for (const user of stacksUsingBase(dirname(own), cwd)) add(resolve(cwd, user));
      continue;
    }
    if (!stat.isDirectory()) {
      if (own) add(dirname(own));
      continue;
    }
    const below = discover([path], cwd).roots[0]?.settingsFiles ?? [];
    const files = below.map((rel) => resolve(cwd, rel));
    const bases = files.filter((f) => settingsOf(f)?.role === 'base');
    if (bases.length === 0) {
      if (own) add(dirname(own));
      continue;
    }
    environments = true;
    for (const file of files) if (!bases.includes(file)) add(dirname(file));
  }
  return environments ? roots : undefined;
}
