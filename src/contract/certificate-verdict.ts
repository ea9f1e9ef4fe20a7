// Whether the API takes a certificate upload, decided without an X.509 library to load (the certificate's
// structure read as DER, der.ts; its key and the private key by node:crypto): `certificate_pem`, a chain of PEM certificates (leaf first), with `private_key_pem`, one unencrypted
// private key (PKCS#8, PKCS#1 RSA or SEC1 EC; rsa, ecdsa P-256/384/521 or ed25519) that matches the leaf; and a
// CA's `ca_pem`, one or more certificates. Both sides decide with these functions: the manifest pipeline asks
// for the problem, the service runs the same verdict before it derives the fields it shows (certificates.ts).
// No message carries any part of the submitted text.
import { createPrivateKey, createPublicKey, type KeyObject } from 'node:crypto';
import { readCertificateExtensions, readCertificateStructure } from './der.ts';
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

/** A certificate as the verdict reads it: its DER, and the DER of its public key. */
export interface Certificate {
  der: Buffer;
  spki: Uint8Array;
}

/**
 * A reader of PEM texts that reads each text once per process, whoever asks (the value rules, the contract
 * check, the service, a plan's summaries): the last few hundred readings are kept, refusals included.
 */
export function readOnce<T>(): (pem: string, read: () => T) => T {
  const KEPT = 256;
  const readings = new Map<string, T | RuleError>();
  return (pem, read) => {
    let got = readings.get(pem);
    if (got === undefined) {
      try {
        got = read();
      } catch (err) {
        if (!(err instanceof RuleError)) throw err;
        got = err;
      }
      if (readings.size >= KEPT) readings.delete(readings.keys().next().value!);
      readings.set(pem, got);
    }
    if (got instanceof RuleError) throw got;
    return got as T;
  };
}

const remembered = readOnce<Certificate[]>();

/** Read a chain of PEM certificates; at least one, every block a certificate, nothing else in the text. Throws RuleError. */
export function readCertificateChain(pem: string): Certificate[] {
  return remembered(pem, () => {
    const blocks = readPemBlocks(pem, { empty: 'ERR_PEM_EMPTY', outside: 'ERR_PEM_TRAILING_DATA', malformed: 'ERR_PEM_INVALID' });
    return blocks.map((block, i) => readCertificate(block, i + 1));
  });
}

function readCertificate(block: PemBlock, index: number): Certificate {
  if (block.label !== 'CERTIFICATE') {
    throw new RuleError('ERR_PEM_WRONG_TYPE', `PEM block ${index} is ${describeLabel(block.label)}, expected a "CERTIFICATE" block`);
  }
  let cert: Certificate;
  try {
    cert = { der: block.der, ...readCertificateStructure(block.der) };
  } catch {
    throw new RuleError('ERR_PEM_INVALID', `PEM block ${index} is not a valid X.509 certificate`);
  }
  // The DER reader stops at the end of the certificate; bytes after it mean the block is not one certificate.
  if (derLength(block.der) !== block.der.length) throw new RuleError('ERR_PEM_INVALID', `PEM block ${index} has data after the certificate`);
  return cert;
}

/** Total length (header + content) of the DER element at the start of `der`; the parser has already checked its form. */
function derLength(der: Uint8Array): number {
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
 * The names were read with the certificate; the extensions the service derives fields from are decoded here,
 * so one that cannot be read is refused where both sides see it.
 */
function checkReadable(cert: Certificate, field: string): void {
  try {
    readCertificateExtensions(cert.der);
  } catch {
    throw new RuleError('ERR_CERT_FIELD_UNREADABLE', 'the first certificate has a name or extension that cannot be decoded', field);
  }
}

/** The verdict on a TLS certificate upload: the type of its private key, or a RuleError whose `field` names the field at fault. */
export function checkTlsCertificate(certificatePem: string, privateKeyPem: string): PrivateKeyType {
  const leaf = inField('certificate_pem', () => readCertificateChain(certificatePem))[0]!;
  let leafKey: KeyObject;
  try {
    leafKey = createPublicKey({ key: Buffer.from(leaf.spki), format: 'der', type: 'spki' });
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
  return type;
}

/** The verdict on a CA upload (one or more concatenated certificates): a RuleError naming `ca_pem`, or nothing. */
export function checkCertificateAuthority(caPem: string): void {
  const chain = inField('ca_pem', () => readCertificateChain(caPem));
  checkReadable(chain[0]!, 'ca_pem');
}

/** The first problem of a TLS certificate upload (its `field` names certificate_pem or private_key_pem), or undefined. */
export function tlsCertificateProblem(certificatePem: string, privateKeyPem: string): RuleProblem | undefined {
  return problemOf(() => checkTlsCertificate(certificatePem, privateKeyPem));
}

/** The problem of a CA's ca_pem (field `ca_pem`), or undefined when the service takes it. */
export function certificateChainProblem(pem: string): RuleProblem | undefined {
  return problemOf(() => checkCertificateAuthority(pem));
}

/** `parse`, its RuleError given `field` when it names none. */
export function inField<T>(field: string, parse: () => T): T {
  try {
    return parse();
  } catch (err) {
    if (err instanceof RuleError && err.field === undefined) throw new RuleError(err.code, err.message, field);
    throw err;
  }
}
