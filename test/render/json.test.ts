import { describe, expect, it } from 'vitest';
import type { Plan } from '../../src/engine/plan-data.ts';
import { VIEWS } from '../../src/render/views.ts';
import { SECRET_KEY_PEM, emptyPlan, samplePlan } from './sample-plan.ts';

const view = VIEWS.json({ color: false });

/** The parts of the JSON plan (README, "JSON plan format") these tests read. */
interface JsonPlanRead {
  resources: {
    address: string;
    label: string;
    source: string | null;
    action: string;
    live_id: string | null;
    reason: string | null;
    modules: unknown[];
    changes: { path: string; op: string; old: unknown; names: Record<string, string> }[];
  }[];
  errors: unknown[];
}

const planJson = (plan: Plan): JsonPlanRead => JSON.parse(view.plan(plan)) as JsonPlanRead;

describe('json renderer', () => {
  it('matches the golden file', async () => {
    await expect(view.plan(samplePlan)).toMatchFileSnapshot('../fixtures/render/plan.json');
  });

  it('has the documented top-level structure', () => {
    const json = JSON.parse(view.plan(samplePlan));
    expect(Object.keys(json)).toEqual(['format_version', 'stack', 'destroy', 'summary', 'resources', 'warnings', 'errors']);
    expect(json.format_version).toBe(2);
    expect(json.destroy).toBe(false);
    expect(json.summary).toEqual({ create: 3, update: 1, replace: 1, delete: 2 });
    expect(json.resources.map((r: { address: string; action: string }) => `${r.action} ${r.address}`)).toEqual([
      'create TunnelGroupBackend/web',
      'create TLSCertificate/wildcard',
      'create TCPEdge/ssh',
      'update TLSEdge/secure',
      'replace IPPolicyRule/office-v4',
      'delete HTTPResponseBackend/maintenance',
      'delete RouteResponseHeaders/edghts_2rcCvYaCz4tUbWiCRVTCu2Rsxr1/edghtsrt_2rcCvYaCz4tUbWiCRVTCu2Rsxr2',
    ]);
    for (const r of json.resources) {
      expect(Object.keys(r)).toEqual(['address', 'label', 'source', 'kind', 'name', 'action', 'live_id', 'reason', 'modules', 'changes']);
      for (const c of r.changes) expect(Object.keys(c)).toEqual(['path', 'field', 'op', 'old', 'new', 'sensitive', 'known_after_apply', 'names']);
    }
  });

  it('keeps ids, names each id of a managed resource, labels natural-key items and lists what a delete destroys', () => {
    const json = planJson(samplePlan);
    const ssh = json.resources.find((r) => r.address === 'TCPEdge/ssh')!;
    expect(ssh.source).toBe('infra/edges.yaml:12');
    expect(ssh.changes[2]).toMatchObject({ new: 'ipp_1234567890abcdefghijklmnopq', names: { ipp_1234567890abcdefghijklmnopq: 'IPPolicy/office' } });
    const headers = json.resources.at(-1)!;
    expect(headers.label).toBe('RouteResponseHeaders of HTTPSEdgeRoute/api');
    expect(headers.source).toBeNull();
    expect(headers.changes.map((c) => [c.path, c.op, c.old, c.names])).toEqual([
      ['/add', 'remove', { 'x-frame-options': 'DENY' }, {}],
      ['/edge_id', 'remove', 'edghts_2rcCvYaCz4tUbWiCRVTCu2Rsxr1', { edghts_2rcCvYaCz4tUbWiCRVTCu2Rsxr1: 'HTTPSEdge/site' }],
      ['/route_id', 'remove', 'edghtsrt_2rcCvYaCz4tUbWiCRVTCu2Rsxr2', { edghtsrt_2rcCvYaCz4tUbWiCRVTCu2Rsxr2: 'HTTPSEdgeRoute/api' }],
    ]);
    const maintenance = json.resources.find((r) => r.address === 'HTTPResponseBackend/maintenance')!;
    expect(maintenance.label).toBe('HTTPResponseBackend/maintenance');
    expect(maintenance.changes.map((c) => c.path)).toEqual(['/body', '/description', '/status_code']);
  });

  it('folds module actions into their resource and shows a module delete as a removal', () => {
    const edge = planJson(samplePlan).resources.find((r) => r.address === 'TLSEdge/secure')!;
    expect(edge.action).toBe('update');
    expect(edge.live_id).toBe('edgtls_2rcCvYaCz4tUbWiCRVTCu2RsxrA');
    expect(edge.modules).toEqual([{ module: 'backend', op: 'put' }, { module: 'ip_restriction', op: 'delete' }]);
    expect(edge.changes).toContainEqual({ path: '/backend/backend_id', field: 'backend.backend_id', op: 'replace', old: 'bkdtg_old000000000000000000000', new: { $ref: 'TunnelGroupBackend/web' }, sensitive: false, known_after_apply: true, names: { bkdtg_old000000000000000000000: 'TunnelGroupBackend/web-old' } });
    expect(edge.changes).toContainEqual({ path: '/ip_restriction', field: 'ip_restriction', op: 'remove', old: null, new: null, sensitive: false, known_after_apply: false, names: {} });
  });

  it('keeps a reference to a resource of the same plan as {"$ref": ...}', () => {
    const ssh = planJson(samplePlan).resources.find((r) => r.address === 'TCPEdge/ssh')!;
    expect(ssh.changes[1]).toMatchObject({ new: { enabled: true, backend_id: { $ref: 'TunnelGroupBackend/web' } }, known_after_apply: true });
    expect(ssh.changes[3]).toMatchObject({ path: '/ip_restriction/ip_policy_ids/1', field: 'ip_restriction.ip_policy_ids[1]', new: null, known_after_apply: true });
    expect(ssh.live_id).toBeNull();
  });

  it('carries no value for a sensitive change', () => {
    const text = view.plan(samplePlan);
    expect(text).not.toContain(SECRET_KEY_PEM.split('\n')[1]!.slice(0, 16));
    const rule = planJson(samplePlan).resources.find((r) => r.action === 'replace')!;
    expect(rule.reason).toBe('action cannot be updated');
    expect(rule.changes[1]).toEqual({ path: '/private_key_pem', field: 'private_key_pem', op: 'replace', old: null, new: null, sensitive: true, known_after_apply: false, names: {} });
  });

  it('renders an empty plan', () => {
    expect(JSON.parse(view.plan(emptyPlan))).toEqual({
      format_version: 2, stack: 'default', destroy: false, summary: { create: 0, update: 0, replace: 0, delete: 0 }, resources: [], warnings: [], errors: [],
    });
  });

  it('lists the plan errors with their positions', () => {
    const plan = { ...emptyPlan, errors: [{ pos: { file: 'm.yaml', line: 4, col: 5 }, address: 'TCPEdge/a', message: 'hostport "h:1" is held by TCPEdge edgtcp_x of stack "other"' }] };
    expect(planJson(plan).errors).toEqual([{ file: 'm.yaml', line: 4, col: 5, address: 'TCPEdge/a', message: 'hostport "h:1" is held by TCPEdge edgtcp_x of stack "other"' }]);
  });
});
