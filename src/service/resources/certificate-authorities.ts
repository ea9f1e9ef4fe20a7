// /certificate_authorities: CA certificates that TLS and HTTPS edges use to verify client certificates
// (mutual_tls.certificate_authority_ids). ca_pem may hold several concatenated certificates; the derived fields
// come from the first. Edges declare their references, so deleting a CA still in use is the core's 409.
import { certificateAuthority } from '../../contract/kinds/certificates.ts';
import { certificateAuthorityFields, type CertificateAuthorityFields } from '../certs.ts';
import { defineCollection } from '../collection.ts';
import { baseFields, describedFields } from '../resource-def.ts';

interface CertificateAuthorityDoc {
  description?: string;
  metadata?: string;
  ca_pem: string;
  derived: CertificateAuthorityFields;
}

export default defineCollection<CertificateAuthorityDoc>({
  kind: certificateAuthority,
  create: (body) => {
    const { ca_pem, ...rest } = body as { ca_pem: string };
    return { ...rest, ca_pem, derived: certificateAuthorityFields(ca_pem) };
  },
  render: (doc, ctx) => ({
    ...baseFields(ctx, doc),
    ...describedFields(doc.data),
    ca_pem: doc.data.ca_pem,
    ...doc.data.derived,
  }),
});
