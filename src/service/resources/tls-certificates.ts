// /tls_certificates: an upload of a certificate chain (leaf first) with its private key. The service derives
// every read-only field from the leaf once, at upload, and stores them with the PEM chain. The private key is
// checked against the leaf and then dropped: nothing the service does needs it later, so it is neither stored
// nor, as the spec requires, ever returned. PEMs cannot be changed: PATCH takes description and metadata only.
import { tlsCertificateFields, type TlsCertificateFields } from '../certs.ts';
import { defineCollection } from '../collection.ts';
import { baseFields, describedFields, type KindDef } from '../resource-def.ts';
import { description, metadata, parseBody, string } from '../validate.ts';

export interface TlsCertificateDoc {
  description?: string;
  metadata?: string;
  certificate_pem: string;
  derived: TlsCertificateFields;
}

export const tlsCertificateKind: KindDef = {
  kind: 'tls_certificate',
  prefix: 'cert',
  label: 'TLS certificate',
  path: '/tls_certificates',
  notFound: 'ERR_TLS_CERTIFICATE_NOT_FOUND',
};

const createFields = { description, metadata, certificate_pem: string(), private_key_pem: string() };
const updateFields = { description, metadata };
const PEM_FIELDS = ['certificate_pem', 'private_key_pem'];

export default defineCollection<TlsCertificateDoc>({
  kind: tlsCertificateKind,
  listKey: 'tls_certificates',
  create: (body) => {
    const { private_key_pem, certificate_pem, ...rest } = parseBody(body, createFields, { required: ['certificate_pem', 'private_key_pem'] });
    const derived = tlsCertificateFields(certificate_pem!, private_key_pem!);
    return { ...rest, certificate_pem: certificate_pem!, derived };
  },
  update: (body, current) => ({ ...current.data, ...parseBody(body, updateFields, { immutable: PEM_FIELDS }) }),
  render: (doc, ctx) => ({
    ...baseFields(ctx, doc),
    ...describedFields(doc.data),
    certificate_pem: doc.data.certificate_pem,
    ...doc.data.derived,
  }),
});
