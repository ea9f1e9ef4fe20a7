// What `object` and `oldObject` hold: a resource in the request shape, with references by name (as the
// manifests write them, whether planned or live), secrets as fingerprints (never a private key), and what the
// service derives from a certificate field (validity, names), so a rule can read a certificate's expiry.
import { createHash } from 'node:crypto';
import { certificateSummaries } from '../contract/certificate-summary.ts';
import { isPendingRef } from '../kinds/refs.ts';
import type { Json, Obj, ResourceKind } from '../kinds/resource-kind.ts';

/** `sha256:` and the first 16 hex digits: enough to compare two secrets, nothing to recover one from. */
export const secretFingerprint = (value: string): string => `sha256:${createHash('sha256').update(value).digest('hex').slice(0, 16)}`;

/** References by name: a pending `{$ref: 'Kind/name'}` or a live id of a managed resource becomes `name`. */
function withNames(value: Json, nameOf: (id: string) => string | undefined): Json {
  if (isPendingRef(value)) return value.$ref.slice(value.$ref.indexOf('/') + 1);
  if (typeof value === 'string') return nameOf(value) ?? value;
  if (Array.isArray(value)) return value.map((v) => withNames(v, nameOf));
  if (value !== null && typeof value === 'object') return Object.fromEntries(Object.entries(value).map(([k, v]) => [k, withNames(v, nameOf)]));
  return value;
}

/** The fields a certificate in a non-secret `*_pem` field gives (the leaf's), as the service derives them. */
function certificateFields(body: Obj, secrets: readonly string[]): Obj {
  for (const [field, value] of Object.entries(body)) {
    if (!field.endsWith('_pem') || secrets.includes(field) || typeof value !== 'string') continue;
    const leaf = certificateSummaries(value)?.[0];
    if (!leaf) continue;
    const sans = leaf.sans;
    const cn = /(?:^|,\s*)CN=([^,]+)/.exec(leaf.subject)?.[1] ?? '';
    return {
      not_before: leaf.not_before,
      not_after: leaf.not_after,
      subject_common_name: cn,
      issuer: leaf.issuer,
      subject_alternative_names: {
        dns_names: sans.filter((s) => s.startsWith('DNS:')).map((s) => s.slice(4)),
        ips: sans.filter((s) => s.startsWith('IP:')).map((s) => s.slice(3)),
      },
    };
  }
  return {};
}

/**
 * A body (desired spec or live body, request shape) as `object`: `name` first, references by name, secrets as
 * fingerprints, certificate fields derived.
 */
export function policyObject(kind: ResourceKind | undefined, name: string, body: Obj, nameOf: (id: string) => string | undefined = () => undefined): Obj {
  const secrets = kind?.secrets ?? [];
  const out: Obj = { name };
  for (const [field, value] of Object.entries(body)) {
    if (value === undefined) continue;
    out[field] = secrets.includes(field) && typeof value === 'string' ? secretFingerprint(value) : withNames(value, nameOf);
  }
  return { ...out, ...certificateFields(body, secrets) };
}
