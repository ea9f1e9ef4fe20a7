// IP policy (/ip_policies): a named container for IP policy rules; description and metadata only.
import { describedKeys } from './adopt-keys.ts';
import { ipPolicy as contract } from '../contract/kinds/policies.ts';
import { markerKind } from './marker-kind.ts';

export const ipPolicy = markerKind({
  kind: 'IPPolicy',
  contract,
  fields: ['description', 'metadata'],
  adoptKeys: describedKeys,
});
