// Saved plans and checksums: a plan's checksum under the run's key material, writing `plan --out FILE` (checked
// to hold no secret before a byte is written), and reading `apply --plan FILE`.
import { readFileSync, writeFileSync } from 'node:fs';
import { EdgeopsError } from '../errors.ts';
import { checksumKey, newFileKey } from '../engine/fingerprint.ts';
import type { KeyMaterial } from '../engine/fingerprint.ts';

export type { KeyMaterial } from '../engine/fingerprint.ts';
import { planChecksum } from '../engine/plan-meaning.ts';
import type { Plan } from '../engine/plan-data.ts';
import { buildSavedPlan, exposedSecretFields, parseSavedPlan, secretsOfKinds } from '../engine/saved-plan.ts';
import { redactedWhole, type Redactor } from '../render/redact.ts';
import type { SavedPlan } from '../engine/saved-plan.ts';
import { ConfigError } from '../errors.ts';
import { edgeopsVersion } from '../version.ts';
import { KINDS } from '../kinds/index.ts';
import type { LiveState } from '../pipeline.ts';
import { deleteStatusLine } from '../engine/safety.ts';
import type { ProjectConfig } from '../manifest/document.ts';
import type { PlanFooter } from '../render/view.ts';
import { applyArgsOf } from '../render/wording.ts';
import { blockingResults } from '../policy/results.ts';

export function checksumOf(plan: Plan, material: KeyMaterial | undefined): string {
  return planChecksum(plan, secretsOfKinds(KINDS), checksumKey(material));
}

/**
 * The lines under a plan: its deletes against the limits, and the checksum that approves it, with the apply
 * command for the manifest `paths` the plan was made from. A plan with errors cannot be applied, and an empty
 * one needs no approval: neither gets a checksum.
 */
export function planFooter(plan: Plan, limits: ProjectConfig, checksum: string, paths?: readonly string[]): PlanFooter {
  const footer: PlanFooter = { deletes: deleteStatusLine(plan, limits) };
  // Nor does a plan a policy denies: apply would refuse it.
  if (plan.actions.length > 0 && !plan.errors && blockingResults(plan.policy?.results).length === 0) footer.checksum = checksum;
  if (paths) footer.applyArgs = applyArgsOf(plan, paths);
  return footer;
}

interface WriteInput {
  file: string;
  plan: Plan;
  live: LiveState;
  paths: string[];
  adopt: boolean;
  checksum: string;
  material: KeyMaterial | undefined;
  /** The edgeops.yaml of the run: the file records its delete limits. */
  config: ProjectConfig;
}

/** Writes the saved plan; returns a note for the user when the file's secret fingerprints are only salted. */
export function writeSavedPlan(redact: Redactor, input: WriteInput): string | undefined {
  const { key, info } = newFileKey(input.material);
  const saved = buildSavedPlan({ ...input, kinds: KINDS, fileKey: key, keyInfo: info, version: edgeopsVersion() });
  const text = `${JSON.stringify(saved, null, 2)}\n`;
  // Defence in depth: the sanitizer is the guarantee, this is the proof before anything reaches the disk. The
  // text is checked by the redactor's rule (a key too short for it, "dev", is an ordinary word in the text);
  // the secret fields are checked for any key, however short.
  const apiKey = input.material?.secret;
  const keyInText = apiKey !== undefined && redactedWhole(apiKey) && text.includes(apiKey);
  if (redact(text) !== text || keyInText || exposedSecretFields(saved.plan, secretsOfKinds(KINDS), apiKey).length > 0) {
    throw new EdgeopsError('E_SECRET_IN_PLAN', `refusing to write ${input.file}: it would hold a secret value (an edgeops bug; please report it)`);
  }
  writeFileSync(input.file, text);
  const hasSecrets = saved.plan.actions.some((a) => JSON.stringify([a.body, a.desired]).includes('"$secret"'));
  if (info.source === 'file' && hasSecrets) {
    return 'no API key (or EDGEOPS_PLAN_KEY) was available to key the secret fingerprints, so they are only salted: a short, guessable secret could be recovered from the file';
  }
  return undefined;
}

export function readSavedPlan(file: string): SavedPlan {
  let text: string;
  try {
    text = readFileSync(file, 'utf8');
  } catch (err) {
    throw new ConfigError(`cannot read the saved plan ${file}: ${(err as NodeJS.ErrnoException).code ?? String(err)}`);
  }
  return parseSavedPlan(text, file);
}
