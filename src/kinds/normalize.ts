// Pure helpers shared by the kinds' fromLive/normalizeDesired. Both sides of a diff go through the same
// helpers, so a value the service fills in (or drops) when unsent meets the desired body half way. Their loops
// are indexed: they run for every body, mostly before V8 optimizes them, and an unoptimized for-of allocates an
// iterator result at every step.
import { isObj } from '../contract/json.ts';
import type { Json, Obj } from './resource-kind.ts';

export { isObj };

/** Keep only the listed request fields, dropping null/undefined ones (the service returns unset fields as null). */
export function pickFields(raw: Obj, fields: readonly string[]): Obj {
  const out: Obj = {};
  for (let i = 0; i < fields.length; i++) {
    const f = fields[i]!;
    const v = raw[f];
    if (v !== null && v !== undefined) out[f] = v;
  }
  return out;
}

/** A Ref `{id, uri}` (or an already-bare id) -> the id. */
export function refId(ref: Json | undefined): Json {
  if (isObj(ref) && typeof ref.id === 'string') return ref.id;
  return ref ?? null;
}

export function refIds(refs: Json | undefined): Json[] {
  return Array.isArray(refs) ? refs.map(refId) : [];
}

/** Header names are case-insensitive and the service returns them lower-cased. */
export function lowerKeys(map: Json | undefined): Obj {
  const out: Obj = {};
  if (!isObj(map)) return out;
  for (const k in map) out[k.toLowerCase()] = map[k]!;
  return out;
}

/**
 * PEM text compared modulo line endings and trailing whitespace: files edited on Windows or saved with a
 * trailing newline must not show as a change against what the service stored.
 */
function normalizePem(pem: Json | undefined): Json | undefined {
  if (typeof pem !== 'string') return pem;
  return pem
    .replace(/\r\n?/g, '\n')
    .split('\n')
    .map((line) => line.trimEnd())
    .join('\n')
    .trimEnd();
}

/** Empty strings dropped and the PEM field compared by normalizePem: shared by the kinds that hold a PEM. */
export function pemNormalizer(field: string): (body: Obj) => Obj {
  return (body) => {
    const out = dropEmptyStrings(body);
    const pem = normalizePem(out[field]);
    if (pem !== undefined) out[field] = pem;
    return out;
  };
}

/** `description`/`metadata` left empty are omitted by the service: treat '' like absent on both sides. */
export function dropEmptyStrings(body: Obj, fields: readonly string[] = ['description', 'metadata']): Obj {
  const out: Obj = { ...body };
  for (let i = 0; i < fields.length; i++) if (out[fields[i]!] === '' || out[fields[i]!] === null) delete out[fields[i]!];
  return out;
}

/** A list field that is empty means the same as absent (`hostports: null` vs `[]` vs unsent). */
export function dropEmptyList(body: Obj, field: string): Obj {
  const v = body[field];
  if (v === null || (Array.isArray(v) && v.length === 0)) {
    const out = { ...body };
    delete out[field];
    return out;
  }
  return body;
}
