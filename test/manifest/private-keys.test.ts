// A private key given where no secret belongs (a CA's ca_pem, a certificate's certificate_pem, alone or
// appended to the chain, any other field) is refused when the manifests are read, with the field's position
// and without any of the key; and whatever road one takes to an output, the redactor cuts every PEM private
// key block (its backstop) whether or not it knows the key.
import { describe, expect, it } from 'vitest';
import { createRedactor } from '../../src/render/redact.ts';
import { containsKeyMaterial, convertKeyPem, makeCa, makeCert, makeKeyPem } from '../helpers/certs.ts';
import { errorLines, readTree, yaml } from './tree.ts';

/** A PEM as a YAML block scalar under `field`, indented two spaces. */
const block = (field: string, pem: string): string[] => [`${field}: |`, ...pem.trimEnd().split('\n').map((l) => `  ${l}`)];

describe('a private key outside a secret field', () => {
  it('is refused in ca_pem and certificate_pem, alone or after a chain, inline or read from a file or a variable', async () => {
    const ca = await makeCa({ commonName: 'Clients CA' });
    const leaf = await makeCert({ commonName: 'www.example.com', dnsNames: ['www.example.com'] });
    const rsaKey = convertKeyPem(await makeKeyPem('rsa'), 'pkcs1');
    const files = {
      'ca.yaml': yaml('kind: CertificateAuthority', 'name: alone', ...block('ca_pem', leaf.keyPem)),
      'bundle.yaml': yaml('kind: CertificateAuthority', 'name: bundle', 'description: CA and its key', ...block('ca_pem', `${ca.certPem}${ca.keyPem}`)),
      'cert.yaml': yaml(
        'kind: TLSCertificate', 'name: chain-and-key', 'certificate_pem: {file: chain-and-key.pem}', `private_key_pem: {file: key.pem}`,
      ),
      'env.yaml': yaml('kind: TLSCertificate', 'name: from-env', 'certificate_pem: {env: CERT_PEM}', 'private_key_pem: {env: KEY_PEM}'),
      'chain-and-key.pem': `${leaf.chainPem}${leaf.keyPem}`,
      'key.pem': leaf.keyPem,
    };
    const env = { CERT_PEM: rsaKey, KEY_PEM: leaf.keyPem };
    const lines = await errorLines(files, { env });
    const notSecret = 'holds a PEM private key, which is not allowed here: this field is not secret, so plans and saved plans would print it (the key is not shown)';
    expect(lines).toEqual([
      `bundle.yaml:4:9: CertificateAuthority/bundle: ca_pem: ${notSecret}. Give only certificates here; a private key belongs in a TLSCertificate's private_key_pem`,
      `ca.yaml:3:9: CertificateAuthority/alone: ca_pem: ${notSecret}. Give only certificates here; a private key belongs in a TLSCertificate's private_key_pem`,
      `cert.yaml:3:18: TLSCertificate/chain-and-key: certificate_pem: ${notSecret}. Give only certificates here; a private key belongs in a TLSCertificate's private_key_pem`,
      `env.yaml:3:18: TLSCertificate/from-env: certificate_pem: ${notSecret}. Give only certificates here; a private key belongs in a TLSCertificate's private_key_pem`,
    ]);
    for (const key of [leaf.keyPem, ca.keyPem, rsaKey]) expect(containsKeyMaterial(lines.join('\n'), key)).toBe(false);
  });

  it('is refused in any other field too (a description, a metadata value)', async () => {
    const key = convertKeyPem(await makeKeyPem('ecdsa'), 'sec1');
    const lines = await errorLines({
      'p.yaml': yaml('kind: IPPolicy', 'name: p', ...block('description', key), 'metadata:', ...block('note', key).map((l) => `  ${l}`)),
    });
    const keyLines = key.trimEnd().split('\n').length;
    expect(lines.map((l) => l.replace(/: holds a PEM private key.*/, ''))).toEqual([
      'p.yaml:3:14: IPPolicy/p: description',
      `p.yaml:${5 + keyLines}:9: IPPolicy/p: metadata.note`,
    ]);
    expect(containsKeyMaterial(lines.join('\n'), key)).toBe(false);
  });

  it("is accepted in private_key_pem, a TLSCertificate's secret field", async () => {
    const leaf = await makeCert({ commonName: 'www.example.com', dnsNames: ['www.example.com'] });
    const state = await readTree({ 'c.yaml': yaml('kind: TLSCertificate', 'name: ok', ...block('certificate_pem', leaf.chainPem), ...block('private_key_pem', leaf.keyPem)) });
    expect(state.resources[0]!.spec.private_key_pem).toBe(`${leaf.keyPem.trimEnd()}\n`);
  });
});

describe('the redactor backstop', () => {
  const redact = createRedactor([]);

  it('cuts every PEM private key block it does not know, of every encoding, plain and inside JSON', async () => {
    const pkcs8 = await makeKeyPem('rsa');
    for (const key of [pkcs8, convertKeyPem(pkcs8, 'pkcs1'), convertKeyPem(await makeKeyPem('ecdsa'), 'sec1'), await makeKeyPem('ed25519')]) {
      const pem = `${key.trimEnd()}\n`;
      expect(redact(`ca_pem: ${pem} then more`)).toBe('ca_pem: (sensitive)\n then more');
      const json = JSON.stringify({ ca_pem: `-----BEGIN CERTIFICATE-----\nMIIB\n-----END CERTIFICATE-----\n${pem}`, next: 1 });
      const out = redact(json);
      expect(JSON.parse(out)).toEqual({ ca_pem: `-----BEGIN CERTIFICATE-----\nMIIB\n-----END CERTIFICATE-----\n(sensitive)\n`, next: 1 });
      expect(containsKeyMaterial(out, key)).toBe(false);
    }
  });

  it('cuts a block cut short (no END line) up to where its body stops, and an encrypted one with its headers', () => {
    const body = 'MIIEvQIBADANBgkqhkiG9w0BAQEFAASCBKcwggSjAgEAAoIBAQC7';
    expect(redact(`got: -----BEGIN PRIVATE KEY-----\n${body}\n${body.slice(0, 20)}... (truncated)`)).toBe('got: (sensitive)... (truncated)');
    const encrypted = `-----BEGIN RSA PRIVATE KEY-----\nProc-Type: 4,ENCRYPTED\nDEK-Info: AES-128-CBC,0A1B\n\n${body}\n-----END RSA PRIVATE KEY-----`;
    expect(redact(`[${encrypted}]`)).toBe('[(sensitive)]');
  });

  it('leaves certificates and talk of keys alone', () => {
    const text = '-----BEGIN CERTIFICATE-----\nMIIB\n-----END CERTIFICATE-----\nprivate_key_pem: (sensitive); <PEM PRIVATE KEY, 1 block>';
    expect(redact(text)).toBe(text);
  });
});
