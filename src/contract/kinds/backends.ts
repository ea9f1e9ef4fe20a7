// Backends, the targets of edge and route `backend` modules: a tunnel group (selected by labels; this service
// runs no tunnels) and a fixed HTTP response. Header names are HTTP tokens, unique ignoring case.
import type { ContractKind } from '../kind.ts';
import { description, metadata, object } from '../schema.ts';

declare module '../kind.ts' {
  interface KindNames {
    tunnel_group_backend: true;
    http_response_backend: true;
  }
}

const common = { description, metadata };

const tunnelGroupFields = object({
  ...common,
  labels: {
    type: 'object', additionalProperties: { type: 'string' }, mapKeys: 'nonempty',
    description: 'Labels a tunnel must carry to serve this backend; replaced whole when sent.',
  },
});

export const tunnelGroupBackend: ContractKind = {
  kind: 'tunnel_group_backend',
  prefix: 'bkdtg',
  label: 'tunnel group backend',
  path: '/backends/tunnel_group',
  listKey: 'backends',
  create: tunnelGroupFields,
  update: tunnelGroupFields,
  immutable: [],
  modules: [],
  refs: [],
  checks: [],
  echoedIds: ['id'],
};

const httpResponseFields = object({
  ...common,
  body: { type: 'string', description: 'The response body.' },
  headers: {
    type: 'object', additionalProperties: { type: 'string', rule: 'header_value' }, mapKeys: 'header_name',
    description: 'Response headers; names are HTTP tokens, stored lower-cased, unique ignoring case.',
  },
  status_code: { type: 'integer', minimum: 100, maximum: 599, errorCode: 'ERR_STATUS_CODE_INVALID', description: '200 when left out.' },
});

export const httpResponseBackend: ContractKind = {
  kind: 'http_response_backend',
  prefix: 'bkdhr',
  label: 'HTTP response backend',
  path: '/backends/http_response',
  listKey: 'backends',
  create: httpResponseFields,
  update: httpResponseFields,
  immutable: [],
  modules: [],
  refs: [],
  checks: [],
  echoedIds: ['id'],
};
