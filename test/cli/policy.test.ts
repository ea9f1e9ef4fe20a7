// Policies as `validate`, `policy test` and `policy show` see them, through the real bin: CEL syntax and type
// errors at the expression's own file:line:col (a misspelled field is refused against the kind's schema), the
// cost limit stopping an expensive expression with a clear error, a policy without a test warned about, and
// PolicyTest cases that pass and that fail.
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { edgeops } from './run.ts';

const root = mkdtempSync(join(tmpdir(), 'edgeops-policy-cli-'));
afterAll(() => rmSync(root, { recursive: true, force: true }));

const RULES = ['kind: IPPolicy', 'name: office', '---', 'kind: IPPolicyRule', 'name: lan', 'ip_policy_id: office', 'cidr: 10.1.0.0/16', 'action: allow', ''].join('\n');

/** `<name>/edgeops.yaml`, `<name>/m.yaml` and `<name>/policies/p.yaml`. */
function project(name: string, policy: string, settings = 'policies: [policies]'): string {
  const dir = join(root, name);
  mkdirSync(join(dir, 'policies'), { recursive: true });
  writeFileSync(join(dir, 'edgeops.yaml'), `stack: ${name}\n${settings}\n`);
  writeFileSync(join(dir, 'm.yaml'), RULES);
  writeFileSync(join(dir, 'policies', 'p.yaml'), policy);
  return dir;
}

const policyWith = (expression: string, extra: string[] = []): string =>
  ['kind: Policy', 'name: check', 'severity: deny', 'match:', '  kinds: [IPPolicyRule]', 'validations:', `  - expression: ${expression}`, ...extra, ''].join('\n');

describe('validate checks policies', () => {
  it('reports a misspelled field at its column in the expression, against the kind schema', async () => {
    const dir = project('typo', policyWith(`"object.action == 'allow' && object.cdir != ''"`));
    const r = await edgeops(['validate', '.'], { cwd: dir });
    expect(r.code).toBe(1);
    // The value starts at column 17 after its quote; `cdir` is 36 characters into the expression.
    expect(r.stderr).toContain(`policies/p.yaml:7:${17 + 1 + "object.action == 'allow' && object.".length}: Policy/check: validations[0].expression: type error: No such key: cdir (for IPPolicyRule)`);
  });

  it('reports a syntax error where it is, in a plain or a block scalar', async () => {
    const dir = project('syntax', '');
    writeFileSync(join(dir, 'policies', 'p.yaml'), ['kind: Policy', 'name: check', 'severity: deny', 'match: {kinds: [IPPolicyRule]}', 'validations:', '  - expression: |', "      object.action == 'allow' &&", '        (object.cidr == ', ''].join('\n'));
    const r = await edgeops(['validate', '.'], { cwd: dir });
    expect(r.code).toBe(1);
    expect(r.stderr).toMatch(/policies\/p\.yaml:8:24: Policy\/check: validations\[0\]\.expression: syntax error: /);
    const plain = project('syntax-plain', policyWith('object.action ==='));
    const p = await edgeops(['validate', '.'], { cwd: plain });
    expect(p.code).toBe(1);
    expect(p.stderr).toMatch(/policies\/p\.yaml:7:\d+: Policy\/check: validations\[0\]\.expression: syntax error: /);
  });

  it('refuses a validation that is not a bool, an unknown kind and a schema mistake, each at its line', async () => {
    const dir = project('types', ['kind: Policy', 'name: check', 'severity: fatal', 'match: {kinds: [IPPolicyRule, Firewall]}', 'validations:', '  - expression: object.cidr', ''].join('\n'));
    const r = await edgeops(['validate', '.'], { cwd: dir });
    expect(r.code).toBe(1);
    expect(r.stderr).toContain('policies/p.yaml:3:11: Policy/check: severity: must be deny, warn or info');
    writeFileSync(join(dir, 'policies', 'p.yaml'), ['kind: Policy', 'name: check', 'severity: warn', 'match: {kinds: [IPPolicyRule, Firewall]}', 'validations:', '  - expression: object.cidr', ''].join('\n'));
    const again = await edgeops(['validate', '.'], { cwd: dir });
    expect(again.stderr).toContain('policies/p.yaml:4:31: Policy/check: match.kinds[1]: "Firewall" is not a resource kind');
    writeFileSync(join(dir, 'policies', 'p.yaml'), ['kind: Policy', 'name: check', 'severity: warn', 'match: {kinds: [IPPolicyRule]}', 'validations:', '  - expression: object.cidr', ''].join('\n'));
    const typed = await edgeops(['validate', '.'], { cwd: dir });
    expect(typed.stderr).toContain('policies/p.yaml:6:17: Policy/check: validations[0].expression: must be of type bool, not string (for IPPolicyRule)');
  });

  it('stops an expensive expression at the cost limit with a clear error', async () => {
    const ten = '[1,2,3,4,5,6,7,8,9,10]';
    const expensive = `"${ten}.all(a, ${ten}.all(b, ${ten}.all(c, ${ten}.all(d, ${ten}.all(e, ${ten}.all(f, a + b + c + d + e + f > 0))))))"`;
    const dir = project('cost', policyWith(expensive));
    const started = Date.now();
    const r = await edgeops(['validate', '.'], { cwd: dir });
    expect(r.code).toBe(1);
    expect(r.stderr).toContain('policies/p.yaml:7:17: Policy/check: validations[0].expression: on IPPolicyRule/lan: the expression exceeded the cost limit of 1,000,000 evaluation steps');
    expect(Date.now() - started).toBeLessThan(30_000);
  });

  it('runs the policies that need no live state, and warns about a policy without a test', async () => {
    const dir = project('static', policyWith(`"!cidr(object.cidr).containsIP('10.1.2.3')"`, ['    message: covers the build hosts']));
    const r = await edgeops(['validate', '.'], { cwd: dir });
    expect(r.stderr).toBe('');
    expect(r.code).toBe(0);
    expect(r.stdout).toBe([
      '2 resources valid',
      'Policy: m.yaml:7:7: deny check: IPPolicyRule/lan: cidr: covers the build hosts',
      'Warning: policies/p.yaml:1:1: Policy/check has no PolicyTest (edgeops policy test runs them)',
      '',
    ].join('\n'));
  });
});

describe('edgeops policy test and show', () => {
  const test = (expectations: [string, string][]): string => [
    'kind: PolicyTest', 'name: check', 'policy: check', 'cases:',
    ...expectations.map(([cidr, expect]) => `  - {name: "${cidr}", object: {name: r, cidr: "${cidr}", ip_policy_id: office, action: allow}, expect: ${expect}}`),
    '',
  ].join('\n');

  it('prints each case and exits 0 when every case comes out as expected, 1 on a mismatch', async () => {
    const dir = project('tests', policyWith(`"cidr(object.cidr).prefixLength() >= 8"`, ['    message: too wide']));
    writeFileSync(join(dir, 'policies', 't.yaml'), test([['10.0.0.0/8', 'pass'], ['0.0.0.0/0', 'deny']]));
    const ok = await edgeops(['policy', 'test', 'policies'], { cwd: dir });
    expect(ok.code, ok.stderr).toBe(0);
    expect(ok.stdout).toBe([
      'PASS check 10.0.0.0/8 (policies/t.yaml:5:5): pass',
      'PASS check 0.0.0.0/0 (policies/t.yaml:6:5): deny: too wide',
      '2 of 2 cases as expected',
      '',
    ].join('\n'));
    expect((await edgeops(['validate', '.'], { cwd: dir })).stdout).not.toContain('has no PolicyTest');

    writeFileSync(join(dir, 'policies', 't.yaml'), test([['10.0.0.0/8', 'deny'], ['0.0.0.0/0', 'deny']]));
    const bad = await edgeops(['policy', 'test', '.'], { cwd: dir });
    expect(bad.code).toBe(1);
    expect(bad.stdout).toContain('FAIL check 10.0.0.0/8 (policies/t.yaml:5:5): expected deny, got pass');
    expect(bad.stdout).toContain('1 of 2 cases as expected, 1 not');
  });

  it('runs the baseline pack\'s own tests and prints it for copying', async () => {
    const r = await edgeops(['policy', 'test', 'edgeops:baseline']);
    expect(r.code, r.stdout).toBe(0);
    expect(r.stdout).toMatch(/^18 of 18 cases as expected$/m);
    const shown = await edgeops(['policy', 'show', 'edgeops:baseline']);
    expect(shown.code).toBe(0);
    for (const name of ['no-world-allow', 'tls-min-1-2', 'mtls-required-prod', 'tcp-ip-restriction', 'cert-expiry-warn', 'cert-expiry-deny', 'no-cert-delete-prod']) {
      expect(shown.stdout).toContain(`kind: Policy\nname: ${name}\n`);
    }
    // What it prints is a policies directory's content: copied, it tests the same.
    const dir = join(root, 'copied');
    mkdirSync(dir);
    writeFileSync(join(dir, 'baseline.yaml'), shown.stdout);
    expect((await edgeops(['policy', 'test', dir])).stdout).toMatch(/^18 of 18 cases as expected$/m);
    expect((await edgeops(['policy', 'show', 'edgeops:strict'])).stderr).toContain('no built-in policy pack named "edgeops:strict"');
  });
});
