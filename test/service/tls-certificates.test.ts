// Conformance of /tls_certificates over real HTTP: exact bodies with every derived field checked against the
// certificate generated here, validation errors with their codes, PATCH limits, and the private key never in
// any response or error body (every response of this file is checked, see `seen`).
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { createPrivateKey } from 'node:crypto';
import { api, expectError, ID_SUFFIX, mutateBody, prng, startTestService, tempDbFile, TIMESTAMP, type ApiClient, type ApiResponse, type TestService } from '../helpers/service.ts';
import { containsKeyMaterial, convertKeyPem, makeCert, makeChain, makeKeyPem, type KeyType, type MadeCert } from '../helpers/certs.ts';
import { expectClientError } from './fuzz-requests.ts';

let svc: TestService;
let c: ApiClient;
const keys: string[] = []; // every private key sent in this file
const seen: ApiResponse[] = []; // every response received in this file

/** The client, with every response kept so afterEach can check none carries key material. */
function watched(client: ApiClient): ApiClient {
  const keep = <A extends unknown[]>(fn: (...a: A) => Promise<ApiResponse>) => async (...a: A) => {
    const r = await fn(...a);
    seen.push(r);
    return r;
  };
  return { ...client, get: keep(client.get), post: keep(client.post), patch: keep(client.patch), put: keep(client.put), del: keep(client.del), raw: keep(client.raw) };
}

const certs = {} as Record<KeyType, MadeCert>;

beforeAll(async () => {
  svc = await startTestService();
  c = watched(api(svc));
  for (const keyType of ['rsa', 'ecdsa', 'ed25519'] as KeyType[]) {
    certs[keyType] = await makeCert({
      keyType,
      commonName: `${keyType}.example.com`,
      dnsNames: [`${keyType}.example.com`, `*.${keyType}.example.com`],
      ips: ['198.51.100.7', '2001:db8::7'],
      subject: { organization: 'Example Org', organizationalUnit: 'Platform', locality: 'Lisbon', province: 'Lisboa', country: 'PT' },
      keyUsages: ['digital_signature', 'key_encipherment'],
      extendedKeyUsages: ['server_auth'],
    });
    keys.push(certs[keyType].keyPem);
  }
});

afterAll(async () => {
  await svc.close();
});

afterEach(() => {
  for (const r of seen.splice(0)) {
    expect(r.status, r.text).toBeLessThan(500);
    for (const key of keys) expect(containsKeyMaterial(r.text, key), `key material in a ${r.status} response`).toBe(false);
  }
});

/** The exact response body for an upload of `cert` (its chainPem unless `pem` is given). */
function expected(cert: MadeCert, extra: Record<string, unknown> = {}, pem = cert.certPem, issuer = cert.commonName): Record<string, unknown> {
  return {
    id: expect.stringMatching(new RegExp(`^cert_${ID_SUFFIX.source}`)),
    uri: expect.any(String),
    created_at: expect.stringMatching(TIMESTAMP),
    ...extra,
    certificate_pem: pem,
    subject_common_name: cert.commonName,
    subject_alternative_names: { dns_names: [cert.commonName, `*.${cert.commonName}`], ips: ['198.51.100.7', '2001:db8::7'] },
    issued_at: null,
    not_before: cert.notBefore,
    not_after: cert.notAfter,
    key_usages: ['digital_signature', 'key_encipherment'],
    extended_key_usages: ['server_auth'],
    private_key_type: cert.keyType,
    issuer_common_name: issuer,
    serial_number: cert.serialNumber,
    subject_organization: 'Example Org',
    subject_organizational_unit: 'Platform',
    subject_locality: 'Lisbon',
    subject_province: 'Lisboa',
    subject_country: 'PT',
  };
}

async function upload(cert: MadeCert, extra: Record<string, unknown> = {}): Promise<Record<string, any>> {
  const r = await c.post('/tls_certificates', { certificate_pem: cert.certPem, private_key_pem: cert.keyPem, ...extra });
  expect(r.status, r.text).toBe(201);
  return r.body;
}

describe('create, get, list, delete', () => {
  for (const keyType of ['rsa', 'ecdsa', 'ed25519'] as KeyType[]) {
    it(`uploads a ${keyType} certificate and returns every field, without the key`, async () => {
      const cert = certs[keyType];
      const r = await c.post('/tls_certificates', { description: `${keyType} cert`, metadata: '{"team":"edge"}', certificate_pem: cert.certPem, private_key_pem: cert.keyPem });
      expect(r.status, r.text).toBe(201);
      expect(r.headers['content-type']).toMatch(/^application\/json/);
      expect(r.body).toEqual(expected(cert, { description: `${keyType} cert`, metadata: '{"team":"edge"}' }));
      expect(r.body.uri).toBe(`${svc.url}/tls_certificates/${r.body.id}`);
      expect(Object.keys(r.body)).not.toContain('private_key_pem');

      const got = await c.get(`/tls_certificates/${r.body.id}`);
      expect(got.status).toBe(200);
      expect(got.body).toEqual(r.body);
    });
  }

  it('leaves description and metadata out when not given', async () => {
    const body = await upload(certs.ecdsa);
    expect(body).toEqual(expected(certs.ecdsa));
    expect(Object.keys(body)).not.toContain('description');
    expect(Object.keys(body)).not.toContain('metadata');
  });

  it('takes the derived fields from the leaf of a chain and returns the chain as sent', async () => {
    const { leaf, intermediate } = await makeChain({
      commonName: 'chain.example.com', dnsNames: ['chain.example.com', '*.chain.example.com'], ips: ['198.51.100.7', '2001:db8::7'],
      subject: { organization: 'Example Org', organizationalUnit: 'Platform', locality: 'Lisbon', province: 'Lisboa', country: 'PT' },
      keyUsages: ['digital_signature', 'key_encipherment'], extendedKeyUsages: ['server_auth'],
    });
    keys.push(leaf.keyPem, intermediate.keyPem);
    const r = await c.post('/tls_certificates', { certificate_pem: leaf.chainPem, private_key_pem: leaf.keyPem });
    expect(r.status, r.text).toBe(201);
    expect(r.body).toEqual(expected(leaf, {}, leaf.chainPem, intermediate.commonName));
  });

  it('accepts PKCS#1 RSA and SEC1 EC private keys', async () => {
    const rsa = await c.post('/tls_certificates', { certificate_pem: certs.rsa.certPem, private_key_pem: convertKeyPem(certs.rsa.keyPem, 'pkcs1') });
    expect(rsa.status, rsa.text).toBe(201);
    expect(rsa.body.private_key_type).toBe('rsa');
    const ec = await c.post('/tls_certificates', { certificate_pem: certs.ecdsa.certPem, private_key_pem: convertKeyPem(certs.ecdsa.keyPem, 'sec1') });
    expect(ec.status, ec.text).toBe(201);
    expect(ec.body.private_key_type).toBe('ecdsa');
  });

  it('lists under tls_certificates, newest first, with pages', async () => {
    const ids = [];
    for (let i = 0; i < 3; i++) ids.push((await upload(certs.ed25519, { description: `page ${i}` })).id);
    const all = await c.get('/tls_certificates');
    expect(all.status).toBe(200);
    expect(Object.keys(all.body).sort()).toEqual(['next_page_uri', 'tls_certificates', 'uri']);
    expect(all.body.uri).toBe(`${svc.url}/tls_certificates`);
    expect(all.body.next_page_uri).toBeNull();
    expect(all.body.tls_certificates.slice(0, 3).map((x: { id: string }) => x.id)).toEqual(ids.reverse());
    const first = (await c.get(`/tls_certificates/${ids[0]}`)).body;
    expect(all.body.tls_certificates[0]).toEqual(first);

    const page = await c.get('/tls_certificates?limit=2');
    expect(page.body.tls_certificates).toHaveLength(2);
    expect(page.body.next_page_uri).toBe(`${svc.url}/tls_certificates?before_id=${ids[1]}&limit=2`);
    const walked = await api(svc).listAll('/tls_certificates?limit=2', 'tls_certificates');
    expect(walked.map((x) => (x as { id: string }).id)).toEqual(all.body.tls_certificates.map((x: { id: string }) => x.id));
  });

  it('deletes with 204 and then answers 404', async () => {
    const { id } = await upload(certs.ecdsa);
    const del = await c.del(`/tls_certificates/${id}`);
    expect(del.status).toBe(204);
    expect(del.text).toBe('');
    expectError(await c.get(`/tls_certificates/${id}`), 404, 'ERR_TLS_CERTIFICATE_NOT_FOUND');
    expectError(await c.del(`/tls_certificates/${id}`), 404, 'ERR_TLS_CERTIFICATE_NOT_FOUND');
    expectError(await c.patch(`/tls_certificates/${id}`, { description: 'x' }), 404, 'ERR_TLS_CERTIFICATE_NOT_FOUND');
    expectError(await c.get('/tls_certificates/ca_000000000000000000000000000'), 404, 'ERR_TLS_CERTIFICATE_NOT_FOUND');
  });

  it('keeps every field across a restart with the same database', async () => {
    const db = tempDbFile();
    try {
      const first = await startTestService({ dbFile: db.dbFile });
      const a = api(first);
      const made = await a.post('/tls_certificates', { certificate_pem: certs.rsa.certPem, private_key_pem: certs.rsa.keyPem, description: 'kept' });
      expect(made.status, made.text).toBe(201);
      await first.close();
      const second = await startTestService({ dbFile: db.dbFile });
      const got = await api(second).get(`/tls_certificates/${made.body.id}`);
      await second.close();
      expect(got.status).toBe(200);
      expect({ ...got.body, uri: undefined }).toEqual({ ...made.body, uri: undefined });
      expect(containsKeyMaterial(got.text, certs.rsa.keyPem)).toBe(false);
    } finally {
      db.cleanup();
    }
  });
});

describe('PATCH', () => {
  it('changes description and metadata only, leaving omitted fields as they were', async () => {
    const made = await upload(certs.ecdsa, { description: 'before', metadata: 'm1' });
    const r = await c.patch(`/tls_certificates/${made.id}`, { description: 'after' });
    expect(r.status, r.text).toBe(200);
    expect(r.body).toEqual({ ...made, description: 'after' });
    const r2 = await c.patch(`/tls_certificates/${made.id}`, { metadata: 'm2' });
    expect(r2.body).toEqual({ ...made, description: 'after', metadata: 'm2' });
    const same = await c.patch(`/tls_certificates/${made.id}`, {});
    expect(same.status).toBe(200);
    expect(same.body).toEqual(r2.body);
    const withId = await c.patch(`/tls_certificates/${made.id}`, { id: made.id, description: 'again' });
    expect(withId.body.description).toBe('again');
  });

  it('removes description and metadata set to empty strings from the response', async () => {
    const made = await upload(certs.ecdsa, { description: 'd', metadata: 'm' });
    const r = await c.patch(`/tls_certificates/${made.id}`, { description: '', metadata: '' });
    expect(r.status).toBe(200);
    expect(Object.keys(r.body)).not.toContain('description');
    expect(Object.keys(r.body)).not.toContain('metadata');
  });

  it('refuses the PEMs and derived fields with 400, changing nothing', async () => {
    const made = await upload(certs.ecdsa, { description: 'fixed' });
    const other = await makeCert();
    keys.push(other.keyPem);
    const cases: [Record<string, unknown>, string, string][] = [
      [{ certificate_pem: other.certPem }, 'ERR_FIELD_NOT_UPDATABLE', 'certificate_pem'],
      [{ private_key_pem: other.keyPem }, 'ERR_FIELD_NOT_UPDATABLE', 'private_key_pem'],
      [{ description: 'new', private_key_pem: certs.ecdsa.keyPem }, 'ERR_FIELD_NOT_UPDATABLE', 'private_key_pem'],
      [{ subject_common_name: 'evil.example.com' }, 'ERR_UNKNOWN_FIELD', 'subject_common_name'],
      [{ not_after: '2099-01-01T00:00:00Z' }, 'ERR_UNKNOWN_FIELD', 'not_after'],
      [{ id: 'cert_other' }, 'ERR_ID_MISMATCH', 'id'],
      [{ description: 7 }, 'ERR_FIELD_TYPE', 'description'],
    ];
    for (const [body, code, field] of cases) {
      expectError(await c.patch(`/tls_certificates/${made.id}`, body), 400, code, field);
    }
    expect((await c.get(`/tls_certificates/${made.id}`)).body).toEqual(made);
  });

  it('enforces the description (255 bytes) and metadata (4096 bytes) limits in UTF-8 bytes', async () => {
    const made = await upload(certs.ecdsa);
    expect((await c.patch(`/tls_certificates/${made.id}`, { description: 'é'.repeat(127) + 'x' })).status).toBe(200);
    expectError(await c.patch(`/tls_certificates/${made.id}`, { description: 'é'.repeat(128) }), 400, 'ERR_DESCRIPTION_TOO_LONG', 'description');
    expect((await c.patch(`/tls_certificates/${made.id}`, { metadata: 'm'.repeat(4096) })).status).toBe(200);
    expectError(await c.patch(`/tls_certificates/${made.id}`, { metadata: 'm'.repeat(4097) }), 400, 'ERR_METADATA_TOO_LONG', 'metadata');
  });
});

describe('create validation', () => {
  it('names missing, mistyped and unknown fields, and applies the limits', async () => {
    const { certPem, keyPem } = certs.ecdsa;
    const cases: [Record<string, unknown>, string, string][] = [
      [{ private_key_pem: keyPem }, 'ERR_FIELD_REQUIRED', 'certificate_pem'],
      [{ certificate_pem: certPem }, 'ERR_FIELD_REQUIRED', 'private_key_pem'],
      [{ certificate_pem: certPem, private_key_pem: null }, 'ERR_FIELD_REQUIRED', 'private_key_pem'],
      [{ certificate_pem: 42, private_key_pem: keyPem }, 'ERR_FIELD_TYPE', 'certificate_pem'],
      [{ certificate_pem: certPem, private_key_pem: [keyPem] }, 'ERR_FIELD_TYPE', 'private_key_pem'],
      [{ certificate_pem: certPem, private_key_pem: keyPem, subject_common_name: 'x' }, 'ERR_UNKNOWN_FIELD', 'subject_common_name'],
      [{ certificate_pem: certPem, private_key_pem: keyPem, description: 'é'.repeat(128) }, 'ERR_DESCRIPTION_TOO_LONG', 'description'],
      [{ certificate_pem: certPem, private_key_pem: keyPem, metadata: 'm'.repeat(4097) }, 'ERR_METADATA_TOO_LONG', 'metadata'],
    ];
    for (const [body, code, field] of cases) expectError(await c.post('/tls_certificates', body), 400, code, field);
    const ok = await c.post('/tls_certificates', { certificate_pem: certPem, private_key_pem: keyPem, description: 'é'.repeat(127) + 'x', metadata: 'm'.repeat(4096) });
    expect(ok.status, ok.text).toBe(201);
  });

  it('refuses bad PEMs and keys with a distinct code, stores nothing, and never echoes the key', async () => {
    const { certPem, keyPem } = certs.rsa;
    const wrongKey = await makeKeyPem('rsa');
    keys.push(wrongKey);
    const encrypted = createPrivateKey(keyPem).export({ type: 'pkcs8', format: 'pem', cipher: 'aes-256-cbc', passphrase: 'pw' }) as string;
    const before = await api(svc).listAll('/tls_certificates', 'tls_certificates');
    const cases: [string, string, string, string][] = [
      ['', keyPem, 'ERR_PEM_EMPTY', 'certificate_pem'],
      ['not a certificate', keyPem, 'ERR_PEM_TRAILING_DATA', 'certificate_pem'],
      [certPem + 'trailing garbage', keyPem, 'ERR_PEM_TRAILING_DATA', 'certificate_pem'],
      [certPem.replace(/\n([A-Za-z0-9+/]{8})/, '\n$1%%%%'), keyPem, 'ERR_PEM_INVALID', 'certificate_pem'],
      ['-----BEGIN CERTIFICATE-----\nAAAA\n-----END CERTIFICATE-----\n', keyPem, 'ERR_PEM_INVALID', 'certificate_pem'],
      [keyPem, keyPem, 'ERR_PEM_WRONG_TYPE', 'certificate_pem'],
      [certPem + keyPem, keyPem, 'ERR_PEM_WRONG_TYPE', 'certificate_pem'],
      [certPem, wrongKey, 'ERR_KEY_MISMATCH', 'private_key_pem'],
      [certPem, certs.ecdsa.keyPem, 'ERR_KEY_MISMATCH', 'private_key_pem'],
      [certPem, certPem, 'ERR_KEY_INVALID', 'private_key_pem'],
      [certPem, '', 'ERR_KEY_INVALID', 'private_key_pem'],
      [certPem, keyPem + 'junk', 'ERR_KEY_INVALID', 'private_key_pem'],
      [certPem, keyPem.slice(0, 200), 'ERR_KEY_INVALID', 'private_key_pem'],
      [certPem, encrypted, 'ERR_KEY_ENCRYPTED', 'private_key_pem'],
    ];
    for (const [certificate_pem, private_key_pem, code, field] of cases) {
      const r = await c.post('/tls_certificates', { certificate_pem, private_key_pem });
      expectError(r, 400, code, field);
      expect(r.body.msg.startsWith(`${field}: `), r.body.msg).toBe(true);
    }
    expect(await api(svc).listAll('/tls_certificates', 'tls_certificates')).toEqual(before);
  });

  it('answers every mutated upload body with 201 or a 4xx error envelope, a rejected one changing nothing (seeded)', async () => {
    const rng = prng(20240602);
    const valid = { description: 'fuzz', metadata: '{}', certificate_pem: certs.ecdsa.certPem, private_key_pem: certs.ecdsa.keyPem };
    const stored = () => api(svc).listAll('/tls_certificates', 'tls_certificates');
    let before = await stored();
    let rejected = 0;
    for (let i = 0; i < 150; i++) {
      const body = mutateBody(rng, valid);
      const r = await c.post('/tls_certificates', body);
      const label = `seed case ${i}: ${JSON.stringify(body).slice(0, 200)} -> ${r.status}`;
      const after = await stored();
      if (r.status === 201) {
        expect(r.body.serial_number).toBe(certs.ecdsa.serialNumber);
        expect(after, label).toEqual([r.body, ...before]);
      } else {
        rejected++;
        expectClientError(r, label);
        expect(after, label).toEqual(before);
      }
      before = after;
    }
    expect(rejected).toBeGreaterThan(50);
  });
});
