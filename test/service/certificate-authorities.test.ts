// Conformance of /certificate_authorities over real HTTP: exact bodies with the fields derived from ca_pem,
// validation errors, PATCH limits, and delete protection while a TLS or HTTPS edge's mutual_tls uses the CA.
import { beforeAll, describe, expect, it } from 'vitest';
import { api, expectError, ID_SUFFIX, serviceForFile, TIMESTAMP } from '../helpers/service.ts';
import { containsKeyMaterial, makeCa, makeCert, type MadeCert } from '../helpers/certs.ts';

const { svc, c } = serviceForFile();
let ca: MadeCert;

beforeAll(async () => {
  ca = await makeCa({
    keyType: 'rsa',
    commonName: 'Client Auth CA',
    extendedKeyUsages: ['client_auth', 'server_auth'],
    notBefore: new Date('2025-05-06T07:08:09Z'),
    notAfter: new Date('2045-05-06T07:08:09Z'),
  });
});

function expected(extra: Record<string, unknown> = {}, pem = ca.certPem): Record<string, unknown> {
  return {
    id: expect.stringMatching(new RegExp(`^ca_${ID_SUFFIX.source}`)),
    uri: expect.any(String),
    created_at: expect.stringMatching(TIMESTAMP),
    ...extra,
    ca_pem: pem,
    subject_common_name: 'Client Auth CA',
    not_before: '2025-05-06T07:08:09Z',
    not_after: '2045-05-06T07:08:09Z',
    key_usages: ['digital_signature', 'cert_sign', 'crl_sign'],
    extended_key_usages: ['client_auth', 'server_auth'], // certificate order
  };
}

async function createCa(extra: Record<string, unknown> = {}): Promise<Record<string, any>> {
  const r = await c.post('/certificate_authorities', { ca_pem: ca.certPem, ...extra });
  expect(r.status, r.text).toBe(201);
  return r.body;
}

describe('create, get, list, delete', () => {
  it('creates a CA and returns every field derived from ca_pem', async () => {
    const r = await c.post('/certificate_authorities', { ca_pem: ca.certPem, description: 'client CA', metadata: '{"k":"v"}' });
    expect(r.status, r.text).toBe(201);
    expect(r.body).toEqual(expected({ description: 'client CA', metadata: '{"k":"v"}' }));
    expect(r.body.uri).toBe(`${svc.url}/certificate_authorities/${r.body.id}`);
    const got = await c.get(`/certificate_authorities/${r.body.id}`);
    expect(got.status).toBe(200);
    expect(got.body).toEqual(r.body);
  });

  it('leaves description and metadata out when not given', async () => {
    const body = await createCa();
    expect(body).toEqual(expected());
    expect(Object.keys(body)).not.toContain('description');
    expect(Object.keys(body)).not.toContain('metadata');
  });

  it('accepts several concatenated CA certificates and describes the first', async () => {
    const second = await makeCa({ keyType: 'ed25519', commonName: 'Second CA' });
    const pem = ca.certPem + second.certPem;
    const r = await c.post('/certificate_authorities', { ca_pem: pem });
    expect(r.status, r.text).toBe(201);
    expect(r.body).toEqual(expected({}, pem));
  });

  it('lists under certificate_authorities, newest first', async () => {
    const a = await createCa({ description: 'a' });
    const b = await createCa({ description: 'b' });
    const r = await c.get('/certificate_authorities?limit=2');
    expect(r.status).toBe(200);
    expect(Object.keys(r.body).sort()).toEqual(['certificate_authorities', 'next_page_uri', 'uri']);
    expect(r.body.uri).toBe(`${svc.url}/certificate_authorities`);
    expect(r.body.certificate_authorities).toEqual([b, a]);
    expect(r.body.next_page_uri).toBe(`${svc.url}/certificate_authorities?before_id=${a.id}&limit=2`);
  });

  it('deletes with 204 and then answers 404', async () => {
    const { id } = await createCa();
    const del = await c.del(`/certificate_authorities/${id}`);
    expect(del.status).toBe(204);
    expect(del.text).toBe('');
    expectError(await c.get(`/certificate_authorities/${id}`), 404, 'ERR_CERTIFICATE_AUTHORITY_NOT_FOUND');
    expectError(await c.del(`/certificate_authorities/${id}`), 404, 'ERR_CERTIFICATE_AUTHORITY_NOT_FOUND');
    expectError(await c.patch(`/certificate_authorities/${id}`, {}), 404, 'ERR_CERTIFICATE_AUTHORITY_NOT_FOUND');
  });
});

describe('PATCH', () => {
  it('changes description and metadata only', async () => {
    const made = await createCa({ description: 'one', metadata: 'x' });
    const r = await c.patch(`/certificate_authorities/${made.id}`, { description: 'two' });
    expect(r.status, r.text).toBe(200);
    expect(r.body).toEqual({ ...made, description: 'two' });
    const cleared = await c.patch(`/certificate_authorities/${made.id}`, { metadata: '' });
    expect(cleared.body).toEqual({ ...made, description: 'two', metadata: undefined });
    expect(Object.keys(cleared.body)).not.toContain('metadata');
  });

  it('refuses ca_pem and the derived fields with 400, changing nothing', async () => {
    const made = await createCa({ description: 'fixed' });
    const other = await makeCa({ commonName: 'Other CA' });
    const cases: [Record<string, unknown>, string, string][] = [
      [{ ca_pem: other.certPem }, 'ERR_FIELD_NOT_UPDATABLE', 'ca_pem'],
      [{ description: 'new', ca_pem: other.certPem }, 'ERR_FIELD_NOT_UPDATABLE', 'ca_pem'],
      [{ subject_common_name: 'x' }, 'ERR_UNKNOWN_FIELD', 'subject_common_name'],
      [{ description: 'é'.repeat(128) }, 'ERR_DESCRIPTION_TOO_LONG', 'description'],
      [{ metadata: 'm'.repeat(4097) }, 'ERR_METADATA_TOO_LONG', 'metadata'],
      [{ metadata: { a: 1 } }, 'ERR_FIELD_TYPE', 'metadata'],
    ];
    for (const [body, code, field] of cases) expectError(await c.patch(`/certificate_authorities/${made.id}`, body), 400, code, field);
    expect((await c.get(`/certificate_authorities/${made.id}`)).body).toEqual(made);
  });
});

describe('create validation', () => {
  it('refuses missing, mistyped and malformed ca_pem with distinct codes, storing nothing', async () => {
    const before = await api(svc).listAll('/certificate_authorities', 'certificate_authorities');
    const cases: [Record<string, unknown>, string, string][] = [
      [{}, 'ERR_FIELD_REQUIRED', 'ca_pem'],
      [{ ca_pem: null }, 'ERR_FIELD_REQUIRED', 'ca_pem'],
      [{ ca_pem: 1 }, 'ERR_FIELD_TYPE', 'ca_pem'],
      [{ ca_pem: ca.certPem, bogus: true }, 'ERR_UNKNOWN_FIELD', 'bogus'],
      [{ ca_pem: '' }, 'ERR_PEM_EMPTY', 'ca_pem'],
      [{ ca_pem: 'hello' }, 'ERR_PEM_TRAILING_DATA', 'ca_pem'],
      [{ ca_pem: ca.certPem + '\n#end' }, 'ERR_PEM_TRAILING_DATA', 'ca_pem'],
      [{ ca_pem: '-----BEGIN CERTIFICATE-----\nAAAA\n-----END CERTIFICATE-----' }, 'ERR_PEM_INVALID', 'ca_pem'],
      [{ ca_pem: ca.certPem, description: 'é'.repeat(128) }, 'ERR_DESCRIPTION_TOO_LONG', 'description'],
      [{ ca_pem: ca.certPem, metadata: 'm'.repeat(4097) }, 'ERR_METADATA_TOO_LONG', 'metadata'],
    ];
    for (const [body, code, field] of cases) expectError(await c.post('/certificate_authorities', body), 400, code, field);
    expect(await api(svc).listAll('/certificate_authorities', 'certificate_authorities')).toEqual(before);
  });

  it('refuses a private key where the CA certificate belongs without echoing it', async () => {
    for (const pem of [ca.keyPem, ca.certPem + ca.keyPem]) {
      const r = await c.post('/certificate_authorities', { ca_pem: pem });
      expectError(r, 400, 'ERR_PEM_WRONG_TYPE', 'ca_pem');
      expect(containsKeyMaterial(r.text, ca.keyPem)).toBe(false);
    }
  });
});

describe('references from edges', () => {
  it('refuses to delete a CA used by a TLS edge or an HTTPS edge, naming them, until they are gone', async () => {
    const { id } = await createCa();
    const tls = await c.post('/edges/tls', { mutual_tls: { certificate_authority_ids: [id] } });
    expect(tls.status, tls.text).toBe(201);
    expect(tls.body.mutual_tls.certificate_authorities).toEqual([{ id, uri: `${svc.url}/certificate_authorities/${id}` }]);
    const https = await c.post('/edges/https', { mutual_tls: { certificate_authority_ids: [id] } });
    expect(https.status, https.text).toBe(201);

    const refused = await c.del(`/certificate_authorities/${id}`);
    expectError(refused, 409, 'ERR_RESOURCE_IN_USE', tls.body.id);
    expect(refused.body.msg).toContain(https.body.id);
    expect((await c.get(`/certificate_authorities/${id}`)).status).toBe(200);

    expect((await c.del(`/edges/tls/${tls.body.id}`)).status).toBe(204);
    expectError(await c.del(`/certificate_authorities/${id}`), 409, 'ERR_RESOURCE_IN_USE', https.body.id);
    expect((await c.del(`/edges/https/${https.body.id}`)).status).toBe(204);
    expect((await c.del(`/certificate_authorities/${id}`)).status).toBe(204);
  });

  it('is not a TLS certificate: an edge naming a cert_ id as a CA gets a wrong-kind 400', async () => {
    const leaf = await makeCert();
    const cert = await c.post('/tls_certificates', { certificate_pem: leaf.certPem, private_key_pem: leaf.keyPem });
    expect(cert.status, cert.text).toBe(201);
    const r = await c.post('/edges/tls', { mutual_tls: { certificate_authority_ids: [cert.body.id] } });
    expectError(r, 400, 'ERR_REFERENCE_WRONG_KIND', 'mutual_tls.certificate_authority_ids[0]');
    expectError(await c.post('/edges/tls', { mutual_tls: { certificate_authority_ids: ['ca_000000000000000000000000000'] } }), 400, 'ERR_REFERENCE_NOT_FOUND');
  });
});
