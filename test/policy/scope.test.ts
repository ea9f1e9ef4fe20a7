// The rules that decide whether a result blocks, through the evaluation plan and apply use (runPolicies), on
// policies read from files: the scope rule (an unchanged document is `existing` unless match.operations holds
// none), operations and environment patterns, `exceptions: none`, and severities that never block.
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import type { MatchOperation } from '../../src/policy/documents.ts';
import { runPolicies } from '../../src/policy/evaluate.ts';
import { loadPolicySet } from '../../src/policy/policy-set.ts';

const dir = mkdtempSync(join(tmpdir(), 'edgeops-policy-scope-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

const policy = (name: string, severity: string, extra: string[]): string => [
  'kind: Policy', `name: ${name}`, `severity: ${severity}`, ...extra,
  'validations:', '  - expression: "object.action != \'allow\'"', '    message: allows', '',
].join('\n');

writeFileSync(join(dir, 'p.yaml'), [
  policy('changes', 'deny', ['match: {kinds: [IPPolicyRule]}']),
  policy('always', 'deny', ['match: {kinds: [IPPolicyRule], operations: [create, update, none]}']),
  policy('deletes', 'deny', ['match: {kinds: [IPPolicyRule], operations: [delete], environments: ["prod*"]}']),
  policy('hard', 'deny', ['exceptions: none', 'match: {kinds: [IPPolicyRule], stacks: [edge-*]}']),
  policy('noted', 'info', ['match: {kinds: [IPPolicyRule]}']),
].join('---\n'));
writeFileSync(join(dir, 'e.yaml'), ['changes', 'hard'].map((p) => `kind: PolicyException\nname: x-${p}\npolicy: ${p}\ntargets: [IPPolicyRule/r]\nreason: test\nexpires: 2099-01-01\n`).join('---\n'));

const { set, issues } = loadPolicySet({ policies: ['.'], file: join(dir, 'edgeops.yaml') }, [], dir);

function results(operation: MatchOperation, opts: { environment?: string; stack?: string; exceptions?: boolean } = {}): string[] {
  const object = { name: 'r', cidr: '10.0.0.0/8', ip_policy_id: 'office', action: 'allow' };
  const { report, issues: failed } = runPolicies({
    set: { ...set!, exceptions: opts.exceptions ? set!.exceptions : [] },
    stack: opts.stack ?? 'default',
    environment: opts.environment,
    now: new Date('2027-01-01T00:00:00Z'),
    targets: [{ kind: 'IPPolicyRule', name: 'r', address: 'IPPolicyRule/r', operation, object, oldObject: operation === 'create' ? null : object }],
    docs: {},
    mode: 'plan',
  });
  expect(failed).toEqual([]);
  return report.results.map((r) => `${r.policy}${r.blocking ? ' blocks' : ''}${r.existing ? ' existing' : ''}${r.exception ? ` except ${r.exception}` : ''}`).sort();
}

describe('what blocks', () => {
  it('reads the policies without a problem', () => {
    expect(issues).toEqual([]);
    expect(set!.policies.map((p) => p.policy.name)).toEqual(['changes', 'always', 'deletes', 'hard', 'noted']);
  });

  it('a change is denied; info never blocks', () => {
    expect(results('create')).toEqual(['always blocks', 'changes blocks', 'noted']);
  });

  it('an unchanged document is existing, unless match.operations holds none', () => {
    expect(results('none')).toEqual(['always blocks', 'changes existing', 'noted existing']);
  });

  it('a delete only where a policy names delete and the environment matches its pattern', () => {
    expect(results('delete', { environment: 'staging' })).toEqual([]);
    expect(results('delete', { environment: 'prod-eu' })).toEqual(['deletes blocks']);
  });

  it('an exception is honoured unless the policy says exceptions: none; stacks match by pattern', () => {
    expect(results('update', { stack: 'edge-prod', exceptions: true })).toEqual(['always blocks', 'changes except x-changes', 'hard blocks', 'noted']);
    expect(results('update', { stack: 'web', exceptions: true })).toEqual(['always blocks', 'changes except x-changes', 'noted']);
  });
});
