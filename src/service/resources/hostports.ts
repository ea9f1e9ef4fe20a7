// The `hostports` field shared by TCP, TLS and HTTPS edges: `host:port` strings, unique within the list, and
// (through claims in one scope for all three edge kinds) served by one edge only. What a hostport is, and the
// key it is claimed by, are the contract's (src/contract/values.ts).
import { hostportKey, hostportProblem } from '../../contract/values.ts';
import { ruleViolation, ServiceError } from '../errors.ts';
import type { Claim } from '../resource-def.ts';
import { clip, fieldPath, type Validator } from '../validate.ts';

/** Validator for the list: each entry valid, no entry twice. Returned as sent. */
export const hostports: Validator<string[]> = (value, path) => {
  if (!Array.isArray(value)) throw new ServiceError('ERR_FIELD_TYPE', `${path}: expected a list of strings`);
  const seen = new Set<string>();
  return value.map((item, i) => {
    const p = fieldPath(path, i);
    if (typeof item !== 'string') throw new ServiceError('ERR_FIELD_TYPE', `${p}: expected a string`);
    const problem = hostportProblem(item);
    if (problem) throw ruleViolation(problem, p);
    const key = hostportKey(item);
    if (seen.has(key)) throw new ServiceError('ERR_HOSTPORT_DUPLICATE', `${p}: ${JSON.stringify(clip(item))} is listed twice`);
    seen.add(key);
    return item;
  });
};

/** One claim per hostport, in the scope every edge kind shares. */
export function hostportClaims(list: readonly string[]): Claim[] {
  return list.map((h, i) => ({ scope: 'hostport', key: hostportKey(h), field: `hostports[${i}]`, conflict: 'ERR_HOSTPORT_IN_USE' }));
}

/** Empty or unset hostports are returned as null, as the public API does. */
export function renderHostports(list: readonly string[]): string[] | null {
  return list.length > 0 ? [...list] : null;
}
