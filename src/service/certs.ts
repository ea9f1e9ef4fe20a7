// Certificate uploads: parse a PEM chain (leaf first) with a real X.509 library, parse the private key with
// node:crypto (PKCS#8, PKCS#1 RSA and SEC1 EC encodings), refuse a key that does not match the leaf, and derive
// every field the API shows. Every failure is a 400 ServiceError with its own code; no message ever carries any
// part of the submitted key.
import 'reflect-metadata';
import * as x509 from '@peculiar/x509';
import { createPrivateKey, createPublicKey, type KeyObject } from 'node:crypto';
import { ServiceError } from './errors.ts';
import { describeLabel, readPemBlocks, type PemBlock } from './pem.ts';
import {
  extendedKeyUsages,
  keyUsages,
  nameField,
  serialHex,
  subjectAlternativeNames,
  type SubjectAlternativeNames,
} from './cert-fields.ts';
// The API's one time format (UTC, `Z`, whole seconds): a GeneralizedTime's fractions are not shown.
import { nowTimestamp as rfc3339 } from './ids.ts';

export type PrivateKeyType = 'rsa' | 'ecdsa' | 'ed25519';

/** The derived, read-only fields of a TLS certificate resource (everything but id, uri, created_at, description, metadata, certificate_pem). */
export interface TlsCertificateFields {
  subject_common_name: string;
  subject_alternative_names: SubjectAlternativeNames;
  issued_at: null;
  not_before: string;
  not_after: string;
  key_usages: string[];
  extended_key_usages: string[];
  private_key_type: PrivateKeyType;
  issuer_common_name: string;
  serial_number: string;
  subject_organization: string;
  subject_organizational_unit: string;
  subject_locality: string;
  subject_province: string;
  subject_country: string;
}

/** The derived fields of a certificate authority, from the first certificate of ca_pem. */
export interface CertificateAuthorityFields {
  subject_common_name: string;
  not_before: string;
  not_after: string;
  key_usages: string[];
  extended_key_usages: string[];
}

// Curves a TLS stack signs with; others parse in OpenSSL but no client would accept them.
const EC_CURVES = new Set(['prime256v1', 'secp384r1', 'secp521r1']);

const KEY_DER_TYPES: Record<string, 'pkcs8' | 'pkcs1' | 'sec1'> = {
  'PRIVATE KEY': 'pkcs8',
  'RSA PRIVATE KEY': 'pkcs1',
  'EC PRIVATE KEY': 'sec1',
};

/** Parse a chain of PEM certificates; at least one, every block a certificate, nothing else in the text. */
export function parseCertificateChain(pem: string, field: string): x509.X509Certificate[] {
  const blocks = readPemBlocks(pem, field, { empty: 'ERR_PEM_EMPTY', outside: 'ERR_PEM_TRAILING_DATA', malformed: 'ERR_PEM_INVALID' });
  return blocks.map((block, i) => parseCertificate(block, field, i + 1));
}

function parseCertificate(block: PemBlock, field: string, index: number): x509.X509Certificate {
  if (block.label !== 'CERTIFICATE') {
    throw new ServiceError('ERR_PEM_WRONG_TYPE', `${field}: PEM block ${index} is ${describeLabel(block.label)}, expected a "CERTIFICATE" block`);
  }
  let cert: x509.X509Certificate;
  try {
    cert = new x509.X509Certificate(new Uint8Array(block.der));
  } catch {
    throw new ServiceError('ERR_PEM_INVALID', `${field}: PEM block ${index} is not a valid X.509 certificate`);
  }
  // The DER reader stops at the end of the certificate; bytes after it mean the block is not one certificate.
  if (derLength(block.der) !== block.der.length) {
    throw new ServiceError('ERR_PEM_INVALID', `${field}: PEM block ${index} has data after the certificate`);
  }
  return cert;
}

/** Total length (header + content) of the DER element at the start of `der`; the parser has already checked its form. */
function derLength(der: Buffer): number {
  const first = der[1] ?? 0;
  if (first < 0x80) return 2 + first;
  const n = first & 0x7f;
  let len = 0;
  for (let i = 0; i < n; i++) len = len * 256 + (der[2 + i] ?? 0);
  return 2 + n + len;
}

/** Parse a PEM private key: exactly one block, unencrypted, of a supported type. */
export function parsePrivateKey(pem: string, field: string): { key: KeyObject; type: PrivateKeyType } {
  const blocks = readPemBlocks(pem, field, { empty: 'ERR_KEY_INVALID', outside: 'ERR_KEY_INVALID', malformed: 'ERR_KEY_INVALID' });
  if (blocks.length !== 1) throw new ServiceError('ERR_KEY_INVALID', `${field}: expected exactly one PEM block, found ${blocks.length}`);
  const block = blocks[0]!;
  if (block.label === 'ENCRYPTED PRIVATE KEY' || block.headers) {
    throw new ServiceError('ERR_KEY_ENCRYPTED', `${field}: the private key is encrypted; upload it unencrypted`);
  }
  const derType = KEY_DER_TYPES[block.label];
  if (!derType) {
    throw new ServiceError('ERR_KEY_INVALID', `${field}: the PEM block is ${describeLabel(block.label)}; expected a PKCS#8, PKCS#1 (RSA) or SEC1 (EC) private key`);
  }
  let key: KeyObject;
  try {
    key = createPrivateKey({ key: block.der, format: 'der', type: derType });
  } catch {
    // OpenSSL's message is not shown: it adds nothing for the user and this path must never echo key data.
    throw new ServiceError('ERR_KEY_INVALID', `${field}: the PEM block does not hold a valid private key`);
  }
  return { key, type: privateKeyType(key, field) };
}

function privateKeyType(key: KeyObject, field: string): PrivateKeyType {
  switch (key.asymmetricKeyType) {
    case 'rsa':
      return 'rsa';
    case 'ed25519':
      return 'ed25519';
    case 'ec': {
      const curve = key.asymmetricKeyDetails?.namedCurve ?? '';
      if (EC_CURVES.has(curve)) return 'ecdsa';
      throw new ServiceError('ERR_KEY_TYPE_UNSUPPORTED', `${field}: ecdsa keys must use the P-256, P-384 or P-521 curve`);
    }
    default:
      throw new ServiceError('ERR_KEY_TYPE_UNSUPPORTED', `${field}: the key type is not supported; use rsa, ecdsa or ed25519`);
  }
}

function certificatePublicKey(cert: x509.X509Certificate, field: string): KeyObject {
  try {
    return createPublicKey({ key: Buffer.from(cert.publicKey.rawData), format: 'der', type: 'spki' });
  } catch {
    throw new ServiceError('ERR_KEY_TYPE_UNSUPPORTED', `${field}: the leaf certificate's public key algorithm is not supported`);
  }
}

/** Names and extensions are decoded on first access (all extensions at once); one the library cannot read must be a 400, not a 500. */
function withReadableExtensions<T>(field: string, derive: () => T): T {
  try {
    return derive();
  } catch (err) {
    if (err instanceof ServiceError) throw err;
    throw new ServiceError('ERR_CERT_FIELD_UNREADABLE', `${field}: the first certificate has a name or extension that cannot be decoded`);
  }
}

/** Validate an upload (certificate chain + private key) and derive the certificate's read-only fields. */
export function tlsCertificateFields(certificatePem: string, privateKeyPem: string): TlsCertificateFields {
  const leaf = parseCertificateChain(certificatePem, 'certificate_pem')[0]!;
  const leafKey = certificatePublicKey(leaf, 'certificate_pem');
  const { key, type } = parsePrivateKey(privateKeyPem, 'private_key_pem');
  // equals() throws on keys of different types instead of answering false.
  const publicKey = createPublicKey(key);
  if (publicKey.asymmetricKeyType !== leafKey.asymmetricKeyType || !publicKey.equals(leafKey)) {
    throw new ServiceError('ERR_KEY_MISMATCH', 'private_key_pem: the private key does not match the public key of the first certificate in certificate_pem');
  }
  return withReadableExtensions('certificate_pem', () => ({
    subject_common_name: nameField(leaf.subjectName, 'commonName'),
    subject_alternative_names: subjectAlternativeNames(leaf),
    issued_at: null,
    not_before: rfc3339(leaf.notBefore),
    not_after: rfc3339(leaf.notAfter),
    key_usages: keyUsages(leaf),
    extended_key_usages: extendedKeyUsages(leaf),
    private_key_type: type,
    issuer_common_name: nameField(leaf.issuerName, 'commonName'),
    serial_number: serialHex(leaf),
    subject_organization: nameField(leaf.subjectName, 'organization'),
    subject_organizational_unit: nameField(leaf.subjectName, 'organizationalUnit'),
    subject_locality: nameField(leaf.subjectName, 'locality'),
    subject_province: nameField(leaf.subjectName, 'province'),
    subject_country: nameField(leaf.subjectName, 'country'),
  }));
}

/** Validate a CA upload (one or more concatenated certificates) and derive its fields from the first one. */
export function certificateAuthorityFields(caPem: string): CertificateAuthorityFields {
  const first = parseCertificateChain(caPem, 'ca_pem')[0]!;
  return withReadableExtensions('ca_pem', () => ({
    subject_common_name: nameField(first.subjectName, 'commonName'),
    not_before: rfc3339(first.notBefore),
    not_after: rfc3339(first.notAfter),
    key_usages: keyUsages(first),
    extended_key_usages: extendedKeyUsages(first),
  }));
}
