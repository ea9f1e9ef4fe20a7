// TLS certificate (/tls_certificates): uploaded PEMs. The private key is write-only and secret; the fields
// the service derives from the leaf (subject, SANs, validity, ...) are dropped since they are not sent.
import { pemKeys } from './adopt-keys.ts';
import { crudHooks } from './crud.ts';
import { dropEmptyStrings, normalizePem, pickFields } from './normalize.ts';
import type { Obj, ResourceKind } from './resource-kind.ts';

const FIELDS = ['description', 'metadata', 'certificate_pem', 'private_key_pem'];
const IMMUTABLE = ['certificate_pem', 'private_key_pem'];

function normalize(body: Obj): Obj {
  const out = dropEmptyStrings(body);
  const pem = normalizePem(out.certificate_pem);
  if (pem !== undefined) out.certificate_pem = pem;
  return out;
}

const fromLive = (raw: Obj): Obj => normalize(pickFields(raw, FIELDS));

export const tlsCertificate: ResourceKind = {
  kind: 'TLSCertificate',
  idPrefix: 'cert_',
  identity: 'marker',
  refs: [],
  immutable: IMMUTABLE,
  secrets: ['private_key_pem'],
  writeOnly: ['private_key_pem'],
  modules: [],
  toRequest: (spec) => ({ ...spec }),
  fromLive,
  normalizeDesired: normalize,
  // Only by the certificate: a certificate with the same description but another PEM would be replaced.
  adoptKeys: (body) => pemKeys('certificate_pem', body.certificate_pem),
  ...crudHooks({ path: '/tls_certificates', listKey: 'tls_certificates', fromLive, notPatchable: IMMUTABLE }),
};
