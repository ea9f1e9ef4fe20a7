// Saved plans as pure data, over the fake kinds: what the file holds (no secret values), when a saved plan is
// stale (only changes to what it touches), secret fingerprints checked field by field, and the checksum.
import { describe, expect, it } from 'vitest';
import { checksumKey, newFileKey, savedFileKey } from '../../src/engine/fingerprint.ts';
import { fetchLive, liveState } from '../../src/engine/live.ts';
import { buildPlan } from '../../src/engine/plan.ts';
import { runAll } from '../../src/pace.ts';
import type { Plan } from '../../src/engine/plan-data.ts';
import { planChecksum, sameChecksum } from '../../src/engine/plan-meaning.ts';
import { buildSavedPlan, exposedSecretFields, parseSavedPlan, secretsOfKinds } from '../../src/engine/saved-plan.ts';
import type { SavedPlan } from '../../src/engine/saved-plan.ts';
import { checkSavedPlan } from '../../src/engine/saved-plan-check.ts';
import type { LiveState } from '../../src/engine/live.ts';
import { ConfigError, StalePlanError } from '../../src/errors.ts';
import type { DesiredResource } from '../../src/manifest/document.ts';
import { fakeWorld, marked, nullApi, ref, res, state } from './fakes.ts';

const KEY_VALUE = '-----BEGIN PRIVATE KEY-----\nMIIEvQIBADANBgkqhkiG9w0BAQEFAASCBKcwggSjAgEAAoIBAQC7\n-----END PRIVATE KEY-----';
const API_KEY = 'test-api-key-0123456789abcdef';
const material = { source: 'api-key' as const, secret: API_KEY };

type World = ReturnType<typeof fakeWorld>;

async function planOf(w: World, resources: DesiredResource[]): Promise<{ plan: Plan; live: LiveState }> {
  const live = await fetchLive(w.kinds, nullApi);
  return { plan: runAll(buildPlan({ kinds: w.kinds, desired: state(resources), live, stack: 's' })), live };
}

/** A managed edge and backend, and an unrelated unmanaged policy. */
function seeded(): { w: World; edgeId: string; backId: string } {
  const w = fakeWorld();
  const backId = w.store.seed('Back', 'bak_', { description: 'web', metadata: marked('s', 'Back/b') });
  const edgeId = w.store.seed('Edge', 'edg_', { description: 'old', hostports: ['h:1'], metadata: marked('s', 'Edge/e') });
  w.store.seed('Pol', 'pol_', { description: 'not ours' });
  return { w, edgeId, backId };
}

const manifests = (key = KEY_VALUE, edgeDescription = 'new'): DesiredResource[] => [
  res('Back/b', { description: 'web' }),
  res('Edge/e', { description: edgeDescription, hostports: ['h:1'] }),
  res('Cert/c', { pem: 'CERT', key }),
  res('Edge/tls', { hostports: ['h:2'], mtls: { enabled: true, cert_ids: [ref('Cert/c')] } }),
];

async function saveNow(w: World, resources = manifests()): Promise<{ saved: SavedPlan; text: string; plan: Plan; fileKey: Buffer }> {
  const { plan, live } = await planOf(w, resources);
  const { key, info } = newFileKey(material);
  const checksum = planChecksum(plan, secretsOfKinds(w.kinds), checksumKey(material));
  const saved = buildSavedPlan({ plan, live, kinds: w.kinds, paths: ['infra'], adopt: false, checksum, fileKey: key, keyInfo: info, version: '0.0.0' });
  const text = JSON.stringify(saved);
  return { saved: parseSavedPlan(text, 'plan.json'), text, plan, fileKey: key };
}

describe('a saved plan', () => {
  it('holds the actions, the touched objects and the creates, but no secret value and no key', async () => {
    const { w, edgeId } = seeded();
    const { saved, text, plan } = await saveNow(w);
    expect(saved.plan.actions.map((a) => a.id).sort()).toEqual(plan.actions.map((a) => a.id).sort());
    expect(saved.touched).toEqual([{ address: 'Edge/e', kind: 'Edge', id: edgeId, fingerprint: expect.stringMatching(/^sha256:[0-9a-f]{64}$/) }]);
    expect(saved.absent.map((a) => a.address).sort()).toEqual(['Cert/c', 'Edge/tls']);
    expect(text).not.toContain('MIIEvQIBADANBgkqhkiG9w0BAQEFAASCBKcwggSjAgEAAoIBAQC7');
    expect(text).not.toContain(API_KEY);
    const cert = saved.plan.actions.find((a) => a.id === 'create:Cert/c')!;
    expect(cert.body!.key).toEqual({ $secret: expect.stringMatching(/^hmac-sha256:[0-9a-f]{64}$/) });
    expect(cert.body!.pem).toBe('CERT');
  });

  it('holds only fingerprints in its secret fields, never the key, however short (the check before writing)', async () => {
    const { w } = seeded();
    const { saved } = await saveNow(w);
    const secretsOf = secretsOfKinds(w.kinds);
    expect(exposedSecretFields(saved.plan, secretsOf, API_KEY)).toEqual([]);
    // A short key is looked for in the secret fields, not in the text where "dev" may be an ordinary word.
    expect(exposedSecretFields(saved.plan, secretsOf, 'dev')).toEqual([]);
    const leaked = { ...saved.plan, actions: saved.plan.actions.map((a) => (a.kind === 'Cert' ? { ...a, body: { ...a.body, key: 'dev' } } : a)) };
    expect(exposedSecretFields(leaked, secretsOf, 'dev')).toEqual(['Cert/c key']);
    const inFingerprint = { ...saved.plan, actions: saved.plan.actions.map((a) => (a.kind === 'Cert' ? { ...a, body: { ...a.body, key: { $secret: 'dev' } } } : a)) };
    expect(exposedSecretFields(inFingerprint, secretsOf, 'dev')).toEqual(['Cert/c key']);
  });

  it('is applied as saved when only unrelated objects changed, with its secret values put back', async () => {
    const { w, backId } = seeded();
    const { saved, plan, fileKey } = await saveNow(w);
    w.store.seed('Pol', 'pol_', { description: 'someone else' });
    w.store.table('Back').get(backId)!.description = 'edited by hand';
    const fresh = await planOf(w, manifests());
    expect(fresh.plan.actions.map((a) => a.id)).toContain('update:Back/b');
    const checked = checkSavedPlan(saved, fresh, w.kinds, fileKey);
    expect(checked.actions.map((a) => a.id)).toEqual(saved.plan.actions.map((a) => a.id));
    expect(checked.actions.find((a) => a.id === 'create:Cert/c')!.body!.key).toBe(KEY_VALUE);
    expect(checked.actions).toEqual(plan.actions);
  });

  it('is stale, naming the object, when an object it touches changed or was deleted', async () => {
    const { w, edgeId } = seeded();
    const { saved, fileKey } = await saveNow(w);
    w.store.table('Edge').get(edgeId)!.hostports = ['h:9'];
    const changed = await planOf(w, manifests());
    expect(() => checkSavedPlan(saved, changed, w.kinds, fileKey)).toThrow(StalePlanError);
    expect(() => checkSavedPlan(saved, changed, w.kinds, fileKey)).toThrow(`Edge/e (${edgeId}) changed`);
    w.store.table('Edge').delete(edgeId);
    expect(() => checkSavedPlan(saved, { plan: changed.plan, live: liveState(w.kinds, new Map()) }, w.kinds, fileKey)).toThrow(`Edge/e (${edgeId}) was deleted`);
  });

  it('is stale when something now carries the identity of one of its creates', async () => {
    const { w } = seeded();
    const { saved, fileKey } = await saveNow(w);
    const made = w.store.seed('Cert', 'crt_', { pem: 'CERT', metadata: marked('s', 'Cert/c') });
    const fresh = await planOf(w, manifests());
    expect(() => checkSavedPlan(saved, fresh, w.kinds, fileKey)).toThrow(`Cert/c now exists (${made})`);
  });

  it('refuses, naming the field, when the manifests give another secret value', async () => {
    const { w } = seeded();
    const { saved, fileKey } = await saveNow(w);
    const fresh = await planOf(w, manifests(`${KEY_VALUE}x`));
    expect(() => checkSavedPlan(saved, fresh, w.kinds, fileKey)).toThrow(/secret values do not match[\s\S]*Cert\/c: key/);
  });

  it('refuses when the manifests changed what it does to a touched resource', async () => {
    const { w } = seeded();
    const { saved, fileKey } = await saveNow(w);
    const fresh = await planOf(w, manifests(KEY_VALUE, 'newer'));
    expect(() => checkSavedPlan(saved, fresh, w.kinds, fileKey)).toThrow(/no longer matches[\s\S]*Edge\/e/);
  });

  it('refuses a tampered action (it no longer means what a fresh plan means)', async () => {
    const { w } = seeded();
    const { saved, fileKey } = await saveNow(w);
    const update = saved.plan.actions.find((a) => a.id === 'update:Edge/e')!;
    update.body = { description: 'evil' };
    const fresh = await planOf(w, manifests());
    expect(() => checkSavedPlan(saved, fresh, w.kinds, fileKey)).toThrow(/no longer matches[\s\S]*Edge\/e/);
  });

  it('needs the key material it was made with', async () => {
    const { w } = seeded();
    const { saved } = await saveNow(w);
    expect(savedFileKey(saved.secret_fingerprints, material)).toBeInstanceOf(Buffer);
    expect(() => savedFileKey(saved.secret_fingerprints, { source: 'api-key', secret: 'another-key' })).toThrow(/another API key/);
    expect(() => savedFileKey(saved.secret_fingerprints, undefined)).toThrow(/keyed with the API key/);
  });

  it('is rejected when the file is not a saved plan of this version', () => {
    expect(() => parseSavedPlan('{', 'p.json')).toThrow(ConfigError);
    expect(() => parseSavedPlan('{"format":"edgeops-saved-plan","format_version":2}', 'p.json')).toThrow(/format_version 2 is not supported/);
    expect(() => parseSavedPlan('{"format":"edgeops-saved-plan","format_version":1,"stack":"s"}', 'p.json')).toThrow(/not a valid saved plan/);
  });
});

describe('the plan checksum', () => {
  it('is stable across plans of the same meaning and changes with any change, secret values included', async () => {
    const { w } = seeded();
    const key = checksumKey(material);
    const sum = async (resources: DesiredResource[], k = key) => planChecksum((await planOf(w, resources)).plan, secretsOfKinds(w.kinds), k);
    const base = await sum(manifests());
    expect(await sum(manifests())).toBe(base);
    expect(await sum([...manifests()].reverse())).toBe(base);
    expect(base).toMatch(/^sha256:[0-9a-f]{64}$/);
    expect(await sum(manifests(KEY_VALUE, 'other'))).not.toBe(base);
    expect(await sum(manifests(`${KEY_VALUE}x`))).not.toBe(base);
    // Keyed: another API key gives another checksum for the same secret, so the checksum reveals nothing guessable.
    expect(await sum(manifests(), checksumKey({ source: 'api-key', secret: 'other' }))).not.toBe(base);
  });

  it('is compared with or without its sha256: prefix, in any case', () => {
    expect(sameChecksum('SHA256:ABCD', 'sha256:abcd')).toBe(true);
    expect(sameChecksum('abcd', 'sha256:abcd')).toBe(true);
    expect(sameChecksum('sha256:abce', 'sha256:abcd')).toBe(false);
  });
});
