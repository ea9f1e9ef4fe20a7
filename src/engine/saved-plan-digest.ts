// A saved plan's digest: the SHA-256 of everything else in the file, in canonical JSON, written as its last
// field. A file edited after `plan --out` wrote it (an action's value, a count, the checksum) no longer matches
// and is refused before it is shown or applied. Unkeyed, so it tells an edited file from the one edgeops wrote,
// not a forgery from a real plan: what guards an apply is still the check of every saved action against a fresh
// plan (saved-plan-check.ts).
import { canonicalJson } from '../kinds/marker.ts';
import type { Json } from '../kinds/resource-kind.ts';
import { sha256 } from './fingerprint.ts';

/** The digest of a saved plan's content (its `digest` field, if any, left out). */
export function savedPlanDigest(content: Record<string, unknown>): string {
  const { digest: _digest, ...rest } = content;
  // Through JSON first: what is hashed is exactly what the file holds (no undefined members).
  return sha256(canonicalJson(JSON.parse(JSON.stringify(rest)) as Json));
}

/** Whether the file's content still has the digest written into it. */
export function digestMatches(content: Record<string, unknown>): boolean {
  return typeof content.digest === 'string' && content.digest === savedPlanDigest(content);
}
