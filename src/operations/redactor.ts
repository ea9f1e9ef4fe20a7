// Once the manifests are read, their secret values join the API keys in a run's redactor: the CLI's and the
// GitHub Action's outputs pass through it, so a private key or an API key never prints.
import { kindByName } from '../kinds/index.ts';
import type { DesiredState } from '../manifest/document.ts';
import { createRedactor, secretValues, type Redactor } from '../render/redact.ts';

export function redactorFor(desired: DesiredState, apiKeys: readonly string[]): Redactor {
  return createRedactor([...secretValues(desired, (kind) => kindByName(kind)?.secrets ?? []), ...apiKeys]);
}
