// The verdict on certificate uploads needs no X.509 library (validate and plan start without loading one), and a
// PEM text is read once per process, whoever asks: the value rules, the contract check, a plan's summaries.
import 'reflect-metadata';
import * as x509 from '@peculiar/x509';
import { readFileSync } from 'node:fs';
import { dirname, join, resolve } from 'node:path';
import { describe, expect, it } from 'vitest';
import { checkTlsCertificate, readCertificateChain, tlsCertificateProblem } from '../../src/contract/certificate-verdict.ts';
import { parseCertificateChain, parseTlsCertificate } from '../../src/contract/certificates.ts';
import { readCertificateExtensions } from '../../src/contract/der.ts';
import { makeCert } from '../helpers/certs.ts';

const src = resolve(import.meta.dirname, '..', '..', 'src');

/** Every module `file` imports statically, transitively (relative imports), and the packages they name. */
function staticImports(file: string, seen = new Set<string>()): Set<string> {
  if (seen.has(file)) return seen;
  seen.add(file);
  const text = readFileSync(file, 'utf8');
  for (const m of text.matchAll(/^\s*import\s[^'"]*?['"]([^'"]+)['"]/gm)) {
    const target = m[1]!;
    if (target.startsWith('.')) staticImports(join(dirname(file), target), seen);
    else seen.add(target);
  }
  return seen;
}

describe('certificate verdict', () => {
  it('loads no X.509 library', () => {
    const imported = [...staticImports(join(src, 'contract', 'certificate-verdict.ts'))];
    expect(imported).toContain('node:crypto');
    expect(imported.filter((i) => /x509|reflect-metadata|asn1/.test(i))).toEqual([]);
    // The kinds ask the verdict, lazily.
    for (const kind of ['tls-certificate.ts', 'certificate-authority.ts']) {
      expect(readFileSync(join(src, 'kinds', kind), 'utf8')).toContain("import('../contract/certificate-verdict.ts')");
    }
  });

  it('reads a PEM text once: the same certificates for every reader, the same refusal for a bad one', async () => {
    const leaf = await makeCert({ commonName: 'once.example.com' });
    const chain = readCertificateChain(leaf.certPem);
    expect(readCertificateChain(leaf.certPem)).toBe(chain);
    expect(parseCertificateChain(leaf.certPem)[0]!.subject).toBe('CN=once.example.com');
    expect(parseCertificateChain(leaf.certPem)).toBe(parseCertificateChain(leaf.certPem));
    expect(tlsCertificateProblem(leaf.certPem, leaf.keyPem)).toBeUndefined();
    expect(parseTlsCertificate(leaf.certPem, leaf.keyPem).leaf).toBe(parseCertificateChain(leaf.certPem)[0]);
    const bad = `${leaf.certPem}garbage\n`;
    expect(() => readCertificateChain(bad)).toThrow(/not part of a PEM block/);
    expect(() => readCertificateChain(bad)).toThrow(/not part of a PEM block/);
    expect(() => checkTlsCertificate(bad, leaf.keyPem)).toThrow(expect.objectContaining({ code: 'ERR_PEM_TRAILING_DATA', field: 'certificate_pem' }));
  });

  it('finds an extension that cannot be decoded', async () => {
    const good = await makeCert({ commonName: 'good.example.com' });
    expect(readCertificateExtensions(readCertificateChain(good.certPem)[0]!.der).length).toBeGreaterThan(0);
    // keyUsage must be a BIT STRING; this one is an OCTET STRING.
    const unreadable = await makeCert({ extraExtensions: [new x509.Extension('2.5.29.15', true, new Uint8Array([0x04, 0x01, 0x00]))] });
    const [cert] = readCertificateChain(unreadable.certPem);
    expect(() => readCertificateExtensions(cert!.der)).toThrow();
    expect(tlsCertificateProblem(unreadable.certPem, unreadable.keyPem)).toMatchObject({ code: 'ERR_CERT_FIELD_UNREADABLE', field: 'certificate_pem' });
  });
});
