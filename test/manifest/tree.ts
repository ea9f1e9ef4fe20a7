// Test helper: a temporary directory holding a small manifest tree, and shortcuts that run the manifest
// pipeline in it and return its messages (file names relative to that directory).
import { mkdirSync, writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { expect } from 'vitest';
import { ManifestError } from '../../src/errors.ts';
import { readDesiredState } from '../../src/manifest/read-desired.ts';
import type { DesiredState } from '../../src/manifest/document.ts';
import { fileTempDir } from '../helpers/temp-dirs.ts';

/** Writes `files` (path -> text) into a new temporary directory (removed after the test file) and returns it. */
export function writeTree(files: Record<string, string>): string {
  const root = fileTempDir('edgeops-manifest-');
  for (const [path, text] of Object.entries(files)) {
    mkdirSync(dirname(join(root, path)), { recursive: true });
    writeFileSync(join(root, path), text);
  }
  return root;
}

/** The ManifestError lines for a tree read at its root (fails the test if the tree is valid). */
export async function errorLines(
  files: Record<string, string>,
  opts: { env?: NodeJS.ProcessEnv; paths?: string[] } = {},
): Promise<string[]> {
  const cwd = writeTree(files);
  const err = await readDesiredState(opts.paths ?? ['.'], { cwd, env: opts.env ?? {} }).then(
    () => undefined,
    (e: unknown) => e,
  );
  expect(err, 'expected a ManifestError').toBeInstanceOf(ManifestError);
  return (err as ManifestError).message.split('\n');
}

export async function readTree(files: Record<string, string>, env: NodeJS.ProcessEnv = {}): Promise<DesiredState> {
  return readDesiredState(['.'], { cwd: writeTree(files), env });
}

/** Joins lines with newlines: YAML fixtures read better as arrays of lines. */
export const yaml = (...lines: string[]): string => `${lines.join('\n')}\n`;
