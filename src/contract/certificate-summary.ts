// What a reviewer reads about the certificates in a PEM value (a chain, leaf first, or a CA bundle): subject,
// SANs, issuer, validity and serial of each, parsed with the same X.509 reader as the upload rules
// (certificates.ts). Plans show these beside the PEM's fingerprint; the PEM text itself says nothing to a reader.
import 'reflect-metadata';
import * as x509 from '@peculiar/x509';
import { parseCertificateChain } from './certificates.ts';

// A type, not an interface: it is plain JSON data, and assignable as such.
export type CertificateSummary = {
  /** The subject's distinguished name as RFC 4514 text (`CN=www.example.com, O=Example`). */
  subject: string;
  /** Subject alternative names, typed as OpenSSL prints them (`DNS:www.example.com`, `IP:203.0.113.7`). */
  sans: string[];
  issuer: string;
  /** ISO 8601, UTC, to the second. */
  not_before: string;
  not_after: string;
  /** Lower-case hex. */
  serial: string;
};

const SAN_PREFIX: Record<string, string> = { dns: 'DNS', ip: 'IP', email: 'email', url: 'URI', upn: 'UPN', guid: 'GUID', id: 'RID', dn: 'DirName' };

const iso = (date: Date): string => date.toISOString().replace(/\.\d{3}Z$/, 'Z');

function sansOf(cert: x509.X509Certificate): string[] {
  const ext = cert.getExtension(x509.SubjectAlternativeNameExtension);
  return (ext?.names.items ?? []).map((name) => `${SAN_PREFIX[name.type] ?? name.type}:${name.value}`);
}

function summarize(cert: x509.X509Certificate): CertificateSummary {
  return {
    subject: cert.subject,
    sans: sansOf(cert),
    issuer: cert.issuer,
    not_before: iso(cert.notBefore),
    not_after: iso(cert.notAfter),
    serial: cert.serialNumber.toLowerCase(),
  };
}

/**
 * The summaries of the certificates in `pem`, in order; undefined when it is not a chain of certificates the
 * reader takes (the plan then shows the fingerprint alone; the upload rules report the problem).
 */
export function certificateSummaries(pem: string): CertificateSummary[] | undefined {
  try {
    return parseCertificateChain(pem).map(summarize);
  } catch {
    return undefined;
  }
}
