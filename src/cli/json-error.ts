// With `--json-out FILE`, a plan or drift that fails writes why to FILE instead of a plan: the error's code and
// message, and for invalid manifests every problem with its file, line and column, so a program (the GitHub
// Action's annotations) reads positions from a format instead of parsing messages. Nothing is written for a
// failure that is not an EdgeopsError (an edgeops bug), and the file goes through the run's redactor.
import { writeFileSync } from 'node:fs';
import { EdgeopsError, ManifestError } from '../errors.ts';
import type { CliContext } from './context.ts';

export interface JsonProblem {
  file: string;
  line: number;
  col: number;
  /** `Kind/name` of the document, when known. */
  address?: string;
  message: string;
}

export interface JsonError {
  format_version: 1;
  error: { code: string; message: string; problems: JsonProblem[] };
}

export function errorToJson(err: EdgeopsError): JsonError {
  const problems = err instanceof ManifestError
    ? err.issues.map((i) => ({ file: i.pos.file, line: i.pos.line, col: i.pos.col, ...(i.address ? { address: i.address } : {}), message: i.message }))
    : [];
  return { format_version: 1, error: { code: err.code, message: err.message, problems } };
}

export async function withJsonError<T>(ctx: CliContext, file: string | undefined, fn: () => Promise<T>): Promise<T> {
  try {
    return await fn();
  } catch (err) {
    if (file && err instanceof EdgeopsError) writeFileSync(file, ctx.redact(`${JSON.stringify(errorToJson(err), null, 2)}\n`));
    throw err;
  }
}
