// One table of values, each sent to both sides: the real service over HTTP (an IP policy rule's cidr, a TCP
// edge's hostport, a TLS certificate upload, a certificate authority) and the reconciler's manifest pipeline
// (one generated manifest set, PEMs read from {file}s as users give them). Both must give the same verdict,
// and a refusal the same words after the field's path (the service's msg; the manifest issue's message), so the
// same rule: what `validate` accepts the service accepts, and what the service refuses `validate` refuses.
import 'reflect-metadata';
import * as x509 from '@peculiar/x509';
import { generateKeyPairSync } from 'node:crypto';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { RuleCode } from '../../src/contract/rule-error.ts';
import { hostportKey } from '../../src/contract/values.ts';
import { ERROR_CATALOG } from '../../src/service/errors.ts';
import { ManifestError, type ManifestIssue } from '../../src/errors.ts';
import { readDesiredState } from '../../src/manifest/read-desired.ts';
import { convertKeyPem, makeCa, makeChain, makeCert, makeKeyPem } from '../helpers/certs.ts';
import { api, startTestService, type ApiClient, type TestService } from '../helpers/service.ts';

/** What one side said: accepted, or refused with a code (the service's; the reconciler has none) and words. */
interface Verdict {
  accepted: boolean;
  code?: string;
  /** The message after the field's path, as the rule words it. */
  words?: string;
}

/** A table row: the value(s), the verdict both sides must give, and for a refusal the service's code. */
interface Row {
  name: string;
  expect: 'accept' | string;
}

const CIDRS: [string, 'accept' | string][] = [
  ['10.0.0.0/8', 'accept'], ['0.0.0.0/0', 'accept'], ['203.0.113.7/32', 'accept'], ['203.0.113.7', 'accept'],
  ['255.255.255.255', 'accept'], ['::/0', 'accept'], ['::', 'accept'], ['::1', 'accept'], ['::1/128', 'accept'],
  ['2001:db8::/32', 'accept'], ['2001:DB8::/32', 'accept'], ['fe80::/10', 'accept'], ['::ffff:1.2.3.4', 'accept'],
  ['::ffff:1.2.3.0/120', 'accept'], ['::ffff:10.0.0.0/104', 'accept'],
  ['10.0.0.1/8', 'ERR_CIDR_HOST_BITS_SET'], ['192.168.1.128/24', 'ERR_CIDR_HOST_BITS_SET'], ['2001:db8::1/64', 'ERR_CIDR_HOST_BITS_SET'],
  ['::ffff:1.2.3.4/120', 'ERR_CIDR_HOST_BITS_SET'], ['::1/0', 'ERR_CIDR_HOST_BITS_SET'],
  ['fe80::1%eth0/128', 'ERR_CIDR_INVALID'], ['fe80::1%eth0', 'ERR_CIDR_INVALID'], ['1.2.3/24', 'ERR_CIDR_INVALID'],
  ['1.2.3.4/33', 'ERR_CIDR_INVALID'], ['1.2.3.4/032', 'ERR_CIDR_INVALID'], ['1.2.3.4/-1', 'ERR_CIDR_INVALID'], ['1.2.3.4/+8', 'ERR_CIDR_INVALID'],
  ['01.2.3.4/32', 'ERR_CIDR_INVALID'], ['256.0.0.0/8', 'ERR_CIDR_INVALID'], ['1.2.3.4.5', 'ERR_CIDR_INVALID'], ['10.0.0.0/8/8', 'ERR_CIDR_INVALID'],
  ['10.0.0.0/', 'ERR_CIDR_INVALID'], ['/8', 'ERR_CIDR_INVALID'], [' 10.0.0.0/8', 'ERR_CIDR_INVALID'], ['10.0.0.0/8 ', 'ERR_CIDR_INVALID'],
  ['::/129', 'ERR_CIDR_INVALID'], ['[::1]/128', 'ERR_CIDR_INVALID'], ['2001:db8:::/32', 'ERR_CIDR_INVALID'], ['g::/16', 'ERR_CIDR_INVALID'],
  ['example.com/8', 'ERR_CIDR_INVALID'], ['0x0a.0.0.0/8', 'ERR_CIDR_INVALID'], ['', 'ERR_CIDR_INVALID'],
];

const HOSTPORTS: [string, 'accept' | string][] = [
  ['www.example.com:443', 'accept'], ['1.tcp.example.com:20001', 'accept'], ['*.example.com:443', 'accept'], ['localhost:1', 'accept'],
  ['UPPER.Example.COM:65535', 'accept'], ['192.0.2.1:80', 'accept'], ['[2001:db8::1]:443', 'accept'], ['[2001:DB8::2]:443', 'accept'],
  ['[::ffff:1.2.3.4]:443', 'accept'], ['[::]:22', 'accept'], ['xn--bcher-kva.example:443', 'accept'], [`${'a'.repeat(63)}.example:1`, 'accept'],
  ['[fe80::1%eth0]:443', 'ERR_HOSTPORT_INVALID'], ['1.2.3:443', 'ERR_HOSTPORT_INVALID'], ['1.2.3.999:443', 'ERR_HOSTPORT_INVALID'],
  ['256.1.1.1:80', 'ERR_HOSTPORT_INVALID'], ['01.2.3.4:80', 'ERR_HOSTPORT_INVALID'], ['example.com:0', 'ERR_HOSTPORT_INVALID'],
  ['example.com:65536', 'ERR_HOSTPORT_INVALID'], ['example.com:0443', 'ERR_HOSTPORT_INVALID'], ['example.com:+443', 'ERR_HOSTPORT_INVALID'],
  ['example.com', 'ERR_HOSTPORT_INVALID'], ['example.com:', 'ERR_HOSTPORT_INVALID'], [':443', 'ERR_HOSTPORT_INVALID'],
  ['2001:db8::1:443', 'ERR_HOSTPORT_INVALID'], ['::1:443', 'ERR_HOSTPORT_INVALID'], ['[2001:db8::1:443', 'ERR_HOSTPORT_INVALID'],
  ['[1.2.3.4]:443', 'ERR_HOSTPORT_INVALID'], ['[::1]:0', 'ERR_HOSTPORT_INVALID'], ['*:443', 'ERR_HOSTPORT_INVALID'],
  ['*.*.example.com:443', 'ERR_HOSTPORT_INVALID'], ['a.*.example.com:443', 'ERR_HOSTPORT_INVALID'], ['*.:443', 'ERR_HOSTPORT_INVALID'],
  ['example.com.:443', 'ERR_HOSTPORT_INVALID'], ['-a.example.com:1', 'ERR_HOSTPORT_INVALID'], ['a_b.example.com:1', 'ERR_HOSTPORT_INVALID'],
  [' example.com:443', 'ERR_HOSTPORT_INVALID'], ['example.com:443 ', 'ERR_HOSTPORT_INVALID'], ['http://example.com:443', 'ERR_HOSTPORT_INVALID'],
  [`${'a'.repeat(64)}.example:1`, 'ERR_HOSTPORT_INVALID'], ['é.example.com:443', 'ERR_HOSTPORT_INVALID'],
];

interface CertRow extends Row {
  certificate: string;
  key: string;
}
interface CaRow extends Row {
  ca: string;
}

function pemOf(label: string, der: Buffer): string {
  return `-----BEGIN ${label}-----\n${der.toString('base64').replace(/(.{64})/g, '$1\n').replace(/\n$/, '')}\n-----END ${label}-----\n`;
}
const derOf = (pem: string): Buffer => Buffer.from(pem.replace(/-----[^-]+-----/g, '').replace(/\s+/g, ''), 'base64');

async function pemCorpus(): Promise<{ certs: CertRow[]; cas: CaRow[] }> {
  const leaf = await makeCert({ commonName: 'leaf.example.com' });
  const rsa = await makeCert({ keyType: 'rsa' });
  const ed = await makeCert({ keyType: 'ed25519' });
  const chain = await makeChain();
  const ca = await makeCa({ commonName: 'CA one' });
  const ca2 = await makeCa({ commonName: 'CA two' });
  const otherEc = await makeKeyPem('ecdsa');
  const otherRsa = await makeKeyPem('rsa');
  const unreadable = await makeCert({ extraExtensions: [new x509.Extension('2.5.29.15', true, new Uint8Array([0x04, 0x01, 0x00]))] });
  const der = derOf(leaf.certPem);
  const encrypted = generateKeyPairSync('ec', { namedCurve: 'P-256' }).privateKey.export({ type: 'pkcs8', format: 'pem', cipher: 'aes-256-cbc', passphrase: 'x' }) as string;
  const k256 = generateKeyPairSync('ec', { namedCurve: 'secp256k1' }).privateKey.export({ type: 'pkcs8', format: 'pem' }) as string;
  const publicKey = '-----BEGIN PUBLIC KEY-----\nMFkwEwYHKoZIzj0CAQYIKoZIzj0DAQcDQgAE\n-----END PUBLIC KEY-----\n';
  const crl = leaf.certPem.replace(/CERTIFICATE/g, 'X509 CRL');
  const row = (name: string, expectVerdict: string, certificate: string, key = leaf.keyPem): CertRow => ({ name, expect: expectVerdict, certificate, key });
  const certs: CertRow[] = [
    row('an ecdsa leaf with its key', 'accept', leaf.certPem),
    row('an rsa leaf with its PKCS#1 key', 'accept', rsa.certPem, convertKeyPem(rsa.keyPem, 'pkcs1')),
    row('an ed25519 leaf with its key', 'accept', ed.certPem, ed.keyPem),
    row('a SEC1 ecdsa key', 'accept', leaf.certPem, convertKeyPem(leaf.keyPem, 'sec1')),
    row('a chain, leaf first', 'accept', chain.leaf.chainPem, chain.leaf.keyPem),
    row('blank lines around and between the blocks', 'accept', `\n\n${chain.leaf.certPem}\n\n${chain.intermediate.certPem}\n`, chain.leaf.keyPem),
    row('CRLF line ends', 'accept', leaf.certPem.replace(/\n/g, '\r\n'), leaf.keyPem.replace(/\n/g, '\r\n')),
    row('a chain root first, with the leaf key', 'ERR_KEY_MISMATCH', chain.intermediate.chainPem + chain.leaf.certPem, chain.leaf.keyPem),
    // Order is not checked beyond the first block: the first certificate's own key is what must match.
    row('a chain root first, with the key of its first certificate', 'accept', chain.intermediate.chainPem + chain.leaf.certPem, chain.intermediate.keyPem),
    row('a key of another certificate (same type)', 'ERR_KEY_MISMATCH', leaf.certPem, otherEc),
    row('a key of another type', 'ERR_KEY_MISMATCH', leaf.certPem, otherRsa),
    row('the CA key of a chain', 'ERR_KEY_MISMATCH', chain.leaf.chainPem, chain.intermediate.keyPem),
    row('text before the block', 'ERR_PEM_TRAILING_DATA', `subject=CN = leaf\n${leaf.certPem}`),
    row('text between the blocks', 'ERR_PEM_TRAILING_DATA', `${chain.leaf.certPem}-- next --\n${chain.intermediate.certPem}`, chain.leaf.keyPem),
    row('text after the block', 'ERR_PEM_TRAILING_DATA', `${leaf.certPem}garbage\n`),
    row('a block without its END line', 'ERR_PEM_TRAILING_DATA', leaf.certPem.replace('-----END CERTIFICATE-----', '')),
    row('END naming another label', 'ERR_PEM_TRAILING_DATA', leaf.certPem.replace('-----END CERTIFICATE-----', '-----END X509 CRL-----')),
    row('a public key block', 'ERR_PEM_WRONG_TYPE', publicKey),
    row('a CRL block', 'ERR_PEM_WRONG_TYPE', crl),
    row('a truncated certificate', 'ERR_PEM_INVALID', pemOf('CERTIFICATE', der.subarray(0, der.length - 10))),
    row('bytes after the certificate', 'ERR_PEM_INVALID', pemOf('CERTIFICATE', Buffer.concat([der, Buffer.from([5, 0])]))),
    row('bad base64', 'ERR_PEM_INVALID', leaf.certPem.replace(/\n([A-Za-z0-9+/]{8})/, '\n$1%%%%')),
    row('no block at all', 'ERR_PEM_EMPTY', '  \n\t\n'),
    row('an encrypted key', 'ERR_KEY_ENCRYPTED', leaf.certPem, encrypted),
    row('a secp256k1 key', 'ERR_KEY_TYPE_UNSUPPORTED', leaf.certPem, k256),
    row('two keys', 'ERR_KEY_INVALID', leaf.certPem, leaf.keyPem + otherEc),
    row('text after the key', 'ERR_KEY_INVALID', leaf.certPem, `${leaf.keyPem}trailing`),
    row('a certificate as the key', 'ERR_KEY_INVALID', leaf.certPem, leaf.certPem),
    row('a leaf extension that cannot be decoded', 'ERR_CERT_FIELD_UNREADABLE', unreadable.certPem, unreadable.keyPem),
  ];
  const caRow = (name: string, expectVerdict: string, pem: string): CaRow => ({ name, expect: expectVerdict, ca: pem });
  const cas: CaRow[] = [
    caRow('one CA', 'accept', ca.certPem),
    caRow('a bundle of two CAs', 'accept', ca.certPem + ca2.certPem),
    caRow('text after the block', 'ERR_PEM_TRAILING_DATA', `${ca.certPem}# the security team's CA\n`),
    caRow('text before the block', 'ERR_PEM_TRAILING_DATA', `CA:\n${ca.certPem}`),
    caRow('a public key block after the CA', 'ERR_PEM_WRONG_TYPE', ca.certPem + publicKey),
    caRow('a truncated block', 'ERR_PEM_TRAILING_DATA', ca.certPem.slice(0, 100)),
    caRow('no block', 'ERR_PEM_EMPTY', '\n'),
  ];
  return { certs, cas };
}

let svc: TestService;
let c: ApiClient;
let dir: string;
beforeAll(async () => {
  svc = await startTestService();
  c = api(svc);
  dir = mkdtempSync(join(tmpdir(), 'edgeops-value-rules-'));
});
afterAll(async () => {
  await svc?.close();
  if (dir) rmSync(dir, { recursive: true, force: true });
});

/** The service's verdict on one create; an accepted resource is deleted again so the next row starts clean. */
async function serviceVerdict(path: string, body: Record<string, unknown>): Promise<Verdict> {
  const r = await c.post(path, body);
  if (r.status === 201) {
    expect((await c.del(`${path}/${r.body.id}`)).status).toBe(204);
    return { accepted: true };
  }
  expect(r.status, r.text).toBe(400);
  return { accepted: false, code: r.body.error_code, words: String(r.body.msg).replace(/^[\w.[\]]+: /, '') };
}

/** The reconciler's verdict per document address, reading the whole generated set once. */
async function reconcilerVerdicts(files: Record<string, string>): Promise<Map<string, Verdict>> {
  const root = mkdtempSync(join(dir, 'set-'));
  for (const [name, text] of Object.entries(files)) writeFileSync(join(root, name), text);
  const issues: ManifestIssue[] = await readDesiredState(['.'], { cwd: root, env: {} }).then(
    () => [],
    (err: unknown) => {
      if (err instanceof ManifestError) return err.issues;
      throw err;
    },
  );
  const verdicts = new Map<string, Verdict>();
  for (const issue of issues) {
    if (!issue.address || verdicts.has(issue.address)) continue;
    // The issue names its field as data (its pointer) and says where a secret came from; the words are the rule's.
    expect(issue.pointer, issue.message).toBeDefined();
    const words = issue.message.replace(/ \(in (file "[^"]+"|environment variable \w+)\)$/, '');
    verdicts.set(issue.address, { accepted: false, words });
  }
  return verdicts;
}

function compare(rows: readonly Row[], service: readonly Verdict[], reconciler: Map<string, Verdict>, address: (i: number) => string): void {
  const table = rows.map((row, i) => {
    const onService = service[i]!;
    const onReconciler = reconciler.get(address(i)) ?? { accepted: true };
    return {
      row: row.name,
      service: onService.accepted ? 'accept' : onService.code,
      reconciler: onReconciler.accepted ? 'accept' : 'refuse',
      sameWords: onService.accepted || onReconciler.accepted || onService.words === onReconciler.words || `${onService.words} | ${onReconciler.words}`,
    };
  });
  expect(table).toEqual(rows.map((row) => ({ row: row.name, service: row.expect, reconciler: row.expect === 'accept' ? 'accept' : 'refuse', sameWords: true })));
}

/** Every code a value rule answers: the type checks that the list is RuleCode, no code missing and none extra. */
const RULE_CODES = Object.keys({
  ERR_CIDR_INVALID: true,
  ERR_CIDR_HOST_BITS_SET: true,
  ERR_HOSTPORT_INVALID: true,
  ERR_PEM_EMPTY: true,
  ERR_PEM_TRAILING_DATA: true,
  ERR_PEM_INVALID: true,
  ERR_PEM_WRONG_TYPE: true,
  ERR_KEY_INVALID: true,
  ERR_KEY_ENCRYPTED: true,
  ERR_KEY_TYPE_UNSUPPORTED: true,
  ERR_KEY_MISMATCH: true,
  ERR_CERT_FIELD_UNREADABLE: true,
} satisfies Record<RuleCode, true>) as RuleCode[];

const yamlDocs = (docs: string[][]): string => docs.map((lines) => lines.join('\n')).join('\n---\n') + '\n';

describe('value rules: the same verdict on both sides', () => {
  it("answer only codes of the service's catalog, each a 400", () => {
    for (const code of RULE_CODES) expect(ERROR_CATALOG[code].status, code).toBe(400);
  });

  it('CIDR', async () => {
    const policy = (await c.post('/ip_policies', {})).body.id as string;
    const service: Verdict[] = [];
    for (const [cidr] of CIDRS) service.push(await serviceVerdict('/ip_policy_rules', { ip_policy_id: policy, action: 'allow', cidr }));
    const docs = CIDRS.flatMap(([cidr], i) => [
      ['kind: IPPolicy', `name: p${i}`],
      ['kind: IPPolicyRule', `name: r${i}`, `ip_policy_id: p${i}`, 'action: allow', `cidr: ${JSON.stringify(cidr)}`],
    ]);
    const reconciler = await reconcilerVerdicts({ 'rules.yaml': yamlDocs(docs) });
    compare(CIDRS.map(([name, verdict]) => ({ name, expect: verdict })), service, reconciler, (i) => `IPPolicyRule/r${i}`);
  });

  it('hostports', async () => {
    // Accepted values must be distinct claims, or the second would be refused as taken rather than by its form.
    const accepted = HOSTPORTS.filter(([, v]) => v === 'accept').map(([h]) => hostportKey(h));
    expect(new Set(accepted).size).toBe(accepted.length);
    const service: Verdict[] = [];
    for (const [hostport] of HOSTPORTS) service.push(await serviceVerdict('/edges/tcp', { hostports: [hostport] }));
    const docs = HOSTPORTS.map(([hostport], i) => ['kind: TCPEdge', `name: e${i}`, `hostports: [${JSON.stringify(hostport)}]`]);
    const reconciler = await reconcilerVerdicts({ 'edges.yaml': yamlDocs(docs) });
    compare(HOSTPORTS.map(([name, verdict]) => ({ name, expect: verdict })), service, reconciler, (i) => `TCPEdge/e${i}`);
  });

  it('TLS certificates and certificate authorities (PEM chains, keys, key/leaf match)', async () => {
    const { certs, cas } = await pemCorpus();
    const files: Record<string, string> = {};
    const service: Verdict[] = [];
    for (const [i, row] of certs.entries()) {
      service.push(await serviceVerdict('/tls_certificates', { certificate_pem: row.certificate, private_key_pem: row.key }));
      files[`cert${i}.pem`] = row.certificate;
      files[`key${i}.pem`] = row.key;
    }
    const caService: Verdict[] = [];
    for (const [i, row] of cas.entries()) {
      caService.push(await serviceVerdict('/certificate_authorities', { ca_pem: row.ca }));
      files[`ca${i}.pem`] = row.ca;
    }
    files['certificates.yaml'] = yamlDocs([
      ...certs.map((_, i) => ['kind: TLSCertificate', `name: c${i}`, `certificate_pem: {file: cert${i}.pem}`, `private_key_pem: {file: key${i}.pem}`]),
      ...cas.map((_, i) => ['kind: CertificateAuthority', `name: a${i}`, `ca_pem: {file: ca${i}.pem}`]),
    ]);
    const reconciler = await reconcilerVerdicts(files);
    compare(certs, service, reconciler, (i) => `TLSCertificate/c${i}`);
    compare(cas, caService, reconciler, (i) => `CertificateAuthority/a${i}`);
  });
});
