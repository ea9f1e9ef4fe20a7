// IP policy rule (/ip_policy_rules): one CIDR allowed or denied in one policy. The service cannot change a
// rule's action or policy, so those are immutable (a change replaces the rule).
import { fieldsKey } from './adopt-keys.ts';
import { crudHooks } from './crud.ts';
import { dropEmptyStrings, pickFields, refId } from './normalize.ts';
import type { Obj, ResourceKind } from './resource-kind.ts';

const FIELDS = ['description', 'metadata', 'cidr', 'ip_policy_id', 'action'];
const IMMUTABLE = ['ip_policy_id', 'action'];

const fromLive = (raw: Obj): Obj =>
  dropEmptyStrings(pickFields({ ...raw, ip_policy_id: raw.ip_policy_id ?? refId(raw.ip_policy) }, FIELDS));

export const ipPolicyRule: ResourceKind = {
  kind: 'IPPolicyRule',
  idPrefix: 'ipr_',
  identity: 'marker',
  refs: [{ pointer: '/ip_policy_id', kinds: ['IPPolicy'] }],
  immutable: IMMUTABLE,
  secrets: [],
  writeOnly: [],
  modules: [],
  toRequest: (spec) => ({ ...spec }),
  fromLive,
  normalizeDesired: (body) => dropEmptyStrings(body),
  // Not by description: a rule of another policy with the same words must not be adopted (and replaced).
  adoptKeys: (body) => fieldsKey('rule', body, ['ip_policy_id', 'cidr']),
  ...crudHooks({ path: '/ip_policy_rules', listKey: 'ip_policy_rules', fromLive, notPatchable: IMMUTABLE }),
};
