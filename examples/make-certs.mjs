#!/usr/bin/env node
// Writes the certificates the tls and full examples read ({file: certs/...}), so no private key is ever
// committed: a client CA, and a wildcard server certificate with its key, signed by a local server CA.
//   node examples/make-certs.mjs              # examples/tls and examples/full
//   node examples/make-certs.mjs DIR...       # DIR/certs/ for each DIR
// Existing files are kept (a new certificate would make the next plan replace the uploaded one); pass
// --force to write new ones.
import 'reflect-metadata';
import * as x509 from '@peculiar/x509';
import { existsSync, mkdirSync, writeFileSync } from 'node:fs';
import { webcrypto } from 'node:crypto';
import { dirname, join, relative, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';

x509.cryptoProvider.set(webcrypto);

const ALG = { name: 'ECDSA', namedCurve: 'P-256', hash: 'SHA-256' };
const DAY = 86_400_000;

async function keys() {
  return webcrypto.subtle.generateKey(ALG, true, ['sign', 'verify']);
}

async function keyPem(privateKey) {
  return x509.PemConverter.encode(await webcrypto.subtle.exportKey('pkcs8', privateKey), 'PRIVATE KEY');
}

function serial() {
  const bytes = webcrypto.getRandomValues(new Uint8Array(16));
  bytes[0] = (bytes[0] & 0x6f) | 0x10; // positive, no DER sign byte
  return Buffer.from(bytes).toString('hex');
}

function validity() {
  const notBefore = new Date(Math.floor(Date.now() / 1000) * 1000 - DAY);
  return { notBefore, notAfter: new Date(notBefore.getTime() + 825 * DAY) };
}

async function makeCa(commonName) {
  const pair = await keys();
  const cert = await x509.X509CertificateGenerator.createSelfSigned({
    serialNumber: serial(),
    name: `CN=${commonName}, O=edgeops examples`,
    ...validity(),
    keys: pair,
    signingAlgorithm: ALG,
    extensions: [
      new x509.BasicConstraintsExtension(true, undefined, true),
      new x509.KeyUsagesExtension(x509.KeyUsageFlags.keyCertSign | x509.KeyUsageFlags.cRLSign | x509.KeyUsageFlags.digitalSignature, true),
      await x509.SubjectKeyIdentifierExtension.create(pair.publicKey),
    ],
  });
  return { cert, pair };
}

async function makeServerCert(issuer, dnsNames) {
  const pair = await keys();
  const cert = await x509.X509CertificateGenerator.create({
    serialNumber: serial(),
    subject: `CN=${dnsNames[0]}, O=edgeops examples`,
    issuer: issuer.cert.subject,
    ...validity(),
    publicKey: pair.publicKey,
    signingKey: issuer.pair.privateKey,
    signingAlgorithm: ALG,
    extensions: [
      new x509.SubjectAlternativeNameExtension(dnsNames.map((value) => ({ type: 'dns', value }))),
      new x509.KeyUsagesExtension(x509.KeyUsageFlags.digitalSignature | x509.KeyUsageFlags.keyEncipherment, true),
      new x509.ExtendedKeyUsageExtension(['1.3.6.1.5.5.7.3.1']),
      await x509.SubjectKeyIdentifierExtension.create(pair.publicKey),
    ],
  });
  return { cert, pair };
}

async function writeCerts(dir, force) {
  const certs = join(dir, 'certs');
  const files = ['client-ca.pem', 'wildcard.pem', 'wildcard-key.pem'].map((f) => join(certs, f));
  if (!force && files.every((f) => existsSync(f))) {
    console.log(`${relative(process.cwd(), certs) || '.'}: certificates already there (--force writes new ones)`);
    return;
  }
  mkdirSync(certs, { recursive: true });
  const clientCa = await makeCa('edgeops example client CA');
  const serverCa = await makeCa('edgeops example server CA');
  const server = await makeServerCert(serverCa, ['*.example.com', 'example.com']);
  const pem = (cert) => `${cert.toString('pem')}\n`;
  writeFileSync(files[0], pem(clientCa.cert));
  // The chain, leaf first, as the service expects.
  writeFileSync(files[1], pem(server.cert) + pem(serverCa.cert));
  writeFileSync(files[2], `${await keyPem(server.pair.privateKey)}\n`, { mode: 0o600 });
  console.log(`${relative(process.cwd(), certs) || '.'}: wrote client-ca.pem, wildcard.pem, wildcard-key.pem`);
}

const args = process.argv.slice(2);
const force = args.includes('--force');
const here = dirname(fileURLToPath(import.meta.url));
const dirs = args.filter((a) => a !== '--force');
for (const dir of dirs.length > 0 ? dirs.map((d) => resolve(d)) : [join(here, 'tls'), join(here, 'full')]) {
  await writeCerts(dir, force);
}
