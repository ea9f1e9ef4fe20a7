// Secrets, read while resolving (stage 5): `{file: path}` and `{env: VARIABLE}` values of secret-capable fields
// (declared in the schemas) are replaced by what they point at. Errors name the file or the variable, never a
// value.
import { readFileSync } from 'node:fs';
import { relative, resolve } from 'node:path';
import { isObj } from '../contract/json.ts';
import type { Json } from '../kinds/resource-kind.ts';
import { childPointer } from '../contract/field-path.ts';
import { ENV_VAR_PATTERN } from './schema/parts.ts';

const ENV_VAR = new RegExp(ENV_VAR_PATTERN);

/** An error names the secret field (`field`) and is reported at `pointer`, its `file` or `env` key. */
type SecretOutcome = { value: string } | { error: string; field: string; pointer: string };


function readError(err: unknown): string {
  const code = (err as NodeJS.ErrnoException).code;
  if (code === 'ENOENT') return 'no such file';
  if (code === 'EISDIR') return 'it is a directory';
  if (code === 'EACCES' || code === 'EPERM') return 'permission denied';
  return code ?? 'unreadable';
}

/**
 * The value a secret field stands for, or undefined when it is not a `{file}`/`{env}` mapping (an inline
 * string stays; a malformed value is the schema's to report).
 */
export function resolveSecret(
  value: Json,
  pointer: string,
  ctx: { dir: string; cwd: string; env: NodeJS.ProcessEnv },
): SecretOutcome | undefined {
  if (!isObj(value)) return undefined;
  if (typeof value.file === 'string' && Object.keys(value).length === 1) {
    const abs = resolve(ctx.dir, value.file);
    try {
      return { value: readFileSync(abs, 'utf8') };
    } catch (err) {
      const shown = relative(ctx.cwd, abs);
      const also = shown === value.file ? '' : ` (${shown})`;
      return { error: `cannot read file "${value.file}"${also}: ${readError(err)}`, field: pointer, pointer: childPointer(pointer, 'file') };
    }
  }
  if (typeof value.env === 'string' && ENV_VAR.test(value.env) && Object.keys(value).length === 1) {
    const v = ctx.env[value.env];
    if (v === undefined) return { error: `environment variable ${value.env} is not set`, field: pointer, pointer: childPointer(pointer, 'env') };
    return { value: v };
  }
  return undefined;
}

/**
 * Where a problem of a secret field's resolved value is reported: at its `file`/`env` key when it was read
 * from one, with a note naming the file or variable (never the value); else at the field itself.
 */
export function secretSource(written: Json, pointer: string): { pointer: string; note: string } {
  if (!isObj(written)) return { pointer, note: '' };
  if (typeof written.file === 'string') return { pointer: childPointer(pointer, 'file'), note: ` (in file "${written.file}")` };
  if (typeof written.env === 'string') return { pointer: childPointer(pointer, 'env'), note: ` (in environment variable ${written.env})` };
  return { pointer, note: '' };
}
