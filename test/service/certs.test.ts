// Unit tests of certificate parsing (src/service/certs.ts): every derived field for each key type, chains, the
// key encodings users upload, mismatches, and malformed input. Certificates are generated here, never committed.
import 'reflect-metadata';
import * as x509 from '@peculiar/x509';
import { generateKeyPairSync } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { parseCertificateChain, parsePrivateKey } from '../../src/contract/certificates.ts';
import { certificateAuthorityFields, tlsCertificateFields } from '../../src/service/certs.ts';
import { ServiceError } from '../../src/service/errors.ts';
import { containsKeyMaterial, convertKeyPem, makeCa, makeCert, makeChain, makeKeyPem, type KeyType } from '../helpers/certs.ts';

/** Run `fn`, expect a 400 ServiceError with `code`, and check its message carries no part of `keyPem`. */
function expectError(fn: () => unknown, code: string, keyPem?: string): ServiceError {
  let caught: unknown;
  try {
    fn();
  } catch (err) {
    caught = err;
  }
  expect(caught).toBeInstanceOf(ServiceError);
  const err = caught as ServiceError;
  expect(err.code).toBe(code);
  expect(err.status).toBe(400);
  if (keyPem) expect(containsKeyMaterial(err.message, keyPem)).toBe(false);
  return err;
}

const FULL_SUBJECT = { organization: 'Acme, Inc.', organizationalUnit: 'Edge Ops', locality: 'Berlin', province: 'Berlin', country: 'DE' };

describe('tlsCertificateFields: every derived field', () => {
  for (const keyType of ['rsa', 'ecdsa', 'ed25519'] as KeyType[]) {
    it(`fills every field from a self-signed ${keyType} leaf`, async () => {
      const c = await makeCert({
        keyType,
        commonName: `${keyType}.example.com`,
        dnsNames: [`${keyType}.example.com`, '*.example.com', 'xn--bcher-kva.example'],
        ips: ['192.0.2.10', '2001:db8::1', '2001:db8:0:1:0:0:0:1'],
        subject: FULL_SUBJECT,
        keyUsages: ['digital_signature', 'key_encipherment', 'key_agreement'],
        extendedKeyUsages: ['server_auth', 'client_auth'],
        notBefore: new Date('2024-03-01T12:34:56.789Z'),
        notAfter: new Date('2034-03-01T00:00:00Z'),
        serialNumber: '1a2b3c4d5e6f',
      });
      expect(tlsCertificateFields(c.certPem, c.keyPem)).toEqual({
        subject_common_name: `${keyType}.example.com`,
        subject_alternative_names: {
          dns_names: [`${keyType}.example.com`, '*.example.com', 'xn--bcher-kva.example'],
          ips: ['192.0.2.10', '2001:db8::1', '2001:db8:0:1::1'],
        },
        issued_at: null,
        not_before: '2024-03-01T12:34:56Z',
        not_after: '2034-03-01T00:00:00Z',
        key_usages: ['digital_signature', 'key_encipherment', 'key_agreement'],
        extended_key_usages: ['server_auth', 'client_auth'],
        private_key_type: keyType,
        issuer_common_name: `${keyType}.example.com`,
        serial_number: '1a2b3c4d5e6f',
        subject_organization: 'Acme, Inc.',
        subject_organizational_unit: 'Edge Ops',
        subject_locality: 'Berlin',
        subject_province: 'Berlin',
        subject_country: 'DE',
      });
    });
  }

  it('returns empty strings and lists when the leaf has no such values', async () => {
    const c = await makeCert({ commonName: '' });
    const f = tlsCertificateFields(c.certPem, c.keyPem);
    expect(f).toMatchObject({
      subject_common_name: '',
      subject_alternative_names: { dns_names: [], ips: [] },
      key_usages: [],
      extended_key_usages: [],
      issuer_common_name: '',
      subject_organization: '',
      subject_organizational_unit: '',
      subject_locality: '',
      subject_province: '',
      subject_country: '',
      issued_at: null,
    });
    expect(f.serial_number).toBe(c.serialNumber);
    expect(f.not_before).toBe(c.notBefore);
    expect(f.not_after).toBe(c.notAfter);
  });

  it('lists every key usage bit in RFC 5280 order, whatever order it was given in', async () => {
    const c = await makeCert({
      keyUsages: ['decipher_only', 'encipher_only', 'crl_sign', 'cert_sign', 'key_agreement', 'data_encipherment', 'key_encipherment', 'content_commitment', 'digital_signature'],
      extendedKeyUsages: ['ocsp_signing', 'time_stamping', 'email_protection', 'code_signing'],
    });
    const f = tlsCertificateFields(c.certPem, c.keyPem);
    expect(f.key_usages).toEqual(['digital_signature', 'content_commitment', 'key_encipherment', 'data_encipherment', 'key_agreement', 'cert_sign', 'crl_sign', 'encipher_only', 'decipher_only']);
    expect(f.extended_key_usages).toEqual(['ocsp_signing', 'time_stamping', 'email_protection', 'code_signing']);
  });

  it('names anyExtendedKeyUsage "any" and keeps an unknown purpose as its dotted OID', async () => {
    const c = await makeCert({ extraExtensions: [new x509.ExtendedKeyUsageExtension(['2.5.29.37.0', '1.3.6.1.5.5.7.3.5', '1.2.3.4.5'])] });
    expect(tlsCertificateFields(c.certPem, c.keyPem).extended_key_usages).toEqual(['any', 'ipsec_end_system', '1.2.3.4.5']);
  });

  it('keeps only DNS names and IP addresses of the SAN extension', async () => {
    const san = new x509.SubjectAlternativeNameExtension([
      { type: 'email', value: 'ops@example.com' },
      { type: 'dns', value: 'a.example.com' },
      { type: 'url', value: 'https://example.com/' },
      { type: 'ip', value: '10.1.2.3' },
    ]);
    const c = await makeCert({ extraExtensions: [san] });
    expect(tlsCertificateFields(c.certPem, c.keyPem).subject_alternative_names).toEqual({ dns_names: ['a.example.com'], ips: ['10.1.2.3'] });
  });

  it('prints dates past 2049 (GeneralizedTime) and before 2000 (UTCTime 19xx) in RFC 3339', async () => {
    const c = await makeCert({ notBefore: new Date('1999-12-31T23:59:59Z'), notAfter: new Date('2061-07-04T05:06:07Z') });
    const f = tlsCertificateFields(c.certPem, c.keyPem);
    expect(f.not_before).toBe('1999-12-31T23:59:59Z');
    expect(f.not_after).toBe('2061-07-04T05:06:07Z');
  });

  it('prints a serial with the high bit set with the DER sign byte, lowercase', async () => {
    const c = await makeCert({ serialNumber: 'F0E1D2C3B4A5' });
    expect(tlsCertificateFields(c.certPem, c.keyPem).serial_number).toBe('00f0e1d2c3b4a5');
  });

  it('takes the fields from the leaf of a chain and the issuer name from it', async () => {
    const { leaf, intermediate } = await makeChain({ keyType: 'ecdsa', commonName: 'api.example.com', dnsNames: ['api.example.com'] });
    const f = tlsCertificateFields(leaf.chainPem, leaf.keyPem);
    expect(f.subject_common_name).toBe('api.example.com');
    expect(f.issuer_common_name).toBe('Edgeops Test Intermediate CA');
    expect(f.serial_number).toBe(leaf.serialNumber);
    expect(f.subject_alternative_names.dns_names).toEqual(['api.example.com']);
    expect(parseCertificateChain(leaf.chainPem).map((c) => c.subject)).toEqual([
      'CN=api.example.com',
      `CN=${intermediate.commonName}`,
      'CN=Edgeops Test Root CA',
    ]);
  });

  it('accepts CRLF line endings and blank lines between blocks', async () => {
    const { leaf } = await makeChain();
    const crlf = leaf.chainPem.replace(/\n/g, '\r\n').replace(/-----\r\n-----BEGIN/g, '-----\r\n\r\n\r\n-----BEGIN');
    expect(tlsCertificateFields(crlf, leaf.keyPem.replace(/\n/g, '\r\n')).subject_common_name).toBe('leaf.example.com');
  });
});

describe('private keys', () => {
  it('accepts PKCS#1 RSA and SEC1 EC keys as well as PKCS#8', async () => {
    const rsa = await makeCert({ keyType: 'rsa' });
    const ec = await makeCert({ keyType: 'ecdsa' });
    const pkcs1 = convertKeyPem(rsa.keyPem, 'pkcs1');
    const sec1 = convertKeyPem(ec.keyPem, 'sec1');
    expect(pkcs1).toMatch(/^-----BEGIN RSA PRIVATE KEY-----/);
    expect(sec1).toMatch(/^-----BEGIN EC PRIVATE KEY-----/);
    expect(tlsCertificateFields(rsa.certPem, pkcs1).private_key_type).toBe('rsa');
    expect(tlsCertificateFields(ec.certPem, sec1).private_key_type).toBe('ecdsa');
  });

  it('accepts P-384 and P-521 keys as ecdsa', () => {
    for (const namedCurve of ['P-384', 'P-521']) {
      const { privateKey } = generateKeyPairSync('ec', { namedCurve });
      expect(parsePrivateKey(privateKey.export({ type: 'pkcs8', format: 'pem' }) as string).type).toBe('ecdsa');
    }
  });

  it('rejects a key of another certificate, of the same and of another type', async () => {
    const c = await makeCert({ keyType: 'ecdsa' });
    for (const keyType of ['ecdsa', 'ed25519', 'rsa'] as KeyType[]) {
      const other = await makeKeyPem(keyType);
      const err = expectError(() => tlsCertificateFields(c.certPem, other), 'ERR_KEY_MISMATCH', other);
      expect(err.message).toMatch(/^private_key_pem: /);
    }
  });

  it("rejects a chain's CA key, and a chain given root first", async () => {
    const { leaf, intermediate } = await makeChain();
    expectError(() => tlsCertificateFields(leaf.chainPem, intermediate.keyPem), 'ERR_KEY_MISMATCH', intermediate.keyPem);
    const reversed = intermediate.chainPem + leaf.certPem;
    expectError(() => tlsCertificateFields(reversed, leaf.keyPem), 'ERR_KEY_MISMATCH', leaf.keyPem);
  });

  it('rejects key types other than rsa, ecdsa (P-256/384/521) and ed25519', async () => {
    const c = await makeCert();
    const keys = [
      generateKeyPairSync('ed448').privateKey,
      generateKeyPairSync('x25519').privateKey,
      generateKeyPairSync('ec', { namedCurve: 'secp256k1' }).privateKey,
      generateKeyPairSync('dsa', { modulusLength: 1024, divisorLength: 160 }).privateKey,
      generateKeyPairSync('rsa-pss', { modulusLength: 1024 }).privateKey,
    ];
    for (const key of keys) {
      const pem = key.export({ type: 'pkcs8', format: 'pem' }) as string;
      expectError(() => tlsCertificateFields(c.certPem, pem), 'ERR_KEY_TYPE_UNSUPPORTED', pem);
    }
  });

  it('rejects encrypted keys, both PKCS#8 and legacy Proc-Type, without echoing them', async () => {
    const c = await makeCert({ keyType: 'rsa' });
    const { createPrivateKey } = await import('node:crypto');
    const key = createPrivateKey(c.keyPem);
    const pkcs8 = key.export({ type: 'pkcs8', format: 'pem', cipher: 'aes-256-cbc', passphrase: 'secret' }) as string;
    const legacy = key.export({ type: 'pkcs1', format: 'pem', cipher: 'aes-256-cbc', passphrase: 'secret' }) as string;
    expect(pkcs8).toMatch(/^-----BEGIN ENCRYPTED PRIVATE KEY-----/);
    expect(legacy).toMatch(/Proc-Type: 4,ENCRYPTED/);
    expectError(() => tlsCertificateFields(c.certPem, pkcs8), 'ERR_KEY_ENCRYPTED', c.keyPem);
    expectError(() => tlsCertificateFields(c.certPem, legacy), 'ERR_KEY_ENCRYPTED', c.keyPem);
  });

  it('rejects what is not exactly one private key block', async () => {
    const c = await makeCert();
    const other = await makeKeyPem();
    const cases: [string, string][] = [
      ['', 'empty'],
      ['   \n', 'blank'],
      ['not a key', 'plain text'],
      [c.certPem, 'a certificate'],
      [c.keyPem + other, 'two keys'],
      [c.keyPem + 'trailing', 'trailing garbage'],
      ['prefix\n' + c.keyPem, 'leading text'],
      [c.keyPem.replace(/-----END PRIVATE KEY-----\n?$/, ''), 'no END line'],
      [c.keyPem.replace('BEGIN PRIVATE KEY', 'BEGIN RSA PRIVATE KEY').replace('END PRIVATE KEY', 'END RSA PRIVATE KEY'), 'label does not match the encoding'],
      [c.keyPem.replace(/\n([A-Za-z0-9+/]{10})/, '\n$1!!!!'), 'bad base64'],
      ['-----BEGIN PRIVATE KEY-----\nAAAA\n-----END PRIVATE KEY-----\n', 'not DER'],
      ['-----BEGIN OPENSSH PRIVATE KEY-----\nAAAA\n-----END OPENSSH PRIVATE KEY-----\n', 'openssh format'],
    ];
    for (const [pem, why] of cases) {
      const err = expectError(() => tlsCertificateFields(c.certPem, pem), 'ERR_KEY_INVALID', c.keyPem);
      expect(err.message, why).toMatch(/^private_key_pem: /);
      expect(containsKeyMaterial(err.message, other)).toBe(false);
    }
  });
});

describe('certificate PEM errors', () => {
  it('names each malformed chain with its own code', async () => {
    const c = await makeCert();
    const body = c.certPem.replace(/-----[^-]+-----/g, '').replace(/\s+/g, '');
    const der = Buffer.from(body, 'base64');
    const wrap = (b: Buffer) => `-----BEGIN CERTIFICATE-----\n${b.toString('base64').replace(/(.{64})/g, '$1\n')}\n-----END CERTIFICATE-----\n`;
    const cases: [string, string][] = [
      ['', 'ERR_PEM_EMPTY'],
      [' \n\t\n', 'ERR_PEM_EMPTY'],
      ['hello', 'ERR_PEM_TRAILING_DATA'],
      [c.certPem + 'garbage\n', 'ERR_PEM_TRAILING_DATA'],
      ['subject=CN = leaf\n' + c.certPem, 'ERR_PEM_TRAILING_DATA'],
      [c.certPem.replace('-----END CERTIFICATE-----', ''), 'ERR_PEM_TRAILING_DATA'],
      [c.certPem.replace('-----END CERTIFICATE-----', '-----END X509 CRL-----'), 'ERR_PEM_TRAILING_DATA'],
      [c.certPem.replace(/\n([A-Za-z0-9+/]{8})/, '\n$1%%%%'), 'ERR_PEM_INVALID'],
      [wrap(Buffer.from('this is not DER at all')), 'ERR_PEM_INVALID'],
      [wrap(der.subarray(0, der.length - 10)), 'ERR_PEM_INVALID'],
      [wrap(Buffer.concat([der, Buffer.from([0x05, 0x00])])), 'ERR_PEM_INVALID'],
      [c.certPem + c.keyPem, 'ERR_PEM_WRONG_TYPE'],
      [c.keyPem, 'ERR_PEM_WRONG_TYPE'],
      ['-----BEGIN PUBLIC KEY-----\nAAAA\n-----END PUBLIC KEY-----\n', 'ERR_PEM_WRONG_TYPE'],
    ];
    for (const [pem, code] of cases) {
      const err = expectError(() => tlsCertificateFields(pem, c.keyPem), code, c.keyPem);
      expect(err.message).toMatch(/^certificate_pem: /);
    }
  });

  it('says which block is wrong, and never shows the key put where a certificate belongs', async () => {
    const c = await makeCert({ keyType: 'rsa' });
    const err = expectError(() => tlsCertificateFields(c.certPem + c.keyPem, c.keyPem), 'ERR_PEM_WRONG_TYPE', c.keyPem);
    expect(err.message).toBe('certificate_pem: PEM block 2 is a private key, expected a "CERTIFICATE" block');
  });

  it('refuses a leaf whose extensions cannot be decoded with a 400, not a crash', async () => {
    // A key usage extension must hold a BIT STRING; this one holds an OCTET STRING.
    const broken = new x509.Extension('2.5.29.15', true, new Uint8Array([0x04, 0x01, 0x00]));
    const c = await makeCert({ extraExtensions: [broken] });
    expectError(() => tlsCertificateFields(c.certPem, c.keyPem), 'ERR_CERT_FIELD_UNREADABLE', c.keyPem);
  });

  it('skips a SAN entry of a type the API does not show (an unknown otherName) and keeps the rest', async () => {
    // SEQUENCE { [0] otherName { OID 1.2.3.4, [0] UTF8String "x" }, [2] dNSName "a.example.com" }
    const dns = Buffer.from('a.example.com');
    const other = Buffer.from([0xa0, 0x0a, 0x06, 0x03, 0x2a, 0x03, 0x04, 0xa0, 0x03, 0x0c, 0x01, 0x78]);
    const value = Buffer.concat([Buffer.from([0x30, other.length + 2 + dns.length]), other, Buffer.from([0x82, dns.length]), dns]);
    const c = await makeCert({ extraExtensions: [new x509.Extension('2.5.29.17', false, new Uint8Array(value))] });
    expect(tlsCertificateFields(c.certPem, c.keyPem).subject_alternative_names).toEqual({ dns_names: ['a.example.com'], ips: [] });
  });
});

describe('certificateAuthorityFields', () => {
  it('fills the CA fields from a CA certificate', async () => {
    const ca = await makeCa({
      keyType: 'rsa',
      commonName: 'Client CA',
      extendedKeyUsages: ['client_auth'],
      notBefore: new Date('2025-01-02T03:04:05Z'),
      notAfter: new Date('2035-01-02T03:04:05Z'),
    });
    expect(certificateAuthorityFields(ca.certPem)).toEqual({
      subject_common_name: 'Client CA',
      not_before: '2025-01-02T03:04:05Z',
      not_after: '2035-01-02T03:04:05Z',
      key_usages: ['digital_signature', 'cert_sign', 'crl_sign'],
      extended_key_usages: ['client_auth'],
    });
  });

  it('takes the first of several concatenated CAs', async () => {
    const a = await makeCa({ commonName: 'CA one' });
    const b = await makeCa({ commonName: 'CA two', keyType: 'ed25519' });
    expect(certificateAuthorityFields(a.certPem + b.certPem).subject_common_name).toBe('CA one');
  });

  it('rejects garbage, an empty PEM and a private key with ca_pem named', async () => {
    const ca = await makeCa();
    for (const [pem, code] of [['', 'ERR_PEM_EMPTY'], ['junk', 'ERR_PEM_TRAILING_DATA'], [ca.keyPem, 'ERR_PEM_WRONG_TYPE'], [ca.certPem + 'x', 'ERR_PEM_TRAILING_DATA']]) {
      const err = expectError(() => certificateAuthorityFields(pem!), code!, ca.keyPem);
      expect(err.message).toMatch(/^ca_pem: /);
    }
  });
});

describe('test helper', () => {
  it('detects a key fragment and ignores certificate blocks', async () => {
    const c = await makeCert({ keyType: 'rsa' });
    expect(containsKeyMaterial(JSON.stringify({ certificate_pem: c.chainPem, subject_common_name: 'x' }), c.keyPem)).toBe(false);
    const body = c.keyPem.split('\n')[5]!;
    expect(containsKeyMaterial(`oops: ${body.slice(7, 30)}`, c.keyPem)).toBe(true);
    expect(containsKeyMaterial('-----BEGIN PRIVATE KEY-----', c.keyPem)).toBe(true);
  });
});
