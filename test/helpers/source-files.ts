// The files of a directory tree whose names match, for the tests that read the repository's own files.
import { readdirSync, statSync } from 'node:fs';
import { join } from 'node:path';

/** Every file under `dir` (at any depth) whose name matches `name`, as absolute paths. */
export function filesUnder(dir: string, name: RegExp): string[] {
  return readdirSync(dir).flatMap((entry) => {
    const path = join(dir, entry);
    return statSync(path).isDirectory() ? filesUnder(path, name) : name.test(entry) ? [path] : [];
  });
}
