// Certificate authority (/certificate_authorities): a CA PEM for mutual TLS. The PEM cannot be updated.
import { pemKeys } from './adopt-keys.ts';
import { certificateAuthority as contract } from '../contract/kinds/certificates.ts';
import { markerKind } from './marker-kind.ts';
import { pemNormalizer } from './normalize.ts';

export const certificateAuthority = markerKind({
  kind: 'CertificateAuthority',
  contract,
  fields: ['description', 'metadata', 'ca_pem'],
  normalize: pemNormalizer('ca_pem'),
  certificateFields: ['ca_pem'],
  // Only by the PEM: a CA with the same description but another PEM would be replaced, not adopted.
  adoptKeys: (body) => pemKeys('ca_pem', body.ca_pem),
  valueRules: {
    fields: ['ca_pem'],
    load: async () => {
      const { certificateChainProblem } = await import('../contract/certificate-verdict.ts');
      return (body) => certificateChainProblem(String(body.ca_pem));
    },
  },
});
