// A path on the command line that does not exist is a usage error, said before anything is read: listed among
// the manifests' problems as `PATH:1:1: cannot read`, it read as a broken file. Named with the directory the run
// started in, since a path relative to the wrong directory is the usual cause.
import { statSync } from 'node:fs';
import { resolve } from 'node:path';
import { PathNotFoundError } from '../errors.ts';

function exists(abs: string): boolean {
  try {
    statSync(abs);
    return true;
  } catch (err) {
    // Anything else (permission denied, a link loop) is reported where the path is read, with its reason.
    const code = (err as NodeJS.ErrnoException).code;
    return code !== 'ENOENT' && code !== 'ENOTDIR';
  }
}

/** Throws PathNotFoundError naming every path of `paths` that does not exist. */
export function assertPathsExist(paths: readonly string[], cwd: string): void {
  const missing = paths.filter((path) => !exists(resolve(cwd, path)));
  if (missing.length === 0) return;
  throw new PathNotFoundError(`${missing.length === 1 ? 'path' : 'paths'} not found: ${missing.join(', ')} (run from ${cwd})`);
}
