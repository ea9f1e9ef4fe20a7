// The render operation: a stack's documents as its environment resolves them (bases, Patches, variables and
// templates applied), as plain documents, each with the files it was made of. No request is made, nothing is
// written; a secret written inline shows as `(sensitive)` (a `{file}` or `{env}` reference stays as written).
import { relative } from 'node:path';
import { ManifestError, NoManifestsError, positionText } from '../errors.ts';
import { KINDS } from '../kinds/index.ts';
import type { Obj } from '../kinds/resource-kind.ts';
import { isObj } from '../contract/json.ts';
import type { ManifestDoc } from '../manifest/document.ts';
import { refuseBases } from '../manifest/environment/base-users.ts';
import { environmentInputs } from '../manifest/environment/inputs.ts';
import { assertPathsExist } from '../manifest/missing-paths.ts';
import { loadManifests, sortIssues } from '../manifest/read-desired.ts';
import type { RenderedStack } from '../render/rendered.ts';

export type { RenderedDoc, RenderedStack } from '../render/rendered.ts';

export const SENSITIVE = '(sensitive)';

const secretsOf = new Map(KINDS.map((k) => [k.kind, new Set(k.secrets)]));

/** The fields with each inline secret replaced by SENSITIVE. */
function withoutSecrets(doc: ManifestDoc): Obj {
  const secrets = secretsOf.get(doc.kind);
  const fields: Obj = {};
  for (const [key, value] of Object.entries(doc.fields)) fields[key] = secrets?.has(key) && !isObj(value) && value !== null ? SENSITIVE : value;
  return { kind: doc.kind, name: doc.name, ...fields };
}

/** The stack at `path`, resolved; a ManifestError with every problem of its resolution otherwise. */
export function renderStack(path: string, cwd: string): RenderedStack {
  assertPathsExist([path], cwd);
  refuseBases([path], cwd, 'render');
  const loaded = loadManifests([path], { cwd });
  if (loaded.issues.length > 0) throw new ManifestError(sortIssues(loaded.issues));
  if (loaded.docs.length === 0) throw new NoManifestsError(`no manifests: ${path} yields no document, so there is nothing to render`);
  const docs = loaded.docs.map((doc) => ({ address: `${doc.kind}/${doc.name}`, document: withoutSecrets(doc), sources: doc.sources ?? [positionText(doc.pos)] }));
  const inputs = environmentInputs(path, cwd).map((file) => relative(cwd, file));
  return { path, inputs, ...(loaded.config.stack ? { stack: loaded.config.stack } : {}), ...(loaded.config.environment ? { environment: loaded.config.environment } : {}), docs };
}
