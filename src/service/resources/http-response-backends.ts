// /backends/http_response: a fixed response. Header names are lower-cased on the way in (and names equal
// ignoring case refused); `headers` reads back null when there are none; status_code defaults to 200.
import { defineCollection } from '../collection.ts';
import { baseFields, describedFields, type KindDef } from '../resource-def.ts';
import { description, headerMap, integer, metadata, parseBody, string } from '../validate.ts';

export interface HttpResponseBackendDoc {
  description?: string;
  metadata?: string;
  body: string;
  headers: Record<string, string>;
  status_code: number;
}

export const httpResponseBackendKind: KindDef = {
  kind: 'http_response_backend',
  prefix: 'bkdhr',
  label: 'HTTP response backend',
  path: '/backends/http_response',
  notFound: 'ERR_HTTP_RESPONSE_BACKEND_NOT_FOUND',
};

const fields = {
  description,
  metadata,
  body: string(),
  headers: headerMap(),
  status_code: integer(100, 599, 'ERR_STATUS_CODE_INVALID'),
};

export default defineCollection<HttpResponseBackendDoc>({
  kind: httpResponseBackendKind,
  listKey: 'backends',
  create: (body) => ({ body: '', headers: {}, status_code: 200, ...parseBody(body, fields) }),
  update: (body, current) => ({ ...current.data, ...parseBody(body, fields) }),
  render: (doc, ctx) => ({
    ...baseFields(ctx, doc),
    ...describedFields(doc.data),
    body: doc.data.body,
    headers: Object.keys(doc.data.headers).length > 0 ? doc.data.headers : null,
    status_code: doc.data.status_code,
  }),
});
