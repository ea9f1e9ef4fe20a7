// Seeded generation of certainly-invalid requests for a write endpoint, shared by the fuzz tests: each request
// carries at least one invalid part (a malformed or non-object body, a wrong content type, an unknown or
// create-only field, or a value invalid for its field) plus random junk elsewhere, so every answer must be a
// 4xx with the error envelope and must change nothing.
import { expect } from 'vitest';
import { junkValue, malformedRaw, mutateBody, type ApiClient, type ApiResponse, type Rng } from '../helpers/service.ts';

export interface FuzzEndpoint {
  method: 'POST' | 'PATCH' | 'PUT';
  path: () => string;
  /** A body the endpoint accepts; the generator breaks it. */
  valid: () => Record<string, unknown>;
  /** Per field, values certainly invalid for it (null is "absent", so it is never used as poison). */
  fields: Record<string, () => readonly unknown[]>;
  /** Fields whose mere presence is an error (create-only fields in a PATCH). */
  forbidden?: string[];
}

/** Values that are not a string, for any string field. */
export const NOT_STRING: readonly unknown[] = [1, -1.5, true, false, [], {}, ['x'], { a: 'b' }];

/** Values certainly invalid for description and metadata. */
export const INVALID_TEXT = {
  description: (): readonly unknown[] => [...NOT_STRING, 'x'.repeat(256), 'é'.repeat(200)],
  metadata: (): readonly unknown[] => [...NOT_STRING, 'x'.repeat(4097)],
};

const pick = <T>(rng: Rng, items: readonly T[]): T => items[Math.floor(rng() * items.length)]!;

/** One certainly-invalid request for the endpoint, as [body text, content type]. */
export function badRequest(rng: Rng, ep: FuzzEndpoint): { body: string; contentType: string } {
  const roll = rng();
  if (roll < 0.1) return { body: malformedRaw(rng), contentType: 'application/json' };
  if (roll < 0.15) return { body: JSON.stringify(ep.valid()), contentType: pick(rng, ['text/plain', 'application/xml', 'application/jsonx', 'multipart/form-data']) };
  if (roll < 0.2) {
    // Any JSON that is not an object (an object would be a valid, empty-ish body).
    const v = junkValue(rng);
    const notObject = typeof v === 'object' && v !== null && !Array.isArray(v) ? [v] : v;
    return { body: JSON.stringify(notObject) + (rng() < 0.5 ? '' : ' ,'), contentType: 'application/json' };
  }
  const body = rng() < 0.5 ? mutateBody(rng, ep.valid()) : ep.valid();
  const poison = rng();
  if (poison < 0.25) {
    // defineProperty so that "__proto__" becomes a real key of the JSON text, not a prototype change.
    Object.defineProperty(body, pick(rng, ['bogus', 'Description', 'id_', 'created_at', 'uri', 'tunnels', '__proto__']), {
      value: junkValue(rng), enumerable: true, writable: true, configurable: true,
    });
  } else if (poison < 0.3 && ep.forbidden) {
    body[pick(rng, ep.forbidden)] = junkValue(rng) ?? 'x';
  } else {
    const field = pick(rng, Object.keys(ep.fields));
    body[field] = pick(rng, ep.fields[field]!());
  }
  // A key that is not the poison may have been replaced by junk: that only adds invalidity.
  return { body: JSON.stringify(body), contentType: 'application/json' };
}

export function expectClientError(r: ApiResponse, what: string): void {
  expect(r.status >= 400 && r.status < 500, `${what} -> ${r.status} ${r.text.slice(0, 300)}`).toBe(true);
  expect(r.body, what).toEqual({
    error_code: expect.stringMatching(/^ERR_[A-Z_]+$/), status_code: r.status, msg: expect.any(String),
    details: { operation_id: expect.stringMatching(/^op_[0-9A-Za-z]{27}$/) },
  });
}

/**
 * `count` bad requests per endpoint: each must be a 4xx envelope and leave `snapshot()` (the stored data, read
 * over HTTP) exactly as it was, checked after every request.
 */
export async function fuzzRejected(c: ApiClient, rng: Rng, endpoints: readonly FuzzEndpoint[], count: number, snapshot: () => Promise<unknown>): Promise<void> {
  const before = await snapshot();
  for (const ep of endpoints) {
    for (let i = 0; i < count; i++) {
      const req = badRequest(rng, ep);
      const what = `${ep.method} ${ep.path()} ${req.contentType} ${req.body.slice(0, 200)}`;
      const r = await c.raw(ep.method, ep.path(), { body: req.body, headers: { 'content-type': req.contentType } });
      expectClientError(r, what);
      expect(await snapshot(), what).toEqual(before);
    }
  }
}
