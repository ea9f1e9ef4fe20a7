// Values that do not fit on one line, as plans and drift reports lay them out: long strings in full, multi-line
// strings as heredocs and line diffs with context, long lists and mappings entry by entry, PEMs by their
// fingerprint with what their certificates say, secrets never.
import { beforeAll, describe, expect, it } from 'vitest';
import { describeCertificates } from '../../src/engine/certificate-details.ts';
import { driftReport } from '../../src/engine/drift.ts';
import type { FieldChange, Plan } from '../../src/engine/plan-data.ts';
import { KINDS } from '../../src/kinds/index.ts';
import { diffSequences, withContext } from '../../src/render/sequence-diff.ts';
import { showChange } from '../../src/render/value-lines.ts';
import type { Json } from '../../src/kinds/resource-kind.ts';
import { formatValue, formatWithin } from '../../src/render/values.ts';
import { VIEWS } from '../../src/render/views.ts';
import { makeCa, makeCert, type MadeCert } from '../helpers/certs.ts';

const ctx = { names: {}, certificates: {} };
/** A change as its lines read in a text plan (marks in the first column, four columns per level). */
const lines = (change: FieldChange): string[] => {
  const shown = showChange(change, ctx);
  return [`${change.path}: ${shown.text}`, ...shown.lines.map((l) => `${l.mark} ${'    '.repeat(l.depth)}${l.text}`.trimEnd())];
};

function plan(kind: string, changes: FieldChange[], op: 'update' | 'create' | 'replace' | 'delete' = 'update'): Plan {
  return {
    stack: 's', warnings: [], summary: { create: 0, update: 1, replace: 0, delete: 0 },
    actions: [{ id: `${op}:${kind}/x`, op, kind, name: 'x', address: `${kind}/x`, liveId: 'id_1', changes, dependsOn: [] }],
  };
}

describe('a value on one line, within a width', () => {
  const values: Json[] = [
    null, 0, 'x', { $ref: 'Pol/a' }, [], {}, ['a', 1, true, null], { a: 1, 'b c': [1, { d: 'e' }], f: { $ref: 'Pol/b' } },
    { inbound: [{ name: 'deny', expressions: ["conn.client_ip.startsWith('192.0.2.')"], actions: [{ type: 'deny' }] }] },
  ];

  it('is the one-line text when it is that long or shorter, and nothing when it is longer', () => {
    for (const value of values) {
      const text = formatValue(value);
      expect(formatWithin(value, Infinity)).toBe(text);
      expect(formatWithin(value, text.length)).toBe(text);
      expect(formatWithin(value, text.length - 1)).toBeUndefined();
    }
  });

  it('names managed ids as the one-line text does', () => {
    const names = { ipp_1: 'IPPolicy/office' };
    expect(formatWithin({ ids: ['ipp_1'] }, Infinity, names)).toBe(formatValue({ ids: ['ipp_1'] }, names));
    expect(formatValue({ ids: ['ipp_1'] }, names)).toBe('{ids: [IPPolicy/office (ipp_1)]}');
  });
});

describe('long and multi-line values', () => {
  it('a long single-line string is shown whole, quoted', () => {
    const long = 'x'.repeat(300);
    expect(lines({ path: '/description', kind: 'replace', old: 'short', new: long })).toEqual([`/description: "short" -> "${long}"`]);
  });

  it('a multi-line string added or removed is a heredoc of its lines', () => {
    expect(lines({ path: '/body', kind: 'add', new: 'one\ntwo\n\nfour\n' })).toEqual(['/body: <<EOT', '+     one', '+     two', '+', '+     four', '+ EOT']);
    expect(lines({ path: '/body', kind: 'remove', old: 'a\nb' })).toEqual(['/body: <<EOT', '-     a', '-     b', '- EOT']);
  });

  it('a changed multi-line string is a line diff, with three unchanged lines of context and the rest counted', () => {
    const old = Array.from({ length: 20 }, (_, i) => `line ${i + 1}`);
    const neu = old.map((l, i) => (i === 9 ? 'line ten' : l));
    expect(lines({ path: '/body', kind: 'replace', old: `${old.join('\n')}\n`, new: `${neu.join('\n')}\n` })).toEqual([
      '/body: <<EOT', '      (6 unchanged lines)', '      line 7', '      line 8', '      line 9', '-     line 10', '+     line ten',
      '      line 11', '      line 12', '      line 13', '      (7 unchanged lines)', '  EOT',
    ]);
  });

  it('a final newline that comes or goes is said, on the side without it', () => {
    expect(lines({ path: '/body', kind: 'replace', old: 'a\nb', new: 'a\nb\n' })).toEqual(['/body: <<EOT', '      a', '      b', '-     (no newline at the end)', '  EOT']);
    expect(lines({ path: '/body', kind: 'replace', old: 'a\n', new: 'a\nb' })).toEqual(['/body: <<EOT', '      a', '+     b', '+     (no newline at the end)', '  EOT']);
  });

  it('control characters are escaped, so a value cannot drive the terminal', () => {
    const shown = lines({ path: '/body', kind: 'add', new: 'red \u001b[31m text\r\nbell \u0007\n' });
    expect(shown.join('\n')).not.toMatch(/[\u0000-\u0008\u000b-\u001f]/);
    expect(shown).toContain('+     red \\u001b[31m text\\u000d');
  });

  it('a long list is shown entry by entry, a changed one as an entry diff; a short one stays on one line', () => {
    const cel = `req.url.path.startsWith('/internal') && conn.client_ip != '${'10.0.0.1'.repeat(8)}'`;
    expect(lines({ path: '/expressions', kind: 'replace', old: ['a == 1', 'b == 2'], new: ['a == 1', cel, 'b == 2'] })).toEqual([
      '/expressions: [', '      "a == 1",', `+     "${cel}",`, '      "b == 2",', '  ]',
    ]);
    expect(lines({ path: '/hostports', kind: 'replace', old: ['a:1'], new: ['a:1', 'b:2'] })).toEqual(['/hostports: ["a:1"] -> ["a:1", "b:2"]']);
  });

  it('a long mapping (header values) key by key, nested values as deep as they go', () => {
    const csp = "default-src 'self'; script-src 'self' https://cdn.example.com; frame-ancestors 'none'";
    expect(lines({ path: '/add', kind: 'add', new: { 'content-security-policy': csp, 'x-frame-options': 'DENY' } })).toEqual([
      '/add: {', `+     "content-security-policy": "${csp}"`, '+     "x-frame-options": "DENY"', '+ }',
    ]);
    const rule = { name: 'r', expressions: [`conn.client_ip != '${'203.0.113.7'.repeat(8)}'`], actions: [{ type: 'deny' }] };
    expect(lines({ path: '/policy', kind: 'add', new: { inbound: [rule] } })).toEqual([
      '/policy: {', '+     inbound: [', '+         {', '+             name: "r"', '+             expressions: [',
      `+                 "${rule.expressions[0]}",`, '+             ]', '+             actions: [{type: "deny"}]', '+         },', '+     ]', '+ }',
    ]);
  });

  it('values of different shapes: the old one removed, the new one added', () => {
    expect(lines({ path: '/v', kind: 'replace', old: 'text', new: { a: 'x'.repeat(90) } })).toEqual([
      '/v: ', '-     "text"', '+     {', `+         a: "${'x'.repeat(90)}"`, '+     }',
    ]);
  });

  it('a reference to a resource yet to be made is one value; a mapping that only looks like one is a mapping', () => {
    expect(lines({ path: '/backend_id', kind: 'replace', old: 'bkdhr_1', new: { $ref: 'HTTPResponseBackend/maintenance' } })).toEqual([
      '/backend_id: "bkdhr_1" -> id of HTTPResponseBackend/maintenance (known after apply)',
    ]);
    // Not a reference: its $ref is no Kind/name. Two such mappings are compared key by key, as mappings are.
    const long = { $ref: 7, note: 'x'.repeat(80) };
    expect(lines({ path: '/m', kind: 'replace', old: { $ref: 6, note: 'x'.repeat(80) }, new: long })).toEqual([
      '/m: {', '~     "$ref": 6 -> 7', `      note: "${'x'.repeat(80)}"`, '  }',
    ]);
    expect(lines({ path: '/m', kind: 'replace', old: { $ref: 6 }, new: { $ref: 'Kind/name', extra: true } })).toEqual([
      '/m: {"$ref": 6} -> {"$ref": "Kind/name", extra: true}',
    ]);
  });

  it('a secret stays (sensitive), whatever it holds', () => {
    expect(lines({ path: '/private_key_pem', kind: 'replace', old: 'a\nb', new: 'c\nd', sensitive: true })).toEqual(['/private_key_pem: (sensitive)']);
  });
});

describe('certificates', () => {
  let a: MadeCert;
  let b: MadeCert;
  let ca: MadeCert;
  beforeAll(async () => {
    ca = await makeCa({ commonName: 'Example CA' });
    // One notBefore for both: made in the same second or not, only not_after and serial differ.
    const notBefore = new Date(Date.now() - 3600_000);
    a = await makeCert({ commonName: 'www.example.com', dnsNames: ['www.example.com'], ips: ['203.0.113.7'], notBefore, notAfter: new Date('2027-01-01T00:00:00Z'), serialNumber: '0a', issuer: ca });
    b = await makeCert({ commonName: 'www.example.com', dnsNames: ['www.example.com'], ips: ['203.0.113.7'], notBefore, notAfter: new Date('2028-06-30T12:00:00Z'), serialNumber: '0b', issuer: ca });
  });

  it('a rotation shows the fingerprints, then each certificate field by field, old and new', async () => {
    const p = await describeCertificates(plan('TLSCertificate', [{ path: '/certificate_pem', kind: 'replace', old: a.chainPem, new: b.chainPem }], 'replace'), KINDS);
    const text = VIEWS.text({ color: false }).plan(p);
    expect(text).toMatch(/~ certificate_pem: <PEM CERTIFICATE, 2 blocks, \d+ bytes, sha256:[0-9a-f]{12}> -> <PEM CERTIFICATE, 2 blocks, \d+ bytes, sha256:[0-9a-f]{12}>\n/);
    expect(text).toContain([
      '      ~     certificate 1 of 2: {',
      '                subject: "CN=www.example.com"',
      '                sans: ["DNS:www.example.com", "IP:203.0.113.7"]',
      '                issuer: "CN=Example CA"',
      `                not_before: "${a.notBefore}"`,
      '      ~         not_after: "2027-01-01T00:00:00Z" -> "2028-06-30T12:00:00Z"',
      '      ~         serial: "0a" -> "0b"',
      '            }',
      '            certificate 2 of 2: unchanged, subject "CN=Example CA"',
    ].join('\n'));
    expect(VIEWS.markdown({ color: false }).plan(p)).toContain('!             not_after: "2027-01-01T00:00:00Z" -> "2028-06-30T12:00:00Z"');
    // Drift says the same, live against the manifests.
    const drift = driftReport(p);
    expect(VIEWS.text({ color: false }).drift(drift)).toContain('~         not_after: "2027-01-01T00:00:00Z" -> "2028-06-30T12:00:00Z"');
    expect(VIEWS.markdown({ color: false }).drift(drift)).toContain('!         not_after: "2027-01-01T00:00:00Z" -> "2028-06-30T12:00:00Z"');
  });

  it('a certificate created or deleted lists what it says under its sign; an unreadable PEM its fingerprint alone', async () => {
    const created = await describeCertificates(plan('CertificateAuthority', [{ path: '/ca_pem', kind: 'add', new: ca.certPem }], 'create'), KINDS);
    expect(VIEWS.text({ color: false }).plan(created)).toContain('      +     certificate 1 of 1: {\n      +         subject: "CN=Example CA"\n');
    const garbage = '-----BEGIN CERTIFICATE-----\nAAAA\n-----END CERTIFICATE-----\n';
    const unreadable = await describeCertificates(plan('CertificateAuthority', [{ path: '/ca_pem', kind: 'remove', old: garbage }], 'delete'), KINDS);
    expect(unreadable.certificates).toBeUndefined();
    expect(VIEWS.text({ color: false }).plan(unreadable)).toMatch(/- ca_pem: <PEM CERTIFICATE, 1 block, \d+ bytes, sha256:[0-9a-f]{12}> -> null\n\nPlan/);
  });

  it('only the kinds\' certificate fields are read: a plan without one loads no X.509 reader', async () => {
    const p = plan('TCPEdge', [{ path: '/description', kind: 'replace', old: a.certPem, new: 'x' }]);
    expect(await describeCertificates(p, KINDS)).toBe(p);
  });
});

describe('sequence diff', () => {
  it('keeps the longest common subsequence and marks the rest', () => {
    expect(diffSequences(['a', 'b', 'c', 'd'], ['a', 'c', 'x', 'd']).map((o) => `${o.op}${o.item}`)).toEqual([' a', '-b', ' c', '+x', ' d']);
    expect(diffSequences([], ['a']).map((o) => o.op)).toEqual(['+']);
  });

  it('elides long unchanged runs, keeping context next to each change', () => {
    const ops = diffSequences(['1', '2', '3', '4', '5', '6', '7'], ['1', '2', '3', '4', '5', '6', 'x']);
    expect(withContext(ops, 2)).toEqual([{ op: 'elided', count: 4 }, { op: ' ', item: '5' }, { op: ' ', item: '6' }, { op: '-', item: '7' }, { op: '+', item: 'x' }]);
  });
});
