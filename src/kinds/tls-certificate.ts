// TLS certificate (/tls_certificates): uploaded PEMs. The private key is write-only and secret; the fields
// the service derives from the leaf (subject, SANs, validity, ...) are dropped since they are not sent.
import { pemKeys } from './adopt-keys.ts';
import { tlsCertificate as contract } from '../contract/kinds/certificates.ts';
import { markerKind } from './marker-kind.ts';
import { pemNormalizer } from './normalize.ts';

export const tlsCertificate = markerKind({
  kind: 'TLSCertificate',
  contract,
  fields: ['description', 'metadata', 'certificate_pem', 'private_key_pem'],
  normalize: pemNormalizer('certificate_pem'),
  secrets: ['private_key_pem'],
  certificateFields: ['certificate_pem'],
  writeOnly: ['private_key_pem'],
  // Only by the certificate: a certificate with the same description but another PEM would be replaced.
  adoptKeys: (body) => pemKeys('certificate_pem', body.certificate_pem),
  // The chain parses, the key parses, and the key is the leaf's: what the service checks on upload.
  valueRules: {
    fields: ['certificate_pem', 'private_key_pem'],
    load: async () => {
      const { tlsCertificateProblem } = await import('../contract/certificate-verdict.ts');
      return (body) => tlsCertificateProblem(String(body.certificate_pem), String(body.private_key_pem));
    },
  },
});
