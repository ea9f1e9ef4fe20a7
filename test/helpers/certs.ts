// Certificates generated inside the tests (no key material is ever committed): leaf certificates with RSA 2048,
// ECDSA P-256 or Ed25519 keys, SANs, subject fields and key usages; CAs; chains; unrelated keys for mismatch cases.
// The vocabulary of usages here is written out independently of src/service so the tests check the service
// against an outside reading of the certificate, not against its own tables.
import 'reflect-metadata';
import * as x509 from '@peculiar/x509';
import { createPrivateKey, webcrypto } from 'node:crypto';

x509.cryptoProvider.set(webcrypto as unknown as Crypto);

export type KeyType = 'rsa' | 'ecdsa' | 'ed25519';

export type KeyUsageName =
  | 'digital_signature' | 'content_commitment' | 'key_encipherment' | 'data_encipherment' | 'key_agreement'
  | 'cert_sign' | 'crl_sign' | 'encipher_only' | 'decipher_only';

export type ExtKeyUsageName =
  | 'server_auth' | 'client_auth' | 'code_signing' | 'email_protection' | 'time_stamping' | 'ocsp_signing';

const KEY_USAGE_FLAGS: Record<KeyUsageName, x509.KeyUsageFlags> = {
  digital_signature: x509.KeyUsageFlags.digitalSignature,
  content_commitment: x509.KeyUsageFlags.nonRepudiation,
  key_encipherment: x509.KeyUsageFlags.keyEncipherment,
  data_encipherment: x509.KeyUsageFlags.dataEncipherment,
  key_agreement: x509.KeyUsageFlags.keyAgreement,
  cert_sign: x509.KeyUsageFlags.keyCertSign,
  crl_sign: x509.KeyUsageFlags.cRLSign,
  encipher_only: x509.KeyUsageFlags.encipherOnly,
  decipher_only: x509.KeyUsageFlags.decipherOnly,
};

const EXT_KEY_USAGE_OIDS: Record<ExtKeyUsageName, string> = {
  server_auth: '1.3.6.1.5.5.7.3.1',
  client_auth: '1.3.6.1.5.5.7.3.2',
  code_signing: '1.3.6.1.5.5.7.3.3',
  email_protection: '1.3.6.1.5.5.7.3.4',
  time_stamping: '1.3.6.1.5.5.7.3.8',
  ocsp_signing: '1.3.6.1.5.5.7.3.9',
};

export interface SubjectFields {
  organization?: string;
  organizationalUnit?: string;
  locality?: string;
  province?: string;
  country?: string;
}

export interface MakeCertOptions {
  keyType?: KeyType; // default ecdsa (fast); rsa is 2048-bit
  commonName?: string; // default 'leaf.example.com'; '' leaves CN out of the subject
  dnsNames?: string[];
  ips?: string[]; // no dnsNames and no ips: no SAN extension at all
  subject?: SubjectFields;
  keyUsages?: KeyUsageName[]; // absent: no key usage extension
  extendedKeyUsages?: ExtKeyUsageName[]; // absent: no extended key usage extension
  notBefore?: Date;
  notAfter?: Date;
  serialNumber?: string; // hex, as it is to be DER-encoded
  issuer?: MadeCert; // signs the certificate; absent: self-signed
  ca?: boolean; // adds basicConstraints cA=TRUE
  extraExtensions?: x509.Extension[]; // appended as given (e.g. unusual OIDs, deliberately malformed values)
}

export interface MadeCert {
  certPem: string; // this certificate alone
  keyPem: string; // its private key, PKCS#8
  chainPem: string; // this certificate, then its issuers' chain (leaf first)
  keyType: KeyType;
  commonName: string;
  /** The subject as an RFC 4514-style string (used as the issuer name of the certificates it signs). */
  subjectName: string;
  serialNumber: string; // lowercase hex, no leading zeros
  notBefore: string; // RFC 3339 UTC, second precision
  notAfter: string;
  keys: CryptoKeyPair;
}

const KEY_ALGORITHMS: Record<KeyType, RsaHashedKeyGenParams | EcKeyGenParams | Algorithm> = {
  rsa: { name: 'RSASSA-PKCS1-v1_5', modulusLength: 2048, publicExponent: new Uint8Array([1, 0, 1]), hash: 'SHA-256' },
  ecdsa: { name: 'ECDSA', namedCurve: 'P-256' },
  ed25519: { name: 'Ed25519' },
};

const SIGNING_ALGORITHMS: Record<KeyType, Algorithm | EcdsaParams> = {
  rsa: { name: 'RSASSA-PKCS1-v1_5' },
  ecdsa: { name: 'ECDSA', hash: 'SHA-256' } as EcdsaParams,
  ed25519: { name: 'Ed25519' },
};

async function generateKeys(keyType: KeyType): Promise<CryptoKeyPair> {
  return (await webcrypto.subtle.generateKey(KEY_ALGORITHMS[keyType], true, ['sign', 'verify'])) as CryptoKeyPair;
}

async function pkcs8Pem(key: CryptoKey): Promise<string> {
  const der = await webcrypto.subtle.exportKey('pkcs8', key);
  return x509.PemConverter.encode(der, 'PRIVATE KEY');
}

/** Certificates carry second precision; the expected strings must too. */
export function rfc3339(date: Date): string {
  return date.toISOString().replace(/\.\d{3}Z$/, 'Z');
}

function wholeSeconds(date: Date): Date {
  return new Date(Math.floor(date.getTime() / 1000) * 1000);
}

/** A random positive serial whose first nibble is 1-7, so its DER encoding needs no sign byte. */
function randomSerial(): string {
  const bytes = webcrypto.getRandomValues(new Uint8Array(16));
  bytes[0] = (bytes[0]! & 0x6f) | 0x10;
  return Buffer.from(bytes).toString('hex');
}

function escapeRdnValue(value: string): string {
  return value.replace(/([,+"\\<>;=#])/g, '\\$1');
}

function subjectString(commonName: string, s: SubjectFields = {}): string {
  const parts: [string, string | undefined][] = [
    ['CN', commonName || undefined],
    ['O', s.organization],
    ['OU', s.organizationalUnit],
    ['L', s.locality],
    ['ST', s.province],
    ['C', s.country],
  ];
  return parts.filter(([, v]) => v !== undefined && v !== '').map(([k, v]) => `${k}=${escapeRdnValue(v!)}`).join(', ');
}

export async function makeCert(opts: MakeCertOptions = {}): Promise<MadeCert> {
  const keyType = opts.keyType ?? 'ecdsa';
  const commonName = opts.commonName ?? 'leaf.example.com';
  const keys = await generateKeys(keyType);
  const notBefore = wholeSeconds(opts.notBefore ?? new Date(Date.now() - 3600_000));
  const notAfter = wholeSeconds(opts.notAfter ?? new Date(notBefore.getTime() + 90 * 86400_000));
  const serialNumber = opts.serialNumber ?? randomSerial();
  const subjectName = subjectString(commonName, opts.subject);

  const extensions: x509.Extension[] = [await x509.SubjectKeyIdentifierExtension.create(keys.publicKey)];
  if (opts.ca) extensions.push(new x509.BasicConstraintsExtension(true, undefined, true));
  const sans: x509.JsonGeneralName[] = [
    ...(opts.dnsNames ?? []).map((value) => ({ type: 'dns' as const, value })),
    ...(opts.ips ?? []).map((value) => ({ type: 'ip' as const, value })),
  ];
  if (sans.length > 0) extensions.push(new x509.SubjectAlternativeNameExtension(sans));
  if (opts.keyUsages) {
    const flags = opts.keyUsages.reduce((acc, u) => acc | KEY_USAGE_FLAGS[u], 0);
    extensions.push(new x509.KeyUsagesExtension(flags, true));
  }
  if (opts.extendedKeyUsages) {
    extensions.push(new x509.ExtendedKeyUsageExtension(opts.extendedKeyUsages.map((u) => EXT_KEY_USAGE_OIDS[u])));
  }

  extensions.push(...(opts.extraExtensions ?? []));

  const issuer = opts.issuer;
  const common = { serialNumber, notBefore, notAfter, extensions };
  const cert = issuer
    ? await x509.X509CertificateGenerator.create({
        ...common,
        subject: subjectName,
        issuer: issuer.subjectName,
        publicKey: keys.publicKey,
        signingKey: issuer.keys.privateKey,
        signingAlgorithm: SIGNING_ALGORITHMS[issuer.keyType],
      })
    : await x509.X509CertificateGenerator.createSelfSigned({
        ...common,
        name: subjectName,
        keys,
        signingAlgorithm: SIGNING_ALGORITHMS[keyType],
      });

  const certPem = cert.toString('pem') + '\n';
  return {
    certPem,
    keyPem: await pkcs8Pem(keys.privateKey),
    chainPem: issuer ? certPem + issuer.chainPem : certPem,
    keyType,
    commonName,
    subjectName,
    serialNumber: BigInt(`0x${serialNumber}`).toString(16),
    notBefore: rfc3339(notBefore),
    notAfter: rfc3339(notAfter),
    keys,
  };
}

/** A CA certificate (basicConstraints cA, keyCertSign + cRLSign), self-signed unless an issuer is given. */
export async function makeCa(opts: MakeCertOptions = {}): Promise<MadeCert> {
  return makeCert({
    commonName: 'Edgeops Test CA',
    keyUsages: ['digital_signature', 'cert_sign', 'crl_sign'],
    ...opts,
    ca: true,
  });
}

/** A leaf signed by an intermediate signed by a root; `chainPem` is leaf, intermediate, root. */
export async function makeChain(leafOpts: MakeCertOptions = {}): Promise<{ leaf: MadeCert; intermediate: MadeCert; root: MadeCert }> {
  const root = await makeCa({ commonName: 'Edgeops Test Root CA' });
  const intermediate = await makeCa({ commonName: 'Edgeops Test Intermediate CA', issuer: root });
  const leaf = await makeCert({ ...leafOpts, issuer: intermediate });
  return { leaf, intermediate, root };
}

/** A private key unrelated to any certificate (PKCS#8 PEM), for mismatch cases. */
export async function makeKeyPem(keyType: KeyType = 'ecdsa'): Promise<string> {
  return pkcs8Pem((await generateKeys(keyType)).privateKey);
}

/** Re-encode a PKCS#8 key as PKCS#1 (RSA) or SEC1 (EC), the other encodings users upload. */
export function convertKeyPem(keyPem: string, format: 'pkcs8' | 'pkcs1' | 'sec1'): string {
  return createPrivateKey(keyPem).export({ type: format, format: 'pem' }) as string;
}

/**
 * True when any part of the key's material shows up in `text`: the PEM label "PRIVATE KEY", any 16-character
 * run of its PEM body, or of its secret numbers (as base64url or hex). Certificate blocks are cut from `text`
 * first: their ASN.1 headers and public key share runs with the key's PEM and are not secret. Used to assert
 * that no response or error body ever carries the key, not even a fragment.
 */
export function containsKeyMaterial(text: string, keyPem: string): boolean {
  const rest = text.replace(/-----BEGIN CERTIFICATE-----[\s\S]*?-----END CERTIFICATE-----/g, '');
  if (/PRIVATE KEY/.test(rest)) return true;
  const jwk = jwkOf(keyPem);
  const secrets = ['d', 'p', 'q', 'dp', 'dq', 'qi']
    .map((k) => jwk[k])
    .filter((v): v is string => typeof v === 'string')
    .flatMap((v) => [v, Buffer.from(v, 'base64url').toString('hex')]);
  const body = keyPem.replace(/-----[^-]+-----/g, '').replace(/\s+/g, '');
  for (const material of [body, ...secrets]) {
    for (let i = 0; i + 16 <= material.length; i += 4) {
      if (rest.includes(material.slice(i, i + 16))) return true;
    }
  }
  return false;
}

/** The key as a JWK, or {} for the types JWK has no form for (DSA, RSA-PSS): their PEM body is still checked. */
function jwkOf(keyPem: string): Record<string, unknown> {
  try {
    return createPrivateKey(keyPem).export({ format: 'jwk' }) as Record<string, unknown>;
  } catch {
    return {};
  }
}
