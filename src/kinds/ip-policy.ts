// IP policy (/ip_policies): a named container for IP policy rules; description and metadata only.
import { describedKeys } from './adopt-keys.ts';
import { markerKind } from './marker-kind.ts';

export const ipPolicy = markerKind({
  kind: 'IPPolicy',
  idPrefix: 'ipp_',
  path: '/ip_policies',
  listKey: 'ip_policies',
  fields: ['description', 'metadata'],
  adoptKeys: describedKeys,
});
