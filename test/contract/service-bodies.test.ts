// The service checks every request body through the contract, for every kind: over real HTTP, a create, a
// PATCH and each module PUT with an unknown field is refused naming exactly the fields the contract's schema
// declares; a create without its required fields, a PATCH of a create-only field and an id that names nothing
// in a reference field the contract declares are refused too.
import { describe, expect, it } from 'vitest';
import { CONTRACT_KINDS, type BodySchema, type ContractKind, type KindName } from '../../src/contract/index.ts';
import { makeCa, makeCert } from '../helpers/certs.ts';
import { expectError, serviceForFile, type ApiClient } from '../helpers/service.ts';

const { c } = serviceForFile();

function allowed(schema: BodySchema): string {
  return Object.entries(schema.properties ?? {}).filter(([, s]) => s.refused === undefined).map(([k]) => k).join(', ');
}

/** A minimal valid create body of each kind, creating what it references first; and the collection path. */
async function minimal(api: ApiClient, kind: KindName): Promise<{ path: string; body: Record<string, unknown> }> {
  const id = async (path: string, body: Record<string, unknown> = {}): Promise<string> => {
    const r = await api.post(path, body);
    expect(r.status, r.text).toBe(201);
    return r.body.id as string;
  };
  switch (kind) {
    case 'ip_policy_rule':
      return { path: '/ip_policy_rules', body: { cidr: '10.0.0.0/8', ip_policy_id: await id('/ip_policies'), action: 'allow' } };
    case 'tls_certificate': {
      const cert = await makeCert({ keyType: 'ecdsa' });
      return { path: '/tls_certificates', body: { certificate_pem: cert.certPem, private_key_pem: cert.keyPem } };
    }
    case 'certificate_authority':
      return { path: '/certificate_authorities', body: { ca_pem: (await makeCa({ keyType: 'ecdsa' })).certPem } };
    case 'https_edge_route':
      return { path: `/edges/https/${await id('/edges/https')}/routes`, body: { match_type: 'exact_path', match: '/x' } };
    default:
      return { path: CONTRACT_KINDS.find((k) => k.kind === kind)!.path, body: {} };
  }
}

describe.each(CONTRACT_KINDS.map((k) => [k.kind, k] as [string, ContractKind]))('%s', (_name, kind) => {
  it('create, PATCH and module PUT bodies are checked against the contract', async () => {
    const { path, body } = await minimal(c, kind.kind);
    expectError(await c.post(path, { ...body, zz_unknown: 1 }), 400, 'ERR_UNKNOWN_FIELD', `unknown field "zz_unknown"; allowed: ${allowed(kind.create)}`);
    if (kind.create.required?.length) expectError(await c.post(path, {}), 400, 'ERR_FIELD_REQUIRED', ': required');
    const created = await c.post(path, body);
    expect(created.status, created.text).toBe(201);
    const item = `${path}/${created.body.id as string}`;
    expectError(await c.patch(item, { zz_unknown: 1 }), 400, 'ERR_UNKNOWN_FIELD', `allowed: ${allowed(kind.update)}`);
    for (const field of kind.immutable) {
      expectError(await c.patch(item, { [field]: body[field] ?? 'x' }), 400, 'ERR_FIELD_NOT_UPDATABLE', field);
    }
    for (const module of kind.modules) {
      expectError(await c.put(`${item}/${module.name}`, { zz_unknown: 1 }), 400, 'ERR_UNKNOWN_FIELD',
        `unknown field "${module.name}.zz_unknown"; allowed: ${allowed(module.schema)}`);
    }
    expect((await c.get(item)).body).toStrictEqual(created.body);
  });

  it.each(kind.refs.map((r) => [r.field, r] as const))('%s is a reference the service checks', async (_field, ref) => {
    const { path, body } = await minimal(c, kind.kind);
    // 'a.b[]' -> {a: {b: ['zz_missing']}}, reported as 'a.b[0]'.
    const steps = ref.field.split('.');
    let value: unknown = 'zz_missing';
    for (const step of [...steps].reverse()) value = step.endsWith('[]') ? { [step.slice(0, -2)]: [value] } : { [step]: value };
    expectError(await c.post(path, { ...body, ...(value as object) }), 400, 'ERR_REFERENCE_NOT_FOUND', `${ref.field.replace(/\[\]/g, '[0]')}: no `);
  });
});
