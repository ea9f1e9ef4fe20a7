// Drift classification as a pure function of a Plan: each action and field change gets its direction.
import { describe, expect, it } from 'vitest';
import { driftReport, type DriftFinding } from '../../src/engine/drift.ts';
import type { Action, FieldChange, Plan } from '../../src/engine/plan-data.ts';
import { summarize } from '../../src/engine/plan.ts';

function action(a: Partial<Action> & Pick<Action, 'op' | 'address'>): Action {
  const [kind, name] = a.address.split('/') as [string, string];
  return { id: `${a.op}:${a.address}${a.module ? `:${a.module}` : ''}`, kind, name, changes: [], dependsOn: [], ...a };
}

function plan(actions: Action[]): Plan {
  return { stack: 'drift', actions, summary: summarize(actions), warnings: [] };
}

describe('driftReport', () => {
  it('an empty plan is in sync', () => {
    expect(driftReport(plan([]))).toEqual({
      stack: 'drift',
      inSync: true,
      summary: { changed: 0, missing: 0, liveOnly: 0, resources: 0 },
      resources: [],
      warnings: [],
      names: {},
    });
  });

  it('carries the plan\'s names and a natural-key item\'s label, for the renderers', () => {
    const report = driftReport({
      ...plan([action({ op: 'delete', address: 'RouteResponseHeaders/edghts_1/edghtsrt_1', liveId: 'edghts_1/edghtsrt_1', label: 'RouteResponseHeaders of HTTPSEdgeRoute/api' })]),
      names: { edghtsrt_1: 'HTTPSEdgeRoute/api' },
    });
    expect(report.names).toEqual({ edghtsrt_1: 'HTTPSEdgeRoute/api' });
    expect(report.resources[0]).toMatchObject({ address: 'RouteResponseHeaders/edghts_1/edghtsrt_1', label: 'RouteResponseHeaders of HTTPSEdgeRoute/api' });
  });

  it('create is missing, delete is live-only, an update of a field is changed', () => {
    const report = driftReport(plan([
      action({ op: 'create', address: 'IPPolicyRule/gone', changes: [{ path: '/cidr', kind: 'add', new: '10.0.0.0/8' }] }),
      action({ op: 'delete', address: 'IPPolicy/rogue', liveId: 'ipp_1' }),
      action({ op: 'update', address: 'TCPEdge/ssh', liveId: 'edgtcp_1', changes: [{ path: '/description', kind: 'replace', old: 'by hand', new: 'ssh' }] }),
    ]));
    expect(report.inSync).toBe(false);
    expect(report.summary).toEqual({ changed: 1, missing: 1, liveOnly: 1, resources: 3 });
    expect(report.resources.map((r) => [r.address, r.apply, r.liveId ?? null, r.findings.map((f) => [f.direction, f.path, f.action])])).toEqual([
      ['IPPolicyRule/gone', 'create', null, [['missing', '', 'create']]],
      ['IPPolicy/rogue', 'delete', 'ipp_1', [['live-only', '', 'delete']]],
      ['TCPEdge/ssh', 'update', 'edgtcp_1', [['changed', '/description', 'update']]],
    ]);
    expect(report.resources[2]!.findings[0]).toMatchObject({ live: 'by hand', desired: 'ssh', element: false, sensitive: false });
  });

  it('a module added by hand is live-only, one deleted by hand is missing, one edited is changed', () => {
    const report = driftReport(plan([
      action({ op: 'module-delete', address: 'TLSEdge/pass', liveId: 'edgtls_1', module: 'ip_restriction', changes: [{ path: '/ip_restriction', kind: 'remove', old: { enabled: true, ip_policy_ids: ['ipp_1'] } }] }),
      action({ op: 'module-put', address: 'TLSEdge/pass', liveId: 'edgtls_1', module: 'backend', changes: [{ path: '/backend', kind: 'add', new: { enabled: true, backend_id: 'bkdtg_1' } }] }),
      action({ op: 'module-put', address: 'TCPEdge/ssh', liveId: 'edgtcp_1', module: 'policy', changes: [{ path: '/policy/enabled', kind: 'replace', old: false, new: true }] }),
    ]));
    const [pass, ssh] = report.resources;
    expect(pass!.apply).toBe('update');
    expect(pass!.findings).toEqual([
      { direction: 'live-only', path: '/ip_restriction', module: 'ip_restriction', live: { enabled: true, ip_policy_ids: ['ipp_1'] }, element: false, sensitive: false, knownAfterApply: false, action: 'module-delete' },
      { direction: 'missing', path: '/backend', module: 'backend', desired: { enabled: true, backend_id: 'bkdtg_1' }, element: false, sensitive: false, knownAfterApply: false, action: 'module-put' },
    ]);
    expect(ssh!.findings).toEqual([
      { direction: 'changed', path: '/policy/enabled', module: 'policy', live: false, desired: true, element: false, sensitive: false, knownAfterApply: false, action: 'module-put' },
    ]);
    expect(report.summary).toEqual({ changed: 1, missing: 1, liveOnly: 1, resources: 2 });
  });

  it('a module delete without listed changes is still a live-only module', () => {
    const report = driftReport(plan([action({ op: 'module-delete', address: 'TCPEdge/ssh', liveId: 'edgtcp_1', module: 'policy' })]));
    expect(report.resources[0]!.findings).toEqual([
      { direction: 'live-only', path: '/policy', module: 'policy', element: false, sensitive: false, knownAfterApply: false, action: 'module-delete' },
    ]);
  });

  it('a replace says why, and its changes are changed', () => {
    const report = driftReport(plan([
      action({ op: 'replace', address: 'IPPolicyRule/r', liveId: 'ipr_1', reason: 'action cannot be updated', changes: [{ path: '/action', kind: 'replace', old: 'deny', new: 'allow' }] }),
    ]));
    expect(report.resources[0]).toMatchObject({ apply: 'replace', reason: 'action cannot be updated', findings: [{ direction: 'changed', path: '/action', live: 'deny', desired: 'allow', action: 'replace' }] });
  });

  it('keeps the plan warnings', () => {
    const p = plan([]);
    p.warnings.push('2 live resources carry the marker of IPPolicy/x');
    expect(driftReport(p).warnings).toEqual(['2 live resources carry the marker of IPPolicy/x']);
  });
});

describe('the findings of one field change', () => {
  /** What driftReport finds for `change` as the one change of `a`. */
  const findingsOf = (change: FieldChange, a: Action): DriftFinding[] => driftReport(plan([{ ...a, changes: [change] }])).resources[0]!.findings;
  const update = action({ op: 'update', address: 'EventSources/audit' });

  it('splits a list of scalars into the elements present on one side only', () => {
    expect(findingsOf({ path: '/types', kind: 'replace', old: ['a.v0', 'b.v0', 'x.v0'], new: ['a.v0', 'b.v0', 'c.v0'] }, update)).toEqual([
      { direction: 'live-only', path: '/types', live: 'x.v0', element: true, sensitive: false, knownAfterApply: false, action: 'update' },
      { direction: 'missing', path: '/types', desired: 'c.v0', element: true, sensitive: false, knownAfterApply: false, action: 'update' },
    ]);
  });

  it('a list with the same elements in another order is changed as a whole', () => {
    expect(findingsOf({ path: '/hostports', kind: 'replace', old: ['b:1', 'a:1'], new: ['a:1', 'b:1'] }, update)).toEqual([
      { direction: 'changed', path: '/hostports', live: ['b:1', 'a:1'], desired: ['a:1', 'b:1'], element: false, sensitive: false, knownAfterApply: false, action: 'update' },
    ]);
  });

  it('a reference to a resource apply would create is a missing element known after apply', () => {
    const put = action({ op: 'module-put', address: 'TCPEdge/ssh', module: 'ip_restriction' });
    const found = findingsOf({ path: '/ip_restriction/ip_policy_ids', kind: 'replace', old: ['ipp_old'], new: [{ $ref: 'IPPolicy/office' }], knownAfterApply: true }, put);
    expect(found.map((f) => [f.direction, f.live ?? f.desired, f.knownAfterApply])).toEqual([
      ['live-only', 'ipp_old', false],
      ['missing', { $ref: 'IPPolicy/office' }, true],
    ]);
  });

  it('a field set or cleared by hand is changed, with the side that has it', () => {
    expect(findingsOf({ path: '/description', kind: 'remove', old: 'added by hand' }, update)[0]).toMatchObject({ direction: 'changed', live: 'added by hand' });
    expect(findingsOf({ path: '/description', kind: 'add', new: 'in git' }, update)[0]).toMatchObject({ direction: 'changed', desired: 'in git' });
    expect(findingsOf({ path: '/description', kind: 'add', new: 'in git' }, update)[0]).not.toHaveProperty('live');
  });

  it('a sensitive change carries no values at all', () => {
    const found = findingsOf({ path: '/private_key_pem', kind: 'replace', sensitive: true }, action({ op: 'replace', address: 'TLSCertificate/w' }));
    expect(found).toEqual([{ direction: 'changed', path: '/private_key_pem', element: false, sensitive: true, knownAfterApply: false, action: 'replace' }]);
  });
});
