// What the certificates a plan shows say: every PEM value of a kind's certificate fields
// (ResourceKind.certificateFields) that a change carries, old or new, is parsed once and summarized (subject,
// SANs, issuer, validity, serial), so a reviewer reads a rotation as `not_after: 2025-... -> 2026-...` beside the
// PEM's fingerprint. Display only (Plan.certificates, like Plan.names): the checksum and saved-plan checks never
// read it. The X.509 reader is loaded only when a plan shows such a field.
import { createHash } from 'node:crypto';
import type { ResourceKind } from '../kinds/resource-kind.ts';
import type { CertificateSummary, Plan } from './plan-data.ts';
import { pointerSegments } from '../kinds/refs.ts';

/** The key of a PEM value in Plan.certificates: the SHA-256 (hex) of its text. */
export const pemDigest = (pem: string): string => createHash('sha256').update(pem).digest('hex');

/** The plan with `certificates` for the PEM values its changes show; the input plan is not changed. */
export async function describeCertificates(plan: Plan, kinds: readonly ResourceKind[]): Promise<Plan> {
  const fieldsOf = new Map(kinds.map((k) => [k.kind, k.certificateFields ?? []]));
  const pems = new Set<string>();
  for (const action of plan.actions) {
    const fields = fieldsOf.get(action.kind) ?? [];
    if (fields.length === 0) continue;
    for (const change of action.changes) {
      if (change.sensitive || !fields.includes(pointerSegments(change.path)[0] ?? '')) continue;
      for (const value of [change.old, change.new]) if (typeof value === 'string') pems.add(value);
    }
  }
  if (pems.size === 0) return plan;
  const { certificateSummaries } = await import('../contract/certificate-summary.ts');
  const certificates: Record<string, CertificateSummary[]> = {};
  for (const pem of pems) {
    const summaries = certificateSummaries(pem);
    if (summaries) certificates[pemDigest(pem)] = summaries;
  }
  return Object.keys(certificates).length > 0 ? { ...plan, certificates } : plan;
}
