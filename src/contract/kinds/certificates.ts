// TLS certificates (a chain with its private key) and certificate authorities (CA certificates edges verify
// client certificates with). PEMs are create-only: a PATCH takes description and metadata. Whether a PEM parses
// and the key matches its leaf is checked by the contract's PEM rules, not by the schema.
import type { ContractKind } from '../kind.ts';
import { description, metadata, object } from '../schema.ts';

declare module '../kind.ts' {
  interface KindNames {
    tls_certificate: true;
    certificate_authority: true;
  }
}

const common = { description, metadata };
const pem = (what: string) => ({ type: 'string' as const, description: what });

export const tlsCertificate: ContractKind = {
  kind: 'tls_certificate',
  prefix: 'cert',
  label: 'TLS certificate',
  path: '/tls_certificates',
  listKey: 'tls_certificates',
  create: object({
    ...common,
    certificate_pem: pem('The certificate chain in PEM, leaf first.'),
    private_key_pem: pem('The private key of the leaf in PEM (rsa, ecdsa or ed25519; not encrypted). Never returned.'),
  }, ['certificate_pem', 'private_key_pem']),
  update: object(common),
  immutable: ['certificate_pem', 'private_key_pem'],
  modules: [],
  refs: [],
  checks: [],
  echoedIds: ['id'],
};

export const certificateAuthority: ContractKind = {
  kind: 'certificate_authority',
  prefix: 'ca',
  label: 'certificate authority',
  path: '/certificate_authorities',
  listKey: 'certificate_authorities',
  create: object({ ...common, ca_pem: pem('One or more CA certificates in PEM.') }, ['ca_pem']),
  update: object(common),
  immutable: ['ca_pem'],
  modules: [],
  refs: [],
  checks: [],
  echoedIds: ['id'],
};
