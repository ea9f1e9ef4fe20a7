// A certificate upload as the service stores it, read with a full X.509 library (@peculiar/x509): the service
// derives the fields it shows from what these return (src/service/certs.ts), and plans summarize certificates
// with it (certificate-summary.ts). Whether an upload is taken at all is certificate-verdict.ts's decision, made
// first on both sides; no message carries any part of the submitted text.
import 'reflect-metadata';
import * as x509 from '@peculiar/x509';
import { checkCertificateAuthority, checkTlsCertificate, inField, readCertificateChain, readOnce, type PrivateKeyType } from './certificate-verdict.ts';
import { RuleError } from './rule-error.ts';

export { parsePrivateKey, type PrivateKeyType } from './certificate-verdict.ts';

const parsedChains = readOnce<x509.X509Certificate[]>();

/**
 * Parse a chain of PEM certificates the verdict takes (certificate-verdict.ts readCertificateChain: at least one,
 * every block a certificate, nothing else in the text); throws its RuleError.
 */
export function parseCertificateChain(pem: string): x509.X509Certificate[] {
  return parsedChains(pem, () => readCertificateChain(pem).map((cert, i) => parseCertificate(cert.der, i + 1)));
}

function parseCertificate(der: Buffer, index: number): x509.X509Certificate {
  try {
    return new x509.X509Certificate(new Uint8Array(der));
  } catch {
    throw new RuleError('ERR_PEM_INVALID', `PEM block ${index} is not a valid X.509 certificate`);
  }
}

/**
 * Names and extensions are decoded on first access (all extensions at once): one the library cannot read is
 * refused here, where both sides see it, rather than when the service derives its fields.
 */
function checkReadable(cert: x509.X509Certificate, field: string): void {
  try {
    void cert.subjectName.toJSON();
    void cert.issuerName.toJSON();
    for (const ext of cert.extensions) {
      if (ext instanceof x509.SubjectAlternativeNameExtension) void ext.names.items;
    }
  } catch {
    throw new RuleError('ERR_CERT_FIELD_UNREADABLE', 'the first certificate has a name or extension that cannot be decoded', field);
  }
}

/** A TLS certificate upload as the service stores it: the chain (leaf first) and the type of its private key. */
interface TlsCertificateUpload {
  chain: x509.X509Certificate[];
  leaf: x509.X509Certificate;
  privateKeyType: PrivateKeyType;
}

/** Parse a TLS certificate upload the verdict takes, or throw its RuleError (`field` names the body field at fault). */
export function parseTlsCertificate(certificatePem: string, privateKeyPem: string): TlsCertificateUpload {
  const privateKeyType = checkTlsCertificate(certificatePem, privateKeyPem);
  const chain = inField('certificate_pem', () => parseCertificateChain(certificatePem));
  const leaf = chain[0]!;
  checkReadable(leaf, 'certificate_pem');
  return { chain, leaf, privateKeyType };
}

/** Parse a CA upload (one or more concatenated certificates) the verdict takes, or throw a RuleError naming `ca_pem`. */
export function parseCertificateAuthority(caPem: string): x509.X509Certificate[] {
  checkCertificateAuthority(caPem);
  const chain = inField('ca_pem', () => parseCertificateChain(caPem));
  checkReadable(chain[0]!, 'ca_pem');
  return chain;
}
