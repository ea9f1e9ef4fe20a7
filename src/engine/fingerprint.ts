// Fingerprints for saved plans and plan checksums. Live objects are fingerprinted by a plain SHA-256 of their
// normalized body (they are the account's data, not secrets). Secret values are fingerprinted with a KEYED
// hash: a plain or salted hash of a short secret can be reversed by guessing, so the key must be something an
// attacker holding the plan file does not have.
//
// Key choice (README, "Saved plans"): the key material is EDGEOPS_PLAN_KEY when set, else the run's API key
// (with --local, the embedded service's fixed key, which is no secret). From it:
// - the checksum key, the same for every run with that material, so that `apply --checksum` recomputes the
//   checksum `plan` printed;
// - a file key per saved plan, mixed with a random salt stored in the file (fingerprints of the same secret
//   in two files are unrelated), and checked on apply with a short key check stored in the file.
// With no key material at all (`plan --against` without an API key), a saved plan gets a random key stored in
// the file itself: that is only a salt, and the command says so.
import { createHash, createHmac, randomBytes } from 'node:crypto';
import { StalePlanError } from '../errors.ts';
import type { Json, Obj } from '../kinds/resource-kind.ts';
import { canonicalJson } from '../kinds/marker.ts';

type KeySource = 'plan-key' | 'api-key' | 'file';

/** What the run can key fingerprints with. */
export interface KeyMaterial {
  source: 'plan-key' | 'api-key';
  secret: string;
}

/** How a saved plan's secret fingerprints were keyed: stored in the file. Never holds the key material. */
export interface SavedKeyInfo {
  algorithm: 'hmac-sha256';
  source: KeySource;
  /** Random, per file (hex). */
  salt: string;
  /** Only for source `file`: the random key itself (so it protects nothing against guessing; see above). */
  file_key?: string;
  /** HMAC of a constant with the file key: tells "another API key" apart from "another secret" on apply. */
  key_check: string;
}

const hmac = (key: Buffer | string, data: string): Buffer => createHmac('sha256', key).update(data).digest();
const UNKEYED = Buffer.from('edgeops/unkeyed/v1');

/** The checksum key: deterministic per key material, so plan and `apply --checksum` agree. */
export function checksumKey(material: KeyMaterial | undefined): Buffer {
  return material ? hmac(material.secret, 'edgeops/plan-checksum/v1') : UNKEYED;
}

function keyCheck(key: Buffer): string {
  return hmac(key, 'edgeops/key-check/v1').toString('hex').slice(0, 16);
}

/** A fresh file key for `plan --out`. */
export function newFileKey(material: KeyMaterial | undefined): { key: Buffer; info: SavedKeyInfo } {
  const salt = randomBytes(16).toString('hex');
  if (!material) {
    const key = randomBytes(32);
    return { key, info: { algorithm: 'hmac-sha256', source: 'file', salt, file_key: key.toString('hex'), key_check: keyCheck(key) } };
  }
  const key = hmac(material.secret, `edgeops/saved-plan/v1/${salt}`);
  return { key, info: { algorithm: 'hmac-sha256', source: material.source, salt, key_check: keyCheck(key) } };
}

const SOURCE_NAME: Record<KeyMaterial['source'], string> = { 'plan-key': 'EDGEOPS_PLAN_KEY', 'api-key': 'the API key' };

/** The file key of a saved plan, from the run's key material; refuses when the material is not the plan's. */
export function savedFileKey(info: SavedKeyInfo, material: KeyMaterial | undefined): Buffer {
  if (info.source === 'file') return Buffer.from(info.file_key ?? '', 'hex');
  if (!material || material.source !== info.source) {
    throw new StalePlanError(
      `the saved plan's secret fingerprints are keyed with ${SOURCE_NAME[info.source]}, which this run does not have` +
        (info.source === 'plan-key' ? ': set EDGEOPS_PLAN_KEY as when the plan was made' : ''),
    );
  }
  const key = hmac(material.secret, `edgeops/saved-plan/v1/${info.salt}`);
  if (keyCheck(key) !== info.key_check) {
    throw new StalePlanError(`the saved plan was made with another ${info.source === 'api-key' ? 'API key' : 'EDGEOPS_PLAN_KEY'}: its secret fingerprints cannot be checked; make a new plan`);
  }
  return key;
}

/** The keyed fingerprint of one secret value of one resource's field. */
export function secretFingerprint(key: Buffer, address: string, field: string, value: Json): string {
  return `hmac-sha256:${hmac(key, `${address}\n${field}\n${canonicalJson(value)}`).toString('hex')}`;
}

export function sha256(text: string): string {
  return `sha256:${createHash('sha256').update(text).digest('hex')}`;
}

/** A live object's fingerprint: its normalized body (the raw metadata string, marker included, is part of it). */
export function liveFingerprint(normalized: Obj): string {
  return sha256(canonicalJson(normalized));
}
