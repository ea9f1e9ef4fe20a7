// The fields the service derives from a parsed X.509 certificate, in the wire vocabulary of the API.
// The spec leaves the values of key_usages and extended_key_usages open; we use the public API's snake_case
// names of the RFC 5280 bits and purposes (tables below, documented in the README), and an unknown extended
// key usage is listed by its dotted OID so that nothing in the certificate is silently dropped.
import 'reflect-metadata';
import * as x509 from '@peculiar/x509';

export interface SubjectAlternativeNames {
  dns_names: string[];
  ips: string[];
}

/** Key usage bits in RFC 5280 order (bit 0 first); the output lists them in this order. */
const KEY_USAGES: [x509.KeyUsageFlags, string][] = [
  [x509.KeyUsageFlags.digitalSignature, 'digital_signature'],
  [x509.KeyUsageFlags.nonRepudiation, 'content_commitment'],
  [x509.KeyUsageFlags.keyEncipherment, 'key_encipherment'],
  [x509.KeyUsageFlags.dataEncipherment, 'data_encipherment'],
  [x509.KeyUsageFlags.keyAgreement, 'key_agreement'],
  [x509.KeyUsageFlags.keyCertSign, 'cert_sign'],
  [x509.KeyUsageFlags.cRLSign, 'crl_sign'],
  [x509.KeyUsageFlags.encipherOnly, 'encipher_only'],
  [x509.KeyUsageFlags.decipherOnly, 'decipher_only'],
];

const EXTENDED_KEY_USAGES: Record<string, string> = {
  '2.5.29.37.0': 'any',
  '1.3.6.1.5.5.7.3.1': 'server_auth',
  '1.3.6.1.5.5.7.3.2': 'client_auth',
  '1.3.6.1.5.5.7.3.3': 'code_signing',
  '1.3.6.1.5.5.7.3.4': 'email_protection',
  '1.3.6.1.5.5.7.3.5': 'ipsec_end_system',
  '1.3.6.1.5.5.7.3.6': 'ipsec_tunnel',
  '1.3.6.1.5.5.7.3.7': 'ipsec_user',
  '1.3.6.1.5.5.7.3.8': 'time_stamping',
  '1.3.6.1.5.5.7.3.9': 'ocsp_signing',
};

const OID = {
  commonName: '2.5.4.3',
  organization: '2.5.4.10',
  organizationalUnit: '2.5.4.11',
  locality: '2.5.4.7',
  province: '2.5.4.8',
  country: '2.5.4.6',
  keyUsage: '2.5.29.15',
  subjectAltName: '2.5.29.17',
  extKeyUsage: '2.5.29.37',
} as const;

type NameAttribute = Exclude<keyof typeof OID, 'keyUsage' | 'subjectAltName' | 'extKeyUsage'>;

/** The first value of a name attribute ('' when absent): the spec's subject fields are single strings. */
export function nameField(name: x509.Name, attribute: NameAttribute): string {
  return name.getField(OID[attribute])[0] ?? '';
}

/**
 * The serial as the public API prints it: the DER INTEGER's content octets in lowercase hex, every octet kept,
 * so a leading zero nibble ("054ba70d…", as captured from the real API) and a 0x00 sign octet before a serial
 * with its high bit set ("00f0e1") both stay. A negative serial (RFC 5280 forbids them, but CAs have issued
 * some) is its two's-complement octets ("fb" for -5). If the bytes are not laid out as expected, the library's
 * own reading is used.
 */
export function serialHex(cert: x509.X509Certificate): string {
  const octets = serialOctets(new Uint8Array(cert.rawData));
  if (octets === undefined) return cert.serialNumber.toLowerCase();
  return Buffer.from(octets).toString('hex');
}

/**
 * The content octets of tbsCertificate.serialNumber in a DER certificate the library has already parsed:
 * Certificate ::= SEQUENCE { tbsCertificate SEQUENCE { version [0] EXPLICIT OPTIONAL, serialNumber INTEGER, ...
 * Undefined if the bytes are not laid out so (then the caller uses the library's unsigned reading).
 */
function serialOctets(der: Uint8Array): Uint8Array | undefined {
  let at = 0;
  const header = (): { tag: number; length: number } => {
    const tag = der[at++] ?? -1;
    let length = der[at++] ?? 0;
    if (length & 0x80) {
      const bytes = length & 0x7f;
      length = 0;
      for (let i = 0; i < bytes; i++) length = length * 256 + (der[at++] ?? 0);
    }
    return { tag, length };
  };
  if (header().tag !== 0x30 || header().tag !== 0x30) return undefined;
  let field = header();
  if (field.tag === 0xa0) {
    at += field.length;
    field = header();
  }
  if (field.tag !== 0x02 || at + field.length > der.length) return undefined;
  return der.subarray(at, at + field.length);
}

export function keyUsages(cert: x509.X509Certificate): string[] {
  const ext = cert.getExtension<x509.KeyUsagesExtension>(OID.keyUsage);
  if (!ext) return [];
  return KEY_USAGES.filter(([flag]) => (ext.usages & flag) !== 0).map(([, name]) => name);
}

export function extendedKeyUsages(cert: x509.X509Certificate): string[] {
  const ext = cert.getExtension<x509.ExtendedKeyUsageExtension>(OID.extKeyUsage);
  if (!ext) return [];
  return ext.usages.map((oid) => EXTENDED_KEY_USAGES[String(oid)] ?? String(oid));
}

/** DNS names and IP addresses of the SAN extension, in certificate order; other name types are not part of the API. */
export function subjectAlternativeNames(cert: x509.X509Certificate): SubjectAlternativeNames {
  const ext = cert.getExtension<x509.SubjectAlternativeNameExtension>(OID.subjectAltName);
  const out: SubjectAlternativeNames = { dns_names: [], ips: [] };
  for (const name of ext?.names.items ?? []) {
    if (name.type === 'dns') out.dns_names.push(name.value);
    // An iPAddress of 4 or 16 octets is an address; 8 or 32 would be a name-constraint range, not a SAN.
    else if (name.type === 'ip' && !name.value.includes('/')) out.ips.push(name.value);
  }
  return out;
}
