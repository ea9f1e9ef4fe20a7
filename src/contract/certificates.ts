// What the API takes as a certificate upload: `certificate_pem`, a chain of PEM certificates (leaf first), with
// `private_key_pem`, one unencrypted private key (PKCS#8, PKCS#1 RSA or SEC1 EC; rsa, ecdsa P-256/384/521 or
// ed25519) that matches the leaf; and a CA's `ca_pem`, one or more certificates. Parsed with a real X.509
// library. The service derives the fields it shows from what these return (src/service/certs.ts); the manifest
// pipeline asks for the problem only. No message carries any part of the submitted text.
import 'reflect-metadata';
import * as x509 from '@peculiar/x509';
import { createPrivateKey, createPublicKey, type KeyObject } from 'node:crypto';
import { describeLabel, readPemBlocks, type PemBlock } from './pem.ts';
import { problemOf, RuleError, type RuleProblem } from './rule-error.ts';

export type PrivateKeyType = 'rsa' | 'ecdsa' | 'ed25519';

// Curves a TLS stack signs with; others parse in OpenSSL but no client would accept them.
const EC_CURVES = new Set(['prime256v1', 'secp384r1', 'secp521r1']);

const KEY_DER_TYPES: Record<string, 'pkcs8' | 'pkcs1' | 'sec1'> = {
  'PRIVATE KEY': 'pkcs8',
  'RSA PRIVATE KEY': 'pkcs1',
  'EC PRIVATE KEY': 'sec1',
};

/** Parse a chain of PEM certificates; at least one, every block a certificate, nothing else in the text. Throws RuleError. */
export function parseCertificateChain(pem: string): x509.X509Certificate[] {
  const blocks = readPemBlocks(pem, { empty: 'ERR_PEM_EMPTY', outside: 'ERR_PEM_TRAILING_DATA', malformed: 'ERR_PEM_INVALID' });
  return blocks.map((block, i) => parseCertificate(block, i + 1));
}

function parseCertificate(block: PemBlock, index: number): x509.X509Certificate {
  if (block.label !== 'CERTIFICATE') {
    throw new RuleError('ERR_PEM_WRONG_TYPE', `PEM block ${index} is ${describeLabel(block.label)}, expected a "CERTIFICATE" block`);
  }
  let cert: x509.X509Certificate;
  try {
    cert = new x509.X509Certificate(new Uint8Array(block.der));
  } catch {
    throw new RuleError('ERR_PEM_INVALID', `PEM block ${index} is not a valid X.509 certificate`);
  }
  // The DER reader stops at the end of the certificate; bytes after it mean the block is not one certificate.
  if (derLength(block.der) !== block.der.length) throw new RuleError('ERR_PEM_INVALID', `PEM block ${index} has data after the certificate`);
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

/** Parse a PEM private key: exactly one block, unencrypted, of a supported type. Throws RuleError. */
export function parsePrivateKey(pem: string): { key: KeyObject; type: PrivateKeyType } {
  const blocks = readPemBlocks(pem, { empty: 'ERR_KEY_INVALID', outside: 'ERR_KEY_INVALID', malformed: 'ERR_KEY_INVALID' });
  if (blocks.length !== 1) throw new RuleError('ERR_KEY_INVALID', `expected exactly one PEM block, found ${blocks.length}`);
  const block = blocks[0]!;
  if (block.label === 'ENCRYPTED PRIVATE KEY' || block.headers) {
    throw new RuleError('ERR_KEY_ENCRYPTED', 'the private key is encrypted; upload it unencrypted');
  }
  const derType = KEY_DER_TYPES[block.label];
  if (!derType) {
    throw new RuleError('ERR_KEY_INVALID', `the PEM block is ${describeLabel(block.label)}; expected a PKCS#8, PKCS#1 (RSA) or SEC1 (EC) private key`);
  }
  let key: KeyObject;
  try {
    // OpenSSL 3 as in Node 22 and 24 decodes a key whatever `type` says (a PKCS#8 body under an "RSA PRIVATE KEY"
    // label loads), so the label is checked against the DER's own structure first.
    if (derStructure(block.der) !== derType) throw new Error('the PEM label does not match the encoding');
    key = createPrivateKey({ key: block.der, format: 'der', type: derType });
  } catch {
    // OpenSSL's message is not shown: it adds nothing for the user and this path must never echo key data.
    throw new RuleError('ERR_KEY_INVALID', 'the PEM block does not hold a valid private key');
  }
  return { key, type: privateKeyType(key) };
}

/**
 * Which private-key encoding a DER body has, by the second element of its outer SEQUENCE (after the version
 * INTEGER): PKCS#8 an AlgorithmIdentifier SEQUENCE, PKCS#1 the modulus INTEGER, SEC1 the key OCTET STRING.
 */
function derStructure(der: Buffer): 'pkcs8' | 'pkcs1' | 'sec1' | undefined {
  if (der[0] !== 0x30) return undefined;
  const header = (at: number): number => ((der[at + 1] ?? 0) < 0x80 ? 2 : 2 + ((der[at + 1] ?? 0) & 0x7f));
  const version = header(0);
  if (der[version] !== 0x02) return undefined;
  const second = version + derLength(der.subarray(version));
  return ({ 0x30: 'pkcs8', 0x02: 'pkcs1', 0x04: 'sec1' } as const)[der[second] as 0x30 | 0x02 | 0x04];
}

function privateKeyType(key: KeyObject): PrivateKeyType {
  switch (key.asymmetricKeyType) {
    case 'rsa':
      return 'rsa';
    case 'ed25519':
      return 'ed25519';
    case 'ec': {
      if (EC_CURVES.has(key.asymmetricKeyDetails?.namedCurve ?? '')) return 'ecdsa';
      throw new RuleError('ERR_KEY_TYPE_UNSUPPORTED', 'ecdsa keys must use the P-256, P-384 or P-521 curve');
    }
    default:
      throw new RuleError('ERR_KEY_TYPE_UNSUPPORTED', 'the key type is not supported; use rsa, ecdsa or ed25519');
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
export interface TlsCertificateUpload {
  chain: x509.X509Certificate[];
  leaf: x509.X509Certificate;
  privateKeyType: PrivateKeyType;
}

/** Parse a TLS certificate upload, or throw a RuleError whose `field` names the body field at fault. */
export function parseTlsCertificate(certificatePem: string, privateKeyPem: string): TlsCertificateUpload {
  const chain = inField('certificate_pem', () => parseCertificateChain(certificatePem));
  const leaf = chain[0]!;
  let leafKey: KeyObject;
  try {
    leafKey = createPublicKey({ key: Buffer.from(leaf.publicKey.rawData), format: 'der', type: 'spki' });
  } catch {
    throw new RuleError('ERR_KEY_TYPE_UNSUPPORTED', "the leaf certificate's public key algorithm is not supported", 'certificate_pem');
  }
  const { key, type } = inField('private_key_pem', () => parsePrivateKey(privateKeyPem));
  // equals() throws on keys of different types instead of answering false.
  const publicKey = createPublicKey(key);
  if (publicKey.asymmetricKeyType !== leafKey.asymmetricKeyType || !publicKey.equals(leafKey)) {
    throw new RuleError('ERR_KEY_MISMATCH', 'the private key does not match the public key of the first certificate in certificate_pem', 'private_key_pem');
  }
  checkReadable(leaf, 'certificate_pem');
  return { chain, leaf, privateKeyType: type };
}

/** Parse a CA upload (one or more concatenated certificates), or throw a RuleError naming `ca_pem`. */
export function parseCertificateAuthority(caPem: string): x509.X509Certificate[] {
  const chain = inField('ca_pem', () => parseCertificateChain(caPem));
  checkReadable(chain[0]!, 'ca_pem');
  return chain;
}

/** The first problem of a TLS certificate upload (its `field` names certificate_pem or private_key_pem), or undefined. */
export function tlsCertificateProblem(certificatePem: string, privateKeyPem: string): RuleProblem | undefined {
  return problemOf(() => parseTlsCertificate(certificatePem, privateKeyPem));
}

/** The problem of a CA's ca_pem (field `ca_pem`), or undefined when the service takes it. */
export function certificateChainProblem(pem: string): RuleProblem | undefined {
  return problemOf(() => parseCertificateAuthority(pem));
}

function inField<T>(field: string, parse: () => T): T {
  try {
    return parse();
  } catch (err) {
    if (err instanceof RuleError && err.field === undefined) throw new RuleError(err.code, err.message, field);
    throw err;
  }
}
