// /certificate_authorities: CA certificates that TLS and HTTPS edges use to verify client certificates
// (mutual_tls.certificate_authority_ids). ca_pem may hold several concatenated certificates; the derived fields
// come from the first. Edges declare their references, so deleting a CA still in use is the core's 409.
import { certificateAuthorityFields, type CertificateAuthorityFields } from '../certs.ts';
import { defineCollection } from '../collection.ts';
import { baseFields, describedFields, type KindDef } from '../resource-def.ts';
import { description, metadata, parseBody, string } from '../validate.ts';

export interface CertificateAuthorityDoc {
  description?: string;
  metadata?: string;
  ca_pem: string;
  derived: CertificateAuthorityFields;
}

export const certificateAuthorityKind: KindDef = {
  kind: 'certificate_authority',
  prefix: 'ca',
  label: 'certificate authority',
  path: '/certificate_authorities',
  notFound: 'ERR_CERTIFICATE_AUTHORITY_NOT_FOUND',
};

const createFields = { description, metadata, ca_pem: string() };
const updateFields = { description, metadata };

export default defineCollection<CertificateAuthorityDoc>({
  kind: certificateAuthorityKind,
  listKey: 'certificate_authorities',
  create: (body) => {
    const { ca_pem, ...rest } = parseBody(body, createFields, { required: ['ca_pem'] });
    return { ...rest, ca_pem: ca_pem!, derived: certificateAuthorityFields(ca_pem!) };
  },
  update: (body, current) => ({ ...current.data, ...parseBody(body, updateFields, { immutable: ['ca_pem'] }) }),
  render: (doc, ctx) => ({
    ...baseFields(ctx, doc),
    ...describedFields(doc.data),
    ca_pem: doc.data.ca_pem,
    ...doc.data.derived,
  }),
});
