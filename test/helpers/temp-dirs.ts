// Temporary directories that helper modules make for many test files. Vitest runs the files of a worker in one
// module instance (isolate: false), so a helper's own afterAll would belong only to the first file that imported
// it and leave every later file's directories behind; test/setup-files.ts removes them after each file instead.
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

const made: string[] = [];

/** A new directory under the OS temp directory, named `prefix` and a random tail; removed after the test file. */
export function fileTempDir(prefix: string): string {
  const dir = mkdtempSync(join(tmpdir(), prefix));
  made.push(dir);
  return dir;
}

/** Removes every directory fileTempDir made so far. */
export function removeFileTempDirs(): void {
  for (const dir of made.splice(0)) rmSync(dir, { recursive: true, force: true });
}
