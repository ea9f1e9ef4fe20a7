// /tls_certificates: an upload of a certificate chain (leaf first) with its private key. The service derives
// every read-only field from the leaf once, at upload, and stores them with the PEM chain. The private key is
// checked against the leaf and then dropped: nothing the service does needs it later, so it is neither stored
// nor, as the spec requires, ever returned. PEMs cannot be changed: PATCH takes description and metadata only.
import { tlsCertificate } from '../../contract/kinds/certificates.ts';
import { tlsCertificateFields, type TlsCertificateFields } from '../certs.ts';
import { defineCollection } from '../collection.ts';
import { baseFields, describedFields } from '../resource-def.ts';

interface TlsCertificateDoc {
  description?: string;
  metadata?: string;
  certificate_pem: string;
  derived: TlsCertificateFields;
}

export default defineCollection<TlsCertificateDoc>({
  kind: tlsCertificate,
  create: (body) => {
    const { private_key_pem, certificate_pem, ...rest } = body as { private_key_pem: string; certificate_pem: string };
    const derived = tlsCertificateFields(certificate_pem, private_key_pem);
    return { ...rest, certificate_pem, derived };
  },
  render: (doc, ctx) => ({
    ...baseFields(ctx, doc),
    ...describedFields(doc.data),
    certificate_pem: doc.data.certificate_pem,
    ...doc.data.derived,
  }),
});
