// Natural keys for adoption (`plan/apply --adopt`): what an existing resource without a marker is recognised
// by. Keys are readable strings, because they also name the match in the plan (`adopt: hostport ...`).
// A key must identify one resource: a kind with a strong key (a hostport, a rule's policy and CIDR, a route's
// edge and match, a certificate's PEM) uses only that, since a weaker match (a shared description) could
// adopt the wrong resource and then replace (delete) it.
import { createHash } from 'node:crypto';
import { hostportKey } from '../contract/values.ts';
import { isObj } from './normalize.ts';
import type { Json, Obj } from './resource-kind.ts';

const str = (v: Json | undefined): string | undefined => (typeof v === 'string' && v !== '' ? v : undefined);

/**
 * The same slug as export's generated names (src/export/names.ts), so that a resource exported with `--all`
 * and named from its description is adopted by that name. Kept here: kinds do not import the exporter.
 */
function nameSlug(text: string): string {
  return text
    .normalize('NFKD')
    .replace(/\p{M}/gu, '')
    .toLowerCase()
    .replace(/[^a-z0-9]+/g, '-')
    .replace(/^-+|-+$/g, '')
    .slice(0, 64)
    .replace(/-+$/, '');
}

/**
 * One key per hostport: an edge is the one that serves its hostports (the service allows no sharing). Keyed as
 * the service claims them (contract hostportKey), so `WWW.example.com:443` adopts the edge serving `www.example.com:443`.
 */
export function hostportKeys(body: Obj): string[] {
  return Array.isArray(body.hostports) ? body.hostports.filter((h): h is string => typeof h === 'string').map((h) => `hostport ${hostportKey(h)}`) : [];
}

/**
 * For kinds with no stronger identity: the description (the same text on both sides), and the document's
 * name against the description's slug (a live "Web tier" is the document named `web-tier`).
 */
export function describedKeys(body: Obj, name: string | undefined): string[] {
  const description = str(body.description);
  const keys = description ? [`description ${JSON.stringify(description)}`] : [];
  const nameKey = name ?? (description ? nameSlug(description) : '');
  if (nameKey !== '') keys.push(`name ${nameKey}`);
  return keys;
}

/** Tunnel-group labels select the tunnels a backend serves: the same non-empty labels are the same backend. */
export function labelKeys(body: Obj): string[] {
  if (!isObj(body.labels) || Object.keys(body.labels).length === 0) return [];
  const sorted = Object.fromEntries(Object.entries(body.labels).sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0)));
  return [`labels ${JSON.stringify(sorted)}`];
}

/** A PEM (already normalized by the kind) by its SHA-256, short enough to read in a plan. */
export function pemKeys(label: string, pem: Json | undefined): string[] {
  const text = str(pem);
  return text ? [`${label} sha256:${createHash('sha256').update(text).digest('hex').slice(0, 16)}`] : [];
}

/**
 * A key made of several fields, only when each is a literal string: a reference to a resource this plan
 * creates is a PendingRef, and nothing live can match it yet.
 */
export function fieldsKey(label: string, body: Obj, fields: readonly string[]): string[] {
  const values = fields.map((f) => body[f]);
  if (!values.every((v) => typeof v === 'string' && v !== '')) return [];
  return [`${label} ${values.join(' ')}`];
}
