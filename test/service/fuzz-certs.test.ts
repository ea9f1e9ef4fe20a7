// Seeded input fuzzing of the certificate endpoints and the TLS termination module: POST and PATCH
// /certificate_authorities, PATCH /tls_certificates and PUT /edges/tls/{id}/tls_termination. Every generated
// request is certainly invalid (fuzz-requests.ts), so each must be a 4xx with the error envelope, and the stored
// data must be unchanged after each one.
import { beforeAll, describe, it } from 'vitest';
import { makeCa, makeCert, makeKeyPem, type MadeCert } from '../helpers/certs.ts';
import { prng, serviceForFile } from '../helpers/service.ts';
import { ok } from './edge-fixtures.ts';
import { fuzzRejected, INVALID_TEXT, NOT_STRING, type FuzzEndpoint } from './fuzz-requests.ts';

const { c } = serviceForFile();
const ids: Record<string, string> = {};
let ca: MadeCert;
let keyPem: string;

beforeAll(async () => {
  ca = await makeCa();
  const leaf = await makeCert();
  keyPem = await makeKeyPem();
  ids.ca = ok(await c.post('/certificate_authorities', { ca_pem: ca.certPem, description: 'ca' }), 201).id as string;
  ids.cert = ok(await c.post('/tls_certificates', { certificate_pem: leaf.certPem, private_key_pem: leaf.keyPem, metadata: 'm' }), 201).id as string;
  ids.edge = ok(await c.post('/edges/tls', {
    mutual_tls: { certificate_authority_ids: [ids.ca] }, tls_termination: { terminate_at: 'edge', min_version: '1.2' },
  }), 201).id as string;
});

/** Every certificate authority, TLS certificate and TLS edge, and the edge's tls_termination module. */
async function snapshot(): Promise<unknown[]> {
  return [
    await c.listAll('/certificate_authorities', 'certificate_authorities'),
    await c.listAll('/tls_certificates', 'tls_certificates'),
    await c.listAll('/edges/tls', 'tls_edges'),
    (await c.get(`/edges/tls/${ids.edge}/tls_termination`)).body,
  ];
}

const CA_PEM = (): readonly unknown[] => [
  ...NOT_STRING, '', 'not a certificate', `${ca.certPem}trailing`, keyPem, `${ca.certPem}${keyPem}`,
  '-----BEGIN CERTIFICATE-----\nAAAA\n-----END CERTIFICATE-----\n', ca.certPem.replace(/\n([A-Za-z0-9+/]{8})/, '\n$1%%%%'),
];
const otherId = (prefix: string) => (): readonly unknown[] => [...NOT_STRING, `${prefix}_other`, ''];

const ENDPOINTS: FuzzEndpoint[] = [
  {
    method: 'POST', path: () => '/certificate_authorities', valid: () => ({ description: 'd', metadata: 'm', ca_pem: ca.certPem }),
    fields: { ...INVALID_TEXT, ca_pem: CA_PEM },
  },
  {
    method: 'PATCH', path: () => `/certificate_authorities/${ids.ca}`, valid: () => ({ description: 'd', metadata: 'm' }),
    fields: { ...INVALID_TEXT, id: otherId('ca') }, forbidden: ['ca_pem'],
  },
  {
    method: 'PATCH', path: () => `/tls_certificates/${ids.cert}`, valid: () => ({ description: 'd', metadata: 'm' }),
    fields: { ...INVALID_TEXT, id: otherId('cert') }, forbidden: ['certificate_pem', 'private_key_pem'],
  },
  {
    method: 'PUT', path: () => `/edges/tls/${ids.edge}/tls_termination`, valid: () => ({ enabled: true, terminate_at: 'edge', min_version: '1.3' }),
    fields: {
      enabled: () => [1, 0, 'true', '', [], {}, [true]],
      terminate_at: () => [...NOT_STRING, '', 'Edge', 'both', 'upstream '],
      min_version: () => [...NOT_STRING, '', '1.4', '1', '1.20', 'TLS1.2', '1.3 '],
    },
  },
];

describe('fuzzing the certificate and TLS termination endpoints', () => {
  it('always a 4xx with the error body, and stored data unchanged after every request', async () => {
    await fuzzRejected(c, prng(Number(process.env.FUZZ_SEED ?? 20240603)), ENDPOINTS, 80, snapshot);
  });
});
