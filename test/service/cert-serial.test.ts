// serial_number for every sign of serial: the DER INTEGER is two's complement, so a negative serial (RFC 5280
// forbids them, but CAs have issued some) is shown as Go's %x shows a big.Int: "-" and the magnitude in
// lowercase hex ("-5"; openssl prints "-05"). The generator only writes positive serials, so the test
// certificates get their serial swapped in the DER and are signed again with their own Ed25519 key.
import { X509Certificate, createPrivateKey, sign } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { tlsCertificateFields } from '../../src/service/certs.ts';
import { makeCert } from '../helpers/certs.ts';
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
async function certWithSerial(octets: number[]): Promise<{ certPem: string; keyPem: string }> {
  const made = await makeCert({ keyType: 'ed25519', serialNumber: '01' });
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

describe('serial_number', () => {
  it.each([
    [[0xfb], '-5'],
    [[0xff, 0x01], '-ff'],
    [[0x80, 0x00], '-8000'],
    [[0xff], '-1'],
    [[0x00, 0xf0, 0xe1], 'f0e1'],
    [[0x7f], '7f'],
    [[0x00], '0'],
  ])('DER INTEGER octets %j read as %s', async (octets, shown) => {
    const { certPem, keyPem } = await certWithSerial(octets);
    expect(tlsCertificateFields(certPem, keyPem).serial_number).toBe(shown);
  });

  it('a negative serial has the sign and magnitude OpenSSL reads (node:crypto prints -05)', async () => {
    const { certPem, keyPem } = await certWithSerial([0xfb]);
    const openssl = new X509Certificate(certPem).serialNumber;
    expect(openssl).toBe('-05');
    expect(tlsCertificateFields(certPem, keyPem).serial_number).toBe(`-${BigInt(`0x${openssl.slice(1)}`).toString(16)}`);
  });

  it('is returned with the sign over HTTP, on upload and on GET', async () => {
    const { certPem, keyPem } = await certWithSerial([0xfe, 0xdc]);
    const r = await c.post('/tls_certificates', { certificate_pem: certPem, private_key_pem: keyPem });
    expect(r.status, r.text).toBe(201);
    expect(r.body.serial_number).toBe('-124');
    expect((await c.get(`/tls_certificates/${r.body.id}`)).body.serial_number).toBe('-124');
  });
});
