// With `--json-out FILE`, a plan or drift that fails writes why to FILE instead of a plan: the error's code and
// message, and for invalid manifests every problem with its file, line and column (render/error-text.ts), so a
// program reads positions from a format instead of parsing messages. Nothing is written for a
// failure that is not an EdgeopsError (an edgeops bug), and the file goes through the run's redactor.
import { writeFileSync } from 'node:fs';
import { EdgeopsError } from '../errors.ts';
import { errorToJson } from '../render/error-text.ts';
import type { CliContext } from './context.ts';

export async function withJsonError<T>(ctx: CliContext, file: string | undefined, fn: () => Promise<T>): Promise<T> {
  try {
    return await fn();
  } catch (err) {
    if (file && err instanceof EdgeopsError) writeFileSync(file, ctx.redact(`${JSON.stringify(errorToJson(err), null, 2)}\n`));
    throw err;
  }
}
