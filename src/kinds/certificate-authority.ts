// Certificate authority (/certificate_authorities): a CA PEM for mutual TLS. The PEM cannot be updated.
import { pemKeys } from './adopt-keys.ts';
import { crudHooks } from './crud.ts';
import { dropEmptyStrings, normalizePem, pickFields } from './normalize.ts';
import type { Obj, ResourceKind } from './resource-kind.ts';

const FIELDS = ['description', 'metadata', 'ca_pem'];
const IMMUTABLE = ['ca_pem'];

function normalize(body: Obj): Obj {
  const out = dropEmptyStrings(body);
  const pem = normalizePem(out.ca_pem);
  if (pem !== undefined) out.ca_pem = pem;
  return out;
}

const fromLive = (raw: Obj): Obj => normalize(pickFields(raw, FIELDS));

export const certificateAuthority: ResourceKind = {
  kind: 'CertificateAuthority',
  idPrefix: 'ca_',
  identity: 'marker',
  refs: [],
  immutable: IMMUTABLE,
  secrets: [],
  writeOnly: [],
  modules: [],
  toRequest: (spec) => ({ ...spec }),
  fromLive,
  normalizeDesired: normalize,
  // Only by the PEM: a CA with the same description but another PEM would be replaced, not adopted.
  adoptKeys: (body) => pemKeys('ca_pem', body.ca_pem),
  ...crudHooks({
    path: '/certificate_authorities',
    listKey: 'certificate_authorities',
    fromLive,
    notPatchable: IMMUTABLE,
  }),
};
