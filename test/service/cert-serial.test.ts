// serial_number is the DER INTEGER's content octets in lowercase hex, as the public API prints it: a leading zero
// nibble and a 0x00 sign octet are kept, and a negative serial (RFC 5280 forbids them, but CAs have issued some)
// is its two's-complement octets. Every other derived field is checked on certificates with the same unusual
// encodings. The generator normalizes serials, so odd ones are swapped into the DER and the certificate is
// signed again with its own Ed25519 key.
import { X509Certificate, createPrivateKey, sign } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { tlsCertificateFields } from '../../src/service/certs.ts';
import { makeCert, type MakeCertOptions } from '../helpers/certs.ts';
import { serviceForFile } from '../helpers/service.ts';

const { c } = serviceForFile();

/** One DER element at `at`: its tag, and where its content starts and ends. */
function element(der: Uint8Array, at: number): { tag: number; start: number; end: number } {
  const tag = der[at]!;
  let length = der[at + 1]!;
  let start = at + 2;
  if (length & 0x80) {
    const bytes = length & 0x7f;
    length = 0;
    for (let i = 0; i < bytes; i++) length = length * 256 + der[start + i]!;
    start += bytes;
  }
  return { tag, start, end: start + length };
}

function encode(tag: number, content: Uint8Array): Uint8Array {
  const n = content.length;
  const length = n < 0x80 ? [n] : n < 0x100 ? [0x81, n] : [0x82, n >> 8, n & 0xff];
  return Buffer.concat([Uint8Array.of(tag, ...length), content]);
}

/** A self-signed Ed25519 certificate whose serialNumber INTEGER has exactly these content octets. */
async function certWithSerial(octets: number[], opts: MakeCertOptions = {}): Promise<{ certPem: string; keyPem: string }> {
  const made = await makeCert({ ...opts, keyType: 'ed25519', serialNumber: '01' });
  const der = new Uint8Array(Buffer.from(made.certPem.replace(/-----[^-]+-----|\s/g, ''), 'base64'));
  const cert = element(der, 0);
  const tbs = element(der, cert.start);
  const signatureAlgorithm = element(der, tbs.end);
  let at = tbs.start;
  let field = element(der, at);
  if (field.tag === 0xa0) {
    at = field.end;
    field = element(der, at);
  }
  expect(field.tag).toBe(0x02);
  const newTbs = encode(0x30, Buffer.concat([der.subarray(tbs.start, at), encode(0x02, Uint8Array.from(octets)), der.subarray(field.end, tbs.end)]));
  const signature = sign(null, newTbs, createPrivateKey(made.keyPem));
  const newCert = encode(0x30, Buffer.concat([newTbs, der.subarray(tbs.end, signatureAlgorithm.end), encode(0x03, Buffer.concat([Uint8Array.of(0), signature]))]));
  const base64 = Buffer.from(newCert).toString('base64').replace(/.{64}/g, '$&\n').replace(/\n$/, '');
  return { certPem: `-----BEGIN CERTIFICATE-----\n${base64}\n-----END CERTIFICATE-----\n`, keyPem: made.keyPem };
}

const bytes = (hex: string): number[] => [...Buffer.from(hex, 'hex')];

/** The 20-octet serial of the public API's captured certificate example (leading zero nibble). */
const CAPTURED = '054ba70d61f7ebbd8c5e5a1f2f0f4b7e2c1d9a03';

describe('serial_number', () => {
  it.each([
    [[0x05, 0x4b, 0xa7, 0x0d], '054ba70d'],
    [bytes(CAPTURED), CAPTURED],
    [[0x00, 0xf0, 0xe1], '00f0e1'],
    [[0x00, 0x80, ...new Array(19).fill(0xab)], `0080${'ab'.repeat(19)}`],
    [bytes('7f'.repeat(40)), '7f'.repeat(40)],
    [[0xfb], 'fb'],
    [[0xff, 0x01], 'ff01'],
    [[0x80, 0x00], '8000'],
    [[0x7f], '7f'],
    [[0x00], '00'],
    [[0x00, 0x00, 0x01], '000001'],
  ])('DER INTEGER octets %j read as %s', async (octets, shown) => {
    const { certPem, keyPem } = await certWithSerial(octets);
    expect(tlsCertificateFields(certPem, keyPem).serial_number).toBe(shown);
  });

  it('is the octets OpenSSL reads, with every octet kept', async () => {
    for (const hex of [CAPTURED, '00c1d2e3f4', 'fb']) {
      const { certPem, keyPem } = await certWithSerial(bytes(hex));
      const openssl = new X509Certificate(certPem).serialNumber.toLowerCase();
      const shown = tlsCertificateFields(certPem, keyPem).serial_number;
      expect(shown).toBe(hex);
      if (!openssl.startsWith('-')) expect(BigInt(`0x${shown}`)).toBe(BigInt(`0x${openssl}`));
    }
  });

  it('a serial the generator encodes with a sign octet keeps it', async () => {
    const made = await makeCert({ serialNumber: 'f0e1d2c3b4a5968778695a4b3c2d1e0f' });
    expect(tlsCertificateFields(made.certPem, made.keyPem).serial_number).toBe('00f0e1d2c3b4a5968778695a4b3c2d1e0f');
  });

  it('is returned so over HTTP, on upload, GET and list', async () => {
    const { certPem, keyPem } = await certWithSerial(bytes(CAPTURED));
    const r = await c.post('/tls_certificates', { certificate_pem: certPem, private_key_pem: keyPem });
    expect(r.status, r.text).toBe(201);
    expect(r.body.serial_number).toBe(CAPTURED);
    expect((await c.get(`/tls_certificates/${r.body.id}`)).body.serial_number).toBe(CAPTURED);
    const listed = (await c.get('/tls_certificates')).body.tls_certificates as { id: string; serial_number: string }[];
    expect(listed.find((item) => item.id === r.body.id)?.serial_number).toBe(CAPTURED);
  });
});

describe('every derived field on unusually encoded certificates', () => {
  const empties = {
    subject_common_name: '', issuer_common_name: '', subject_organization: '', subject_organizational_unit: '',
    subject_locality: '', subject_province: '', subject_country: '',
  };

  it.each([
    ['a negative serial', [0xfb], 'fb'],
    ['a serial with the high bit set', [0x00, 0x9c, 0x01], '009c01'],
    ['a 40-octet serial', bytes('5a'.repeat(40)), '5a'.repeat(40)],
  ])('%s, no subject fields, IP SANs only', async (_what, octets, serial) => {
    const { certPem, keyPem } = await certWithSerial(octets, {
      commonName: '', ips: ['192.0.2.7', '2001:db8::7'], notBefore: new Date('2025-01-02T03:04:05Z'), notAfter: new Date('2030-01-02T03:04:05Z'),
    });
    const fields = tlsCertificateFields(certPem, keyPem);
    expect(fields).toEqual({
      ...empties,
      subject_alternative_names: { dns_names: [], ips: ['192.0.2.7', '2001:db8::7'] },
      issued_at: null,
      not_before: '2025-01-02T03:04:05Z',
      not_after: '2030-01-02T03:04:05Z',
      key_usages: [],
      extended_key_usages: [],
      private_key_type: 'ed25519',
      serial_number: serial,
    });
    const r = await c.post('/tls_certificates', { certificate_pem: certPem, private_key_pem: keyPem });
    expect(r.status, r.text).toBe(201);
    expect(r.body).toMatchObject(fields);
  });

  it('subject fields without a common name, with a long serial', async () => {
    const { certPem, keyPem } = await certWithSerial(bytes(`00${'e1'.repeat(30)}`), {
      commonName: '', subject: { organization: 'Org', country: 'NL' }, ips: ['10.0.0.1'],
    });
    const fields = tlsCertificateFields(certPem, keyPem);
    expect(fields).toMatchObject({
      ...empties, subject_organization: 'Org', subject_country: 'NL', serial_number: `00${'e1'.repeat(30)}`,
      subject_alternative_names: { dns_names: [], ips: ['10.0.0.1'] },
    });
  });
});
