// /backends/http_response: a fixed response. Header names are lower-cased on the way in (the contract refuses
// names equal ignoring case); `headers` reads back null when there are none; status_code defaults to 200.
import { httpResponseBackend } from '../../contract/kinds/backends.ts';
import { defineCollection } from '../collection.ts';
import { baseFields, describedFields } from '../resource-def.ts';
import type { JsonObject } from '../json-values.ts';
import { lowerCaseNames } from '../modules/route-response-headers.ts';

interface HttpResponseBackendDoc {
  description?: string;
  metadata?: string;
  body: string;
  headers: Record<string, string>;
  status_code: number;
}

function withHeaders(body: JsonObject): Partial<HttpResponseBackendDoc> {
  return body.headers === undefined ? body : { ...body, headers: lowerCaseNames(body.headers) };
}

export default defineCollection<HttpResponseBackendDoc>({
  kind: httpResponseBackend,
  create: (body) => ({ body: '', headers: {}, status_code: 200, ...withHeaders(body) }),
  update: (body, current) => ({ ...current.data, ...withHeaders(body) }),
  render: (doc, ctx) => ({
    ...baseFields(ctx, doc),
    ...describedFields(doc.data),
    body: doc.data.body,
    headers: Object.keys(doc.data.headers).length > 0 ? doc.data.headers : null,
    status_code: doc.data.status_code,
  }),
});
