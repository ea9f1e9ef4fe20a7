// A plan built from plain data that exercises every operation and every kind of value the renderers show.
// SECRET is placed where a buggy engine might leak it (a sensitive change that still carries values).
import type { Plan } from '../../src/engine/plan-data.ts';

export const SECRET_KEY_PEM = [
  '-----BEGIN PRIVATE KEY-----',
  'MIGHAgEAMBMGByqGSM49AgEGCCqGSM49AwEHBG0wawIBAQQgSECRETSECRETSECRE',
  'TSECRETSECRETSECRETSECRETSEChRANCAATq7Zb2kLw9XvPn4RtYs8MuJe3HdGfA1cQ',
  '-----END PRIVATE KEY-----',
  '',
].join('\n');

export const CERT_PEM = [
  '-----BEGIN CERTIFICATE-----',
  'MIIBszCCAVmgAwIBAgIUQ2VydGlmaWNhdGVGb3JUZXN0aW5nMAoGCCqGSM49BAMC',
  'MBsxGTAXBgNVBAMMEHdpbGRjYXJkLmV4YW1wbGUwHhcNMjUwMTAxMDAwMDAwWhcN',
  '-----END CERTIFICATE-----',
  '',
].join('\n');

export const samplePlan: Plan = {
  stack: 'default',
  actions: [
    {
      id: 'create:TunnelGroupBackend/web',
      op: 'create',
      kind: 'TunnelGroupBackend',
      name: 'web',
      address: 'TunnelGroupBackend/web',
      changes: [
        { path: '/description', kind: 'add', new: 'web tier tunnels' },
        { path: '/labels', kind: 'add', new: { app: 'web', 'app.kubernetes.io/name': 'web' } },
        { path: '/metadata', kind: 'add', new: { team: 'web' } },
      ],
      dependsOn: [],
    },
    {
      id: 'create:TLSCertificate/wildcard',
      op: 'create',
      kind: 'TLSCertificate',
      name: 'wildcard',
      address: 'TLSCertificate/wildcard',
      changes: [
        { path: '/certificate_pem', kind: 'add', new: CERT_PEM },
        { path: '/private_key_pem', kind: 'add', sensitive: true },
      ],
      dependsOn: [],
    },
    {
      id: 'create:TCPEdge/ssh',
      op: 'create',
      kind: 'TCPEdge',
      name: 'ssh',
      address: 'TCPEdge/ssh',
      source: 'infra/edges.yaml:12',
      changes: [
        { path: '/hostports', kind: 'add', new: ['1.tcp.example.com:20001'] },
        { path: '/backend', kind: 'add', new: { enabled: true, backend_id: { $ref: 'TunnelGroupBackend/web' } }, knownAfterApply: true },
        { path: '/ip_restriction/ip_policy_ids/0', kind: 'add', new: 'ipp_1234567890abcdefghijklmnopq' },
        // A change flagged known-after-apply without a value: shown as the bare marker.
        { path: '/ip_restriction/ip_policy_ids/1', kind: 'add', knownAfterApply: true },
      ],
      dependsOn: ['create:TunnelGroupBackend/web'],
    },
    {
      id: 'update:TLSEdge/secure',
      op: 'update',
      kind: 'TLSEdge',
      name: 'secure',
      address: 'TLSEdge/secure',
      liveId: 'edgtls_2rcCvYaCz4tUbWiCRVTCu2RsxrA',
      changes: [
        { path: '/description', kind: 'replace', old: 'old words', new: 'new words' },
        { path: '/hostports/1', kind: 'add', new: 'b.example.com:443' },
        { path: '/labels/odd.key', kind: 'remove', old: 'x' },
      ],
      dependsOn: [],
    },
    {
      id: 'module-put:TLSEdge/secure:backend',
      op: 'module-put',
      kind: 'TLSEdge',
      name: 'secure',
      address: 'TLSEdge/secure',
      liveId: 'edgtls_2rcCvYaCz4tUbWiCRVTCu2RsxrA',
      module: 'backend',
      changes: [{ path: '/backend/backend_id', kind: 'replace', old: 'bkdtg_old000000000000000000000', new: { $ref: 'TunnelGroupBackend/web' }, knownAfterApply: true }],
      dependsOn: ['create:TunnelGroupBackend/web'],
    },
    {
      id: 'module-delete:TLSEdge/secure:ip_restriction',
      op: 'module-delete',
      kind: 'TLSEdge',
      name: 'secure',
      address: 'TLSEdge/secure',
      liveId: 'edgtls_2rcCvYaCz4tUbWiCRVTCu2RsxrA',
      module: 'ip_restriction',
      changes: [],
      dependsOn: [],
    },
    {
      id: 'replace:IPPolicyRule/office-v4',
      op: 'replace',
      kind: 'IPPolicyRule',
      name: 'office-v4',
      address: 'IPPolicyRule/office-v4',
      liveId: 'ipr_2rcCvYaCz4tUbWiCRVTCu2Rsxr0',
      reason: 'action cannot be updated',
      changes: [
        { path: '/action', kind: 'replace', old: 'allow', new: 'deny' },
        // A buggy engine leaving values on a sensitive change: the renderers must still print none of them.
        { path: '/private_key_pem', kind: 'replace', old: SECRET_KEY_PEM, new: SECRET_KEY_PEM, sensitive: true },
      ],
      dependsOn: [],
    },
    {
      id: 'delete:HTTPResponseBackend/maintenance',
      op: 'delete',
      kind: 'HTTPResponseBackend',
      name: 'maintenance',
      address: 'HTTPResponseBackend/maintenance',
      liveId: 'bkdhr_2rcCvYaCz4tUbWiCRVTCu2Rsxr9',
      // What a delete destroys, as the engine lists it: every field of the live resource.
      changes: [
        { path: '/body', kind: 'remove', old: 'down for maintenance' },
        { path: '/description', kind: 'remove', old: 'maintenance page' },
        { path: '/status_code', kind: 'remove', old: 503 },
      ],
      dependsOn: [],
    },
    {
      // A natural-key item no document names: its address is made of ids, its label of its parents' names.
      id: 'delete:RouteResponseHeaders/edghts_2rcCvYaCz4tUbWiCRVTCu2Rsxr1/edghtsrt_2rcCvYaCz4tUbWiCRVTCu2Rsxr2',
      op: 'delete',
      kind: 'RouteResponseHeaders',
      name: 'edghts_2rcCvYaCz4tUbWiCRVTCu2Rsxr1/edghtsrt_2rcCvYaCz4tUbWiCRVTCu2Rsxr2',
      address: 'RouteResponseHeaders/edghts_2rcCvYaCz4tUbWiCRVTCu2Rsxr1/edghtsrt_2rcCvYaCz4tUbWiCRVTCu2Rsxr2',
      label: 'RouteResponseHeaders of HTTPSEdgeRoute/api',
      liveId: 'edghts_2rcCvYaCz4tUbWiCRVTCu2Rsxr1/edghtsrt_2rcCvYaCz4tUbWiCRVTCu2Rsxr2',
      changes: [
        { path: '/add', kind: 'remove', old: { 'x-frame-options': 'DENY' } },
        { path: '/edge_id', kind: 'remove', old: 'edghts_2rcCvYaCz4tUbWiCRVTCu2Rsxr1' },
        { path: '/route_id', kind: 'remove', old: 'edghtsrt_2rcCvYaCz4tUbWiCRVTCu2Rsxr2' },
      ],
      dependsOn: [],
    },
  ],
  names: {
    bkdtg_old000000000000000000000: 'TunnelGroupBackend/web-old',
    edghts_2rcCvYaCz4tUbWiCRVTCu2Rsxr1: 'HTTPSEdge/site',
    edghtsrt_2rcCvYaCz4tUbWiCRVTCu2Rsxr2: 'HTTPSEdgeRoute/api',
    ipp_1234567890abcdefghijklmnopq: 'IPPolicy/office',
  },
  summary: { create: 3, update: 1, replace: 1, delete: 2 },
  warnings: ['this plan deletes 1 resource (max_deletes is 10)'],
};

export const emptyPlan: Plan = { stack: 'default', actions: [], summary: { create: 0, update: 0, replace: 0, delete: 0 }, warnings: [] };
