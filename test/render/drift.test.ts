// The drift report in text, Markdown and JSON, from a Plan built as plain data with every direction.
import { describe, expect, it } from 'vitest';
import { driftReport } from '../../src/engine/drift.ts';
import type { Action, Plan } from '../../src/engine/plan-data.ts';
import { summarize } from '../../src/engine/plan.ts';
import { VIEWS } from '../../src/render/views.ts';

const base = { dependsOn: [] as string[] };
const actions: Action[] = [
  { ...base, id: 'update:TCPEdge/ssh', op: 'update', kind: 'TCPEdge', name: 'ssh', address: 'TCPEdge/ssh', liveId: 'edgtcp_1', changes: [{ path: '/description', kind: 'replace', old: 'by | hand', new: 'ssh' }] },
  { ...base, id: 'module-delete:TCPEdge/ssh:policy', op: 'module-delete', kind: 'TCPEdge', name: 'ssh', address: 'TCPEdge/ssh', liveId: 'edgtcp_1', module: 'policy', changes: [{ path: '/policy', kind: 'remove', old: { enabled: true } }] },
  { ...base, id: 'create:IPPolicyRule/gone', op: 'create', kind: 'IPPolicyRule', name: 'gone', address: 'IPPolicyRule/gone', changes: [{ path: '/cidr', kind: 'add', new: '10.0.0.0/8' }] },
  { ...base, id: 'update:EventSources/audit', op: 'update', kind: 'EventSources', name: 'audit', address: 'EventSources/audit', liveId: 'esb_1', changes: [{ path: '/types', kind: 'replace', old: ['a.v0', 'x.v0'], new: ['a.v0'] }] },
  { ...base, id: 'replace:TLSCertificate/w', op: 'replace', kind: 'TLSCertificate', name: 'w', address: 'TLSCertificate/w', liveId: 'cert_1', reason: 'certificate_pem cannot be updated', changes: [{ path: '/certificate_pem', kind: 'replace', sensitive: true }] },
];
const plan: Plan = { stack: 'prod', actions, summary: summarize(actions), warnings: ['something to know'] };
const report = driftReport(plan);

describe('drift renderers', () => {
  it('text: one block per resource, one line per finding, the summary', () => {
    expect(VIEWS.text({ color: false }).drift(report)).toBe(`Drift on stack "prod": live state differs from the manifests.

TCPEdge/ssh (edgtcp_1): apply would update it
    changed    description: live "by | hand", manifests "ssh"
    live-only  module policy: {enabled: true} present live, not in the manifests  # apply: delete module policy

IPPolicyRule/gone: apply would create it
    missing    no live resource (deleted out of band, or never applied)

EventSources/audit (esb_1): apply would update it
    live-only  types[]: "x.v0" present live, not in the manifests

TLSCertificate/w (cert_1): apply would replace it: certificate_pem cannot be updated
    changed    certificate_pem: (sensitive) differs

Drift: 2 changed, 1 missing, 2 live-only (4 resources differ from the manifests). \`edgeops apply\` would restore the manifests' state.
Warning: something to know
`);
  });

  it('text in sync', () => {
    const inSync = driftReport({ stack: 'prod', actions: [], summary: summarize([]), warnings: [] });
    expect(VIEWS.text({ color: false }).drift(inSync)).toBe('No drift. Live state matches the manifests.\n');
    expect(VIEWS.markdown({ color: false }).drift(inSync)).toBe('### edgeops drift for stack `prod`\n\n**No drift.** Live state matches the manifests.\n');
  });

  it('markdown: counts and a table row per finding, table cells escaped', () => {
    const md = VIEWS.markdown({ color: false }).drift(report);
    expect(md).toContain('| changed | missing | live-only | resources |\n|---:|---:|---:|---:|\n| 2 | 1 | 2 | 4 |\n');
    expect(md).toContain('| `TCPEdge/ssh` (`edgtcp_1`) | changed | description | `"by \\| hand"` | `"ssh"` | update |\n');
    expect(md).toContain('| `TCPEdge/ssh` (`edgtcp_1`) | live-only | module policy | `{enabled: true}` | `(unset)` | delete module policy |\n');
    expect(md).toContain('| `IPPolicyRule/gone` | missing | resource | absent | present | create |\n');
    expect(md).toContain('| `EventSources/audit` (`esb_1`) | live-only | types\\[\\] | `"x.v0"` | `(unset)` | update |\n');
    expect(md).toContain('| `TLSCertificate/w` (`cert_1`) | changed | certificate\\_pem | `(sensitive)` | `(sensitive)` | replace |\n');
    expect(md).toContain('> **Warning:** something to know');
  });

  it('json: the documented structure', () => {
    const json = JSON.parse(VIEWS.json({ color: false }).drift(report));
    expect(json.format_version).toBe(1);
    expect(json.in_sync).toBe(false);
    expect(json.summary).toEqual({ changed: 2, missing: 1, live_only: 2, resources: 4 });
    expect(json.resources[0]).toEqual({
      address: 'TCPEdge/ssh', label: 'TCPEdge/ssh', kind: 'TCPEdge', name: 'ssh', live_id: 'edgtcp_1', apply: 'update', reason: null,
      findings: [
        { direction: 'changed', path: '/description', field: 'description', module: null, element: false, live: 'by | hand', desired: 'ssh', sensitive: false, known_after_apply: false, action: 'update', names: {} },
        { direction: 'live-only', path: '/policy', field: 'policy', module: 'policy', element: false, live: { enabled: true }, desired: null, sensitive: false, known_after_apply: false, action: 'module-delete', names: {} },
      ],
    });
    expect(json.resources[3].findings[0]).toMatchObject({ sensitive: true, live: null, desired: null });
    expect(json.warnings).toEqual(['something to know']);
  });
});

// Names as the plan has them after namePlan (engine/plan-names.ts): a drifted reference to a managed resource, a
// module listing one, and a natural-key item without a document, labelled by its parent.
const named: Action[] = [
  { ...base, id: 'update:TLSEdge/devices', op: 'update', kind: 'TLSEdge', name: 'devices', address: 'TLSEdge/devices', liveId: 'edgtls_1', changes: [{ path: '/backend/backend_id', kind: 'replace', old: 'bkdtg_web', new: 'bkdtg_mqtt' }] },
  { ...base, id: 'module-delete:TLSEdge/devices:ip_restriction', op: 'module-delete', kind: 'TLSEdge', name: 'devices', address: 'TLSEdge/devices', liveId: 'edgtls_1', module: 'ip_restriction', changes: [{ path: '/ip_restriction', kind: 'remove', old: { enabled: true, ip_policy_ids: ['ipp_office', 'ipp_foreign'] } }] },
  { ...base, id: 'delete:RouteResponseHeaders/edghts_1/edghtsrt_1', op: 'delete', kind: 'RouteResponseHeaders', name: 'edghts_1/edghtsrt_1', address: 'RouteResponseHeaders/edghts_1/edghtsrt_1', liveId: 'edghts_1/edghtsrt_1', label: 'RouteResponseHeaders of HTTPSEdgeRoute/api', changes: [{ path: '/route_id', kind: 'remove', old: 'edghtsrt_1' }] },
  { ...base, id: 'update:EventSources/edgtls_sub', op: 'update', kind: 'EventSources', name: 'esb_1', address: 'EventSources/esb_1', liveId: 'esb_1', label: 'EventSources of EventSubscription/audit', changes: [{ path: '/types', kind: 'replace', old: ['a.v0', 'x.v0'], new: ['a.v0'] }] },
];
const namedPlan: Plan = {
  stack: 'prod', actions: named, summary: summarize(named), warnings: [],
  names: { bkdtg_web: 'TunnelGroupBackend/web', bkdtg_mqtt: 'TunnelGroupBackend/mqtt', ipp_office: 'IPPolicy/office', edghtsrt_1: 'HTTPSEdgeRoute/api' },
};
const namedReport = driftReport(namedPlan);

describe('drift renderers name managed resources as plans do', () => {
  it('text: ids as Kind/name (id), natural-key items by their parents', () => {
    expect(VIEWS.text({ color: false }).drift(namedReport)).toBe(`Drift on stack "prod": live state differs from the manifests.

TLSEdge/devices (edgtls_1): apply would update it
    changed    backend.backend_id: live TunnelGroupBackend/web (bkdtg_web), manifests TunnelGroupBackend/mqtt (bkdtg_mqtt)
    live-only  module ip_restriction: {enabled: true, ip_policy_ids: [IPPolicy/office (ipp_office), "ipp_foreign"]} present live, not in the manifests  # apply: delete module ip_restriction

RouteResponseHeaders of HTTPSEdgeRoute/api (edghts_1/edghtsrt_1): apply would delete it
    live-only  present live, in no manifest (added by hand, or its document was removed)

EventSources of EventSubscription/audit (esb_1): apply would update it
    live-only  types[]: "x.v0" present live, not in the manifests

Drift: 1 changed, 0 missing, 3 live-only (3 resources differ from the manifests). \`edgeops apply\` would restore the manifests' state.
`);
  });

  it('markdown: the same names and labels', () => {
    const md = VIEWS.markdown({ color: false }).drift(namedReport);
    expect(md).toContain('| `TLSEdge/devices` (`edgtls_1`) | changed | backend.backend\\_id | `TunnelGroupBackend/web (bkdtg_web)` | `TunnelGroupBackend/mqtt (bkdtg_mqtt)` | update |\n');
    expect(md).toContain('| `TLSEdge/devices` (`edgtls_1`) | live-only | module ip\\_restriction | `{enabled: true, ip_policy_ids: [IPPolicy/office (ipp_office), "ipp_foreign"]}` | `(unset)` | delete module ip\\_restriction |\n');
    expect(md).toContain('| `RouteResponseHeaders of HTTPSEdgeRoute/api` (`edghts_1/edghtsrt_1`) | live-only | resource | present | absent | delete |\n');
    expect(md).toContain('| `EventSources of EventSubscription/audit` (`esb_1`) | live-only | types\\[\\] | `"x.v0"` | `(unset)` | update |\n');
  });

  it('json: ids kept, each finding names the managed ids it holds, each resource has a label', () => {
    const json = JSON.parse(VIEWS.json({ color: false }).drift(namedReport));
    expect(json.format_version).toBe(1);
    const [devices, headers, sources] = json.resources;
    expect(devices.label).toBe('TLSEdge/devices');
    expect(devices.findings[0]).toMatchObject({ live: 'bkdtg_web', desired: 'bkdtg_mqtt', names: { bkdtg_web: 'TunnelGroupBackend/web', bkdtg_mqtt: 'TunnelGroupBackend/mqtt' } });
    expect(devices.findings[1].names).toEqual({ ipp_office: 'IPPolicy/office' });
    expect(headers).toMatchObject({ address: 'RouteResponseHeaders/edghts_1/edghtsrt_1', label: 'RouteResponseHeaders of HTTPSEdgeRoute/api', live_id: 'edghts_1/edghtsrt_1' });
    expect(headers.findings[0].names).toEqual({});
    expect(sources.label).toBe('EventSources of EventSubscription/audit');
    expect(sources.findings[0]).toMatchObject({ live: 'x.v0', names: {} });
  });
});
