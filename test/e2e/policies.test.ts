// Policies through `plan`, `apply` and `drift` as a user runs them (node bin/edgeops.js) against the real service,
// behind a request log that records every write: each baseline rule's failing and passing case at the offending
// field's line, enforce_from on both sides of its date, exceptions (expired, then committed), the scope rule
// (an unchanged violation blocks nothing), and policies on live state in drift.
import { mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { edgeops, type RunResult } from '../cli/run.ts';
import { makeCa, makeCert } from '../helpers/certs.ts';
import { api, startTestService, type ApiClient, type TestService } from '../helpers/service.ts';
import { startRequestLog, type RequestLog } from '../support/round-robin-proxy.ts';

let svc: TestService;
let log: RequestLog;
let http: ApiClient;
const root = mkdtempSync(join(tmpdir(), 'edgeops-policies-'));
const DAY = 86_400_000;
const day = (offset: number): string => new Date(Date.now() + offset * DAY).toISOString().slice(0, 10);

const run = (dir: string, args: string[]): Promise<RunResult> =>
  edgeops(args, { cwd: dir, env: { EDGEOPS_API_URL: log.url, EDGEOPS_API_KEY: svc.apiKey, NO_COLOR: '1' } });

interface PolicyJson {
  policy: string;
  severity: string;
  target: string;
  field: string;
  message: string;
  file: string;
  line: number;
  col: number;
  exception: string | null;
  existing?: boolean;
  blocking: boolean;
}
interface PlanJson {
  policy?: PolicyJson[];
  policy_exceptions?: string[];
  policy_warnings?: string[];
  policy_set?: string;
  checksum?: string;
}

/** `<name>/stack/` (edgeops.yaml, m.yaml) and `<name>/policies/` with these files. */
function stackDir(name: string, settings: string[], manifest: string, policies: Record<string, string> = {}): string {
  const dir = join(root, name, 'stack');
  mkdirSync(dir, { recursive: true });
  mkdirSync(join(root, name, 'policies'), { recursive: true });
  writeFileSync(join(dir, 'edgeops.yaml'), `${[`stack: ${name}`, ...settings].join('\n')}\n`);
  writeFileSync(join(dir, 'm.yaml'), manifest);
  for (const [file, text] of Object.entries(policies)) writeFileSync(join(root, name, 'policies', file), text);
  return dir;
}

/** The 1-based line of `m.yaml` holding `text` (the n-th occurrence). */
function lineOf(dir: string, text: string, nth = 1): number {
  const lines = readFileSync(join(dir, 'm.yaml'), 'utf8').split('\n');
  let seen = 0;
  const i = lines.findIndex((l) => l.includes(text) && ++seen === nth);
  expect(i, text).toBeGreaterThanOrEqual(0);
  return i + 1;
}

async function planJson(dir: string, code: number): Promise<PlanJson> {
  const r = await run(dir, ['plan', '.', '--format', 'json']);
  expect(r.code, r.stderr).toBe(code);
  return JSON.parse(r.stdout) as PlanJson;
}

const found = (p: PlanJson): string[] => (p.policy ?? []).map((r) => `${r.severity} ${r.policy} ${r.target}${r.field ? ` ${r.field}` : ''} m.yaml:${r.line}${r.blocking ? ' blocks' : ''}`).sort();

beforeAll(async () => {
  svc = await startTestService();
  log = await startRequestLog(svc.url, async () => undefined);
  http = api(svc);
}, 60_000);
afterAll(async () => {
  await log.close();
  await svc.close();
  rmSync(root, { recursive: true, force: true });
});

describe('the baseline pack through plan', () => {
  it('denies or warns about each failing case at the offending field, and passes the passing cases', async () => {
    const ca = await makeCa({ commonName: 'Clients CA' });
    const soon = await makeCert({ commonName: 'soon.example.com', dnsNames: ['soon.example.com'], notAfter: new Date(Date.now() + 20 * DAY) });
    const dying = await makeCert({ commonName: 'dying.example.com', dnsNames: ['dying.example.com'], notAfter: new Date(Date.now() + 3 * DAY) });
    const failing = [
      'kind: IPPolicy', 'name: office',
      '---', 'kind: IPPolicyRule', 'name: world', 'ip_policy_id: office', 'cidr: 0.0.0.0/0', 'action: allow',
      '---', 'kind: IPPolicyRule', 'name: world6', 'ip_policy_id: office', 'cidr: "::/0"', 'action: allow',
      '---', 'kind: TLSEdge', 'name: legacy', 'hostports: ["legacy.example.com:443"]', 'tls_termination:', '  min_version: "1.0"',
      '---', 'kind: TCPEdge', 'name: open', 'hostports: ["1.tcp.example.com:31001"]',
      '---', 'kind: TLSCertificate', 'name: soon', `certificate_pem: ${JSON.stringify(soon.chainPem)}`, `private_key_pem: ${JSON.stringify(soon.keyPem)}`,
      '---', 'kind: TLSCertificate', 'name: dying', `certificate_pem: ${JSON.stringify(dying.chainPem)}`, `private_key_pem: ${JSON.stringify(dying.keyPem)}`,
    ].join('\n');
    const dir = stackDir('baseline-fail', ['environment: prod', 'policies: [edgeops:baseline]'], `${failing}\n`);
    const plan = await planJson(dir, 1);
    const doc = (name: string): number => lineOf(dir, `name: ${name}`) - 1; // the document starts at its kind
    expect(found(plan)).toEqual([
      `deny cert-expiry-deny TLSCertificate/dying not_after m.yaml:${doc('dying')} blocks`,
      `deny mtls-required-prod TLSEdge/legacy mutual_tls m.yaml:${doc('legacy')} blocks`,
      `deny no-world-allow IPPolicyRule/world cidr m.yaml:${lineOf(dir, 'cidr: 0.0.0.0/0')} blocks`,
      `deny no-world-allow IPPolicyRule/world6 cidr m.yaml:${lineOf(dir, 'cidr: "::/0"')} blocks`,
      `deny tcp-ip-restriction TCPEdge/open ip_restriction m.yaml:${doc('open')} blocks`,
      `deny tls-min-1-2 TLSEdge/legacy tls_termination.min_version m.yaml:${lineOf(dir, 'min_version')} blocks`,
      `warn cert-expiry-warn TLSCertificate/dying not_after m.yaml:${doc('dying')}`,
      `warn cert-expiry-warn TLSCertificate/soon not_after m.yaml:${doc('soon')}`,
    ]);
    const world = plan.policy!.find((r) => r.target === 'IPPolicyRule/world')!;
    expect(world).toMatchObject({ file: 'm.yaml', col: 7, field: 'cidr', message: 'allows 0.0.0.0/0 (every address)', exception: null });
    // A denied plan has no checksum to approve, and the text names each result at its line.
    expect(plan.checksum).toBeUndefined();
    const text = await run(dir, ['plan', '.']);
    expect(text.code).toBe(1);
    expect(text.stdout).toContain(`m.yaml:${lineOf(dir, 'min_version')}:16: deny tls-min-1-2: TLSEdge/legacy: tls_termination.min_version: accepts TLS 1.0 (1.2 or higher is required)`);
    expect(text.stderr).toContain('6 policy violations deny this plan');
    expect(log.writes).toEqual([]); // the first test: nothing before it wrote
  });

  it('passes documents that keep every rule, and blocks a certificate delete in production only', async () => {
    const ca = await makeCa({ commonName: 'Clients CA' });
    const cert = await makeCert({ commonName: 'ok.example.com', dnsNames: ['ok.example.com'] });
    const docs = (withCert: boolean): string => [
      'kind: IPPolicy', 'name: office',
      '---', 'kind: IPPolicyRule', 'name: lan', 'ip_policy_id: office', 'cidr: 203.0.113.0/24', 'action: allow',
      '---', 'kind: CertificateAuthority', 'name: clients', `ca_pem: ${JSON.stringify(ca.certPem)}`,
      '---', 'kind: TLSEdge', 'name: modern', 'hostports: ["modern.example.com:443"]', 'tls_termination: {min_version: "1.3"}', 'mutual_tls: {certificate_authority_ids: [clients]}',
      '---', 'kind: TCPEdge', 'name: closed', 'hostports: ["1.tcp.example.com:31002"]', 'ip_restriction: {ip_policy_ids: [office]}',
      ...(withCert ? ['---', 'kind: TLSCertificate', 'name: ok', `certificate_pem: ${JSON.stringify(cert.chainPem)}`, `private_key_pem: ${JSON.stringify(cert.keyPem)}`] : []),
    ].join('\n') + '\n';
    const dir = stackDir('baseline-pass', ['environment: prod-eu', 'policies: [edgeops:baseline]'], docs(true));
    const plan = await planJson(dir, 0);
    expect(plan.policy).toEqual([]);
    expect(plan.policy_set).toMatch(/^sha256:[0-9a-f]{64}$/);
    expect((await run(dir, ['apply', '.', '--auto-approve'])).code).toBe(0);
    writeFileSync(join(dir, 'm.yaml'), docs(false));
    const deleting = await planJson(dir, 1);
    expect(deleting.policy).toEqual([expect.objectContaining({ policy: 'no-cert-delete-prod', severity: 'deny', target: 'TLSCertificate/ok', file: 'edgeops:baseline', blocking: true })]);
    writeFileSync(join(dir, 'edgeops.yaml'), 'stack: baseline-pass\nenvironment: staging\npolicies: [edgeops:baseline]\n');
    expect((await planJson(dir, 0)).policy).toEqual([]);
  });
});

describe('severities, enforce_from and exceptions through plan and apply', () => {
  const policy = (name: string, enforceFrom: string): string => [
    'kind: Policy', `name: ${name}`, 'severity: deny', `enforce_from: ${enforceFrom}`, 'owners: ["@acme/netsec"]',
    'match: {kinds: [IPPolicyRule]}',
    'validations:', '  - expression: "!cidr(object.cidr).containsCIDR(\'10.0.0.0/8\')"', '    message: allows all of 10.0.0.0/8',
  ].join('\n') + '\n';
  const manifest = (description: string): string => [
    'kind: IPPolicy', 'name: office', `description: ${description}`,
    '---', 'kind: IPPolicyRule', 'name: everything', 'ip_policy_id: office', 'cidr: 10.0.0.0/8', 'action: allow',
  ].join('\n') + '\n';
  const exception = (expires: string): string => [
    'kind: PolicyException', 'name: legacy-vpn', 'policy: private-now', 'targets: [IPPolicyRule/everything]', 'reason: the VPN concentrator (NET-7)', `expires: ${expires}`,
  ].join('\n') + '\n';

  it('warns before enforce_from, denies from it, refuses apply with zero writes, and honours a committed exception until it expires', async () => {
    const dir = stackDir('gate', ['policies: [../policies]'], manifest('offices'), {
      'later.yaml': policy('private-later', day(30)),
      'now.yaml': policy('private-now', day(-1)),
    });
    const before = log.writes.length;
    const plan = await planJson(dir, 1);
    expect(found(plan)).toEqual([
      `deny private-now IPPolicyRule/everything cidr m.yaml:${lineOf(dir, 'cidr:')} blocks`,
      `warn private-later IPPolicyRule/everything cidr m.yaml:${lineOf(dir, 'cidr:')}`,
    ]);
    expect(plan.policy!.find((r) => r.policy === 'private-later')!.message).toBe(`allows all of 10.0.0.0/8 (a warning until ${day(30)}, denied from then)`);

    const refused = await run(dir, ['apply', '.', '--auto-approve']);
    expect(refused.code).toBe(1);
    expect(refused.stderr).toContain('1 policy violation denies this plan, so apply refused it and changed nothing');
    expect(log.writes.length).toBe(before); // not even the lock record

    // An expired exception is no exception: the violation counts again, and the plan says why.
    writeFileSync(join(root, 'gate', 'policies', 'exception.yaml'), exception(day(-2)));
    const expired = await planJson(dir, 1);
    expect(expired.policy_warnings).toEqual([`exception legacy-vpn (private-now on IPPolicyRule/everything) expired on ${day(-2)}: the violation counts again`]);
    expect(await run(dir, ['apply', '.', '--auto-approve'])).toMatchObject({ code: 1 });
    expect(log.writes.length).toBe(before);

    writeFileSync(join(root, 'gate', 'policies', 'exception.yaml'), exception(day(10)));
    const excepted = await planJson(dir, 0);
    expect(excepted.policy!.find((r) => r.policy === 'private-now')).toMatchObject({ severity: 'deny', exception: 'legacy-vpn', blocking: false });
    expect(excepted.policy_exceptions).toEqual(['legacy-vpn']);
    expect(excepted.policy_warnings).toEqual([`exception legacy-vpn (private-now on IPPolicyRule/everything) expires on ${day(10)}, in 10 days`]);
    const applied = await run(dir, ['apply', '.', '--auto-approve']);
    expect(applied.code, applied.stderr).toBe(0);
    expect(log.writes.slice(before).filter((w) => w.method === 'POST' && w.path === '/ip_policy_rules')).toHaveLength(1);
  });

  it('reports a violation on an unchanged document as existing, and blocks nothing that changes something else', async () => {
    const dir = join(root, 'gate', 'stack');
    rmSync(join(root, 'gate', 'policies', 'exception.yaml'));
    const unchanged = await planJson(dir, 0);
    expect(unchanged.policy!.find((r) => r.policy === 'private-now')).toMatchObject({ existing: true, blocking: false, exception: null });
    writeFileSync(join(dir, 'm.yaml'), manifest('offices and the VPN'));
    const other = await planJson(dir, 0);
    expect(other.checksum).toMatch(/^sha256:/);
    expect(found(other)).toContain(`deny private-now IPPolicyRule/everything cidr m.yaml:${lineOf(dir, 'cidr:')}`);
    const writes = log.writes.length;
    expect((await run(dir, ['apply', '.', '--auto-approve'])).code).toBe(0);
    expect(log.writes.length).toBeGreaterThan(writes);
  });

  it('a checksum approved under one policy set is stale under another', async () => {
    const dir = join(root, 'gate', 'stack');
    writeFileSync(join(dir, 'm.yaml'), manifest('offices, the VPN and the lab'));
    const approved = await planJson(dir, 0);
    writeFileSync(join(root, 'gate', 'policies', 'later.yaml'), policy('private-later', day(60)));
    const fresh = await planJson(dir, 0);
    expect(fresh.checksum).not.toBe(approved.checksum);
    const stale = await run(dir, ['apply', '.', '--checksum', approved.checksum!]);
    expect(stale.code).toBe(1);
    expect(stale.stderr).toContain('this plan is not the approved one');
  });
});

describe('policies on live state in drift', () => {
  it('finds a hand-added 0.0.0.0/0 allow rule in a managed policy and a certificate near expiry', async () => {
    const soon = await makeCert({ commonName: 'soon.example.com', dnsNames: ['soon.example.com'], notAfter: new Date(Date.now() + 20 * DAY) });
    const dir = stackDir('live', ['policies: [edgeops:baseline]'], [
      'kind: IPPolicy', 'name: office',
      '---', 'kind: IPPolicyRule', 'name: lan', 'ip_policy_id: office', 'cidr: 203.0.113.0/24', 'action: allow',
      '---', 'kind: TLSCertificate', 'name: soon', `certificate_pem: ${JSON.stringify(soon.chainPem)}`, `private_key_pem: ${JSON.stringify(soon.keyPem)}`,
    ].join('\n') + '\n');
    const applied = await run(dir, ['apply', '.', '--auto-approve']);
    expect(applied.code, applied.stderr).toBe(0);
    expect(applied.stdout).toContain('warn cert-expiry-warn: TLSCertificate/soon');

    const policies = (await http.listAll('/ip_policies', 'ip_policies')) as { id: string; metadata?: string }[];
    const office = policies.find((p) => p.metadata?.includes('"stack":"live"'))!;
    const hand = await http.post('/ip_policy_rules', { ip_policy_id: office.id, cidr: '0.0.0.0/0', action: 'allow' });
    expect(hand.status, hand.text).toBe(201);
    const handId = (hand.body as { id: string }).id;

    const writes = log.writes.length;
    const r = await run(dir, ['drift', '.', '--format', 'json']);
    expect(r.code, r.stderr).toBe(2);
    const report = JSON.parse(r.stdout) as { in_sync: boolean; policy: PolicyJson[] };
    expect(report.in_sync).toBe(false);
    expect(report.policy.map((p) => `${p.severity} ${p.policy} ${p.target}`).sort()).toEqual([
      `deny no-world-allow IPPolicyRule/${handId}`,
      'warn cert-expiry-warn TLSCertificate/soon',
    ]);
    expect(report.policy.find((p) => p.policy === 'cert-expiry-warn')!.line).toBe(lineOf(dir, 'name: soon') - 1);
    const text = await run(dir, ['drift', '.']);
    expect(text.stdout).toContain(`deny no-world-allow: IPPolicyRule/${handId}: cidr: allows 0.0.0.0/0 (every address)`);
    expect(log.writes.length).toBe(writes);
  });
});
