// What a reconciler kind takes from its contract kind (src/contract) instead of saying it again: its id prefix,
// paths, list key, create-only fields and reference fields. A reference field's kinds are contract names
// (`tunnel_group_backend`); the manifest names the same kinds in PascalCase (`TunnelGroupBackend`).
import type { ContractKind, KindName, RefField as ContractRef } from '../contract/index.ts';
import { fieldPattern } from '../contract/field-path.ts';
import { parentParam } from '../contract/path.ts';
import type { RefField } from './resource-kind.ts';

const ACRONYMS = new Set(['ip', 'tcp', 'tls', 'http', 'https']);

/** The manifest's name of a contract kind: `ip_policy_rule` -> `IPPolicyRule`. */
function manifestKindName(kind: KindName): string {
  return kind.split('_').map((w) => (ACRONYMS.has(w) ? w.toUpperCase() : `${w[0]!.toUpperCase()}${w.slice(1)}`)).join('');
}

export function refField(ref: ContractRef): RefField {
  return { pointer: fieldPattern(ref.field), kinds: ref.kinds.map(manifestKindName) };
}

/**
 * The reference fields of a kind's documents: its parent (named in the path; a manifest names it as a field),
 * then the create body's.
 */
export function contractRefs(contract: ContractKind): RefField[] {
  const param = parentParam(contract.path);
  const parent = param && contract.parent ? [{ pointer: `/${param}`, kinds: [manifestKindName(contract.parent)], inPath: true }] : [];
  return [...parent, ...contract.refs.map(refField)];
}

