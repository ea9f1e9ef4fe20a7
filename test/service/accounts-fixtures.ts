// Shared by the account isolation tests (accounts.test.ts, fuzz-accounts.test.ts): the API's routes as the
// service declares them (RESOURCES, never a hand-written list), one account's data of every kind with every
// module, and the differential check at their heart: a request of account B that names account A's ids must be
// answered exactly as the same request naming random ids that do not exist, and must not hold any of A's data.
import { randomBytes } from 'node:crypto';
import { expect } from 'vitest';
import { eventSubscription } from '../../src/contract/kinds/event-subscriptions.ts';
import type { KindDef, Method } from '../../src/service/resource-def.ts';
import { RESOURCES } from '../../src/service/routes.ts';
import { newId } from '../../src/service/ids.ts';
import { makeCa, makeCert } from '../helpers/certs.ts';
import type { ApiClient, ApiResponse } from '../helpers/service.ts';

export const KINDS: readonly KindDef[] = RESOURCES.flatMap((r) => r.kinds);
/**
 * The routes of the kinds, where requests name ids. GET /hostports/availability names no id and answers about
 * every account by design (where a hostport is held, never by what): test/e2e/hostports-across-accounts.test.ts.
 */
export const ROUTES: readonly { method: Method; path: string }[] = RESOURCES.filter((r) => r.kinds.length > 0).flatMap((r) => r.routes.map(({ method, path }) => ({ method, path })));
/** Every path template of the API, once. */
export const PATHS: readonly string[] = [...new Set(ROUTES.map((r) => r.path))];
export const METHODS: readonly Method[] = ['GET', 'POST', 'PATCH', 'PUT', 'DELETE'];
export const BODY_METHODS: ReadonlySet<Method> = new Set(['POST', 'PATCH', 'PUT']);
const SOURCES_PATH = eventSubscription.subresources!.sources!.path;

const shape = (path: string): string => path.replace(/:[a-z_]+/g, ':');
export const kindByName = (name: string): KindDef => KINDS.find((k) => k.kind === name)!;

/** A fresh key, never configured anywhere else. */
export const newKey = (tag: string): string => `${tag}-key-${randomBytes(16).toString('hex')}`;

/** A well-formed id of `prefix` that no account has: what "does not exist" answers to. */
export function randomId(prefix: string): string {
  return newId(prefix);
}

export const prefixOf = (id: string): string => id.slice(0, id.indexOf('_'));

export interface Param {
  name: string;
  /** The kind whose ids the parameter holds: the kind whose path is the route's path before it. */
  kind?: KindDef;
}

/** The parameters of a path template, each with the kind it names (`:type` of event sources names none). */
export function paramsOf(path: string): Param[] {
  const segments = path.split('/').slice(1);
  const out: Param[] = [];
  segments.forEach((seg, i) => {
    if (!seg.startsWith(':')) return;
    const before = `/${segments.slice(0, i).join('/')}`;
    const kind = KINDS.find((k) => shape(k.path) === shape(before));
    if (!kind && seg !== ':type') throw new Error(`no kind for parameter ${seg} of ${path}`);
    out.push({ name: seg.slice(1), kind });
  });
  return out;
}

/** The path with each parameter's value. */
export function fill(path: string, values: Record<string, string>): string {
  return path.replace(/:([a-z_]+)/g, (_m, name: string) => {
    const v = values[name];
    if (v === undefined) throw new Error(`no value for :${name} of ${path}`);
    return encodeURIComponent(v);
  });
}

/** What a route does, from its path: a collection, an item, a module of an item, or event sources. */
export type RouteRole =
  | { role: 'collection'; kind: KindDef }
  | { role: 'item'; kind: KindDef }
  | { role: 'module'; kind: KindDef; module: string }
  | { role: 'sources' }
  | { role: 'source' };

export function roleOf(path: string): RouteRole {
  if (shape(path) === shape(SOURCES_PATH)) return { role: 'sources' };
  if (shape(path) === shape(`${SOURCES_PATH}/:type`)) return { role: 'source' };
  for (const kind of KINDS) {
    if (shape(path) === shape(kind.path)) return { role: 'collection', kind };
    if (shape(path) === shape(`${kind.path}/:id`)) return { role: 'item', kind };
    for (const m of kind.modules) if (shape(path) === shape(`${kind.path}/:id/${m.name}`)) return { role: 'module', kind, module: m.name };
  }
  throw new Error(`a route the account tests do not know: ${path}`);
}

// --- one account's data ----------------------------------------------------------------------------------

export interface Pems {
  certificate_pem: string;
  private_key_pem: string;
  ca_pem: string;
  /** Names inside the certificates, which the service returns as derived fields. */
  names: string[];
}

export async function makePems(tag: string): Promise<Pems> {
  const cn = `${tag}-leaf.example.com`;
  const leaf = await makeCert({ commonName: cn, dnsNames: [cn], subject: { organization: `${tag} org` } });
  const ca = await makeCa({ commonName: `${tag} clients CA`, subject: { organization: `${tag} ca org` } });
  return { certificate_pem: leaf.chainPem, private_key_pem: leaf.keyPem, ca_pem: ca.certPem, names: [cn, `${tag} org`, `${tag} clients CA`, `${tag} ca org`] };
}

type Ids = Record<string, string>;

/** The texts a body carries (descriptions, metadata, labels...), each unique to the account and the call. */
export type Texts = (what: string) => string;

/**
 * A create body of every kind, with every module of the kind set, referencing `ids` (kind name -> id).
 * `hostports` only where given: probes leave them out, so a probe can only fail for the reason it tests.
 */
export function createBody(kindName: string, ids: Ids, tag: string, pems: Pems, text: Texts, hostports?: string[]): Record<string, unknown> {
  const described = { description: text('description'), metadata: text('metadata') };
  const hp = hostports ? { hostports } : {};
  const tcpPolicy = { enabled: true, value: `on_tcp_connect:\n  - name: ${tag}-tcp-rule\n    actions:\n      - type: deny\n` };
  const httpPolicy = { enabled: true, value: `on_http_request:\n  - name: ${tag}-http-rule\n    actions:\n      - type: deny\n` };
  const policy = { enabled: true, inbound: [{ name: `${tag}-inbound`, expressions: ['true'], actions: [{ type: 'deny', config: { note: text('policy-config') } }] }], outbound: [] };
  const bodies: Record<string, () => Record<string, unknown>> = {
    ip_policy: () => described,
    ip_policy_rule: () => ({ ...described, cidr: '10.1.0.0/16', ip_policy_id: ids.ip_policy, action: 'allow' }),
    tunnel_group_backend: () => ({ ...described, labels: { owner: text('label') } }),
    http_response_backend: () => ({ ...described, body: text('response-body'), headers: { 'x-owner': text('header') }, status_code: 203 }),
    tls_certificate: () => ({ ...described, certificate_pem: pems.certificate_pem, private_key_pem: pems.private_key_pem }),
    certificate_authority: () => ({ ...described, ca_pem: pems.ca_pem }),
    event_subscription: () => ({ ...described, sources: [{ type: `${tag}_created.v0` }, { type: `${tag}_updated.v0` }] }),
    tcp_edge: () => ({
      ...described, ...hp,
      backend: { enabled: true, backend_id: ids.tunnel_group_backend },
      ip_restriction: { enabled: true, ip_policy_ids: [ids.ip_policy] },
      policy,
      traffic_policy: tcpPolicy,
    }),
    tls_edge: () => ({
      ...described, ...hp,
      backend: { enabled: true, backend_id: ids.tunnel_group_backend },
      ip_restriction: { ip_policy_ids: [ids.ip_policy] },
      mutual_tls: { certificate_authority_ids: [ids.certificate_authority] },
      tls_termination: { terminate_at: 'edge', min_version: '1.2' },
      policy,
      traffic_policy: tcpPolicy,
    }),
    https_edge: () => ({
      ...described, ...hp,
      mutual_tls: { enabled: true, certificate_authority_ids: [ids.certificate_authority] },
      tls_termination: { min_version: '1.3' },
    }),
    https_edge_route: () => ({
      ...described,
      match_type: 'path_prefix',
      match: `/${tag}-path`,
      backend: { backend_id: ids.http_response_backend },
      ip_restriction: { ip_policy_ids: [ids.ip_policy] },
      response_headers: { add: { 'x-team': text('route-header') }, remove: ['server'] },
      traffic_policy: httpPolicy,
    }),
  };
  const make = bodies[kindName];
  if (!make) throw new Error(`no create body for kind ${kindName}`);
  return make();
}

/** A valid PATCH body: the create body without the kind's create-only fields. */
export function patchBody(kind: KindDef, ids: Ids, tag: string, pems: Pems, text: Texts): Record<string, unknown> {
  const body = createBody(kind.kind, ids, tag, pems, text);
  for (const key of kind.immutable) delete body[key];
  return body;
}

export interface Account {
  name: string;
  key: string;
  tag: string;
  c: ApiClient;
  pems: Pems;
  /** Kind name -> id of the account's live document of that kind. */
  ids: Ids;
  /** Kind name -> id of a document of that kind the account created and deleted (a tombstone). */
  gone: Ids;
  /** Its event subscription's source types. */
  types: string[];
  hostports: Record<string, string[]>;
  /** Every text of its data another account must never see: ids, texts, hostports, certificate names. */
  secrets: string[];
  /** Texts unique to this account. */
  text: Texts;
}

function ok(r: ApiResponse, status: number, what: string): Record<string, unknown> {
  expect(r.status, `${what}: ${r.text.slice(0, 500)}`).toBe(status);
  return r.body as Record<string, unknown>;
}

/** Creates one document of every kind (each module set, route headers, event sources) and one deleted of each. */
export async function populate(c: ApiClient, name: string, key: string, tag: string, port: number): Promise<Account> {
  const pems = await makePems(tag);
  const secrets: string[] = [...pems.names];
  const text: Texts = (what) => {
    const t = `${tag}-${what}-${randomBytes(9).toString('hex')}`;
    secrets.push(t);
    return t;
  };
  const ids: Ids = {};
  const gone: Ids = {};
  const hostports: Record<string, string[]> = {
    tcp_edge: [`${tag}-tcp.example.com:${port}`, `${tag}-tcp2.example.com:${port + 1}`],
    tls_edge: [`${tag}-tls.example.com:443`],
    https_edge: [`${tag}-www.example.com:443`, `${tag}-shop.example.com:8443`],
  };
  secrets.push(...Object.values(hostports).flat().map((h) => h.split(':')[0]!));
  const collection = (kind: KindDef, parent?: string) => kind.path.replace(':edge_id', parent ?? '');
  const create = async (kind: KindDef, withHostports: boolean) => {
    const body = createBody(kind.kind, ids, tag, pems, text, withHostports ? hostports[kind.kind] : undefined);
    return ok(await c.post(collection(kind, ids.https_edge), body), 201, `create ${kind.kind} of ${name}`).id as string;
  };
  // In an order that has every referenced document first; the route last (its edge first).
  const order = [...KINDS].sort((a, b) => rank(a) - rank(b));
  for (const kind of order) ids[kind.kind] = await create(kind, true);
  // A deleted document of every kind: its id stays a valid before_id of its list, for its account only.
  for (const kind of order) gone[kind.kind] = await create(kind, false);
  for (const kind of [...order].reverse()) {
    const r = await c.del(`${collection(kind, ids.https_edge)}/${gone[kind.kind]}`);
    expect(r.status, `delete ${kind.kind} of ${name}: ${r.text}`).toBe(204);
  }
  const types = [`${tag}_created.v0`, `${tag}_updated.v0`];
  ok(await c.post(`/event_subscriptions/${ids.event_subscription}/sources`, { type: `${tag}_deleted.v0` }), 201, 'add a source');
  types.push(`${tag}_deleted.v0`);
  secrets.push(...types, ...Object.values(ids), ...Object.values(gone));
  return { name, key, tag, c, pems, ids, gone, types, hostports, secrets, text };
}

/** Referenced kinds before referencing ones; routes after their edges. */
function rank(kind: KindDef): number {
  if (kind.parent) return 3;
  if (kind.modules.length > 0) return 2;
  if (kind.refs.length > 0) return 1;
  return 0;
}

// --- what an account sees ----------------------------------------------------------------------------------

/** Values for every parameter of `path` from the account's own documents. */
export function ownParams(path: string, acct: Account): Record<string, string> {
  const out: Record<string, string> = {};
  for (const p of paramsOf(path)) {
    if (p.kind) out[p.name] = acct.ids[p.kind.kind]!;
    else out[p.name] = acct.types[0]!;
  }
  return out;
}

/**
 * Every GET of the API on the account's own documents, as raw bytes (operation ids masked), and every list
 * walked one item per page: the account's whole state as a client can see it.
 */
export async function snapshot(acct: Account): Promise<Record<string, string>> {
  const out: Record<string, string> = {};
  const mask = (text: string) => text.replace(/op_[0-9A-Za-z]{27}/g, 'op_X');
  for (const route of ROUTES.filter((r) => r.method === 'GET')) {
    const path = fill(route.path, ownParams(route.path, acct));
    const r = await acct.c.get(path);
    out[path] = `${r.status} ${mask(r.text)}`;
    const role = roleOf(route.path);
    if (role.role === 'collection') {
      let next: string | null = `${path}?limit=1`;
      let page = 0;
      while (next) {
        const p = await acct.c.get(next);
        out[`${path} page ${page++}`] = `${p.status} ${p.text}`;
        next = p.status === 200 ? (p.body.next_page_uri as string | null) : null;
      }
    }
  }
  return out;
}

// --- the differential check --------------------------------------------------------------------------------

export interface Probe {
  method: string;
  /** Path and query. */
  path: string;
  /** A JSON body (sent as application/json), or none. */
  body?: unknown;
  /** A body sent as this text instead (application/json, or `contentType`): malformed ones. */
  raw?: string;
  contentType?: string;
  /** The other account's ids the probe names; each is replaced by a fresh random id of its prefix for the control. */
  foreign: string[];
  what?: string;
}

export interface Answer {
  status: number;
  allow?: string;
  retryAfter?: string;
  body: unknown;
  /** The answer's text with the probe's ids replaced by placeholders. */
  text: string;
}

function swap(text: string, from: readonly string[], to: readonly string[]): string {
  let out = text;
  from.forEach((id, i) => {
    out = out.split(id).join(to[i]!);
  });
  return out;
}

async function send(c: ApiClient, method: string, path: string, body: string | undefined, contentType = 'application/json'): Promise<ApiResponse> {
  return c.raw(method, path, body === undefined ? {} : { body, headers: { 'content-type': contentType } });
}

function normalized(r: ApiResponse, ids: readonly string[]): Answer {
  const placeholders = ids.map((_, i) => `<ID${i}>`);
  const text = swap(r.text, ids, placeholders).replace(/op_[0-9A-Za-z]{27}/g, '<OP>');
  let body: unknown = text;
  try {
    body = text === '' ? undefined : JSON.parse(text);
  } catch {
    // kept as text
  }
  const header = (name: string) => {
    const v = r.headers[name];
    return Array.isArray(v) ? v.join(', ') : v;
  };
  return { status: r.status, allow: header('allow'), retryAfter: header('retry-after'), body, text };
}

export interface ProbeResult {
  probe: Probe;
  foreign: Answer;
  control: Answer;
  /** The request as sent (path and body), for telling B's own echoed input from a leak. */
  sent: string;
}

/**
 * The probe as `c` sends it, and the same request with every foreign id replaced by a random id of the same
 * prefix that does not exist. Both answers normalized (ids as placeholders, operation ids masked).
 */
export async function runProbe(c: ApiClient, probe: Probe): Promise<ProbeResult> {
  const foreign = [...new Set(probe.foreign)];
  const control = foreign.map((id) => randomId(prefixOf(id)));
  const bodyText = probe.raw ?? (probe.body === undefined ? undefined : JSON.stringify(probe.body));
  const [a, b] = await Promise.all([
    send(c, probe.method, probe.path, bodyText, probe.contentType),
    send(c, probe.method, swap(probe.path, foreign, control), bodyText === undefined ? undefined : swap(bodyText, foreign, control), probe.contentType),
  ]);
  return { probe, foreign: normalized(a, foreign), control: normalized(b, control), sent: swap(`${probe.path} ${bodyText ?? ''}`, foreign, foreign.map((_, i) => `<ID${i}>`)) };
}

/**
 * What is wrong with a probe's answers: they differ (status, code, message shape, Allow/Retry-After), or the
 * answer to the foreign probe holds a secret of the other account that the request itself did not carry.
 */
export function problemsOf(result: ProbeResult, secrets: readonly string[]): string[] {
  const { probe, foreign, control } = result;
  const what = `${probe.what ? `[${probe.what}] ` : ''}${probe.method} ${result.sent.slice(0, 300)}`;
  const problems: string[] = [];
  const view = (a: Answer) => JSON.stringify({ status: a.status, allow: a.allow, retryAfter: a.retryAfter, body: a.body });
  if (view(foreign) !== view(control)) {
    problems.push(`${what}\n    foreign ids: ${view(foreign).slice(0, 600)}\n    random ids:  ${view(control).slice(0, 600)}`);
  }
  const leaked = secrets.filter((s) => foreign.text.includes(s) && !result.sent.includes(s));
  if (leaked.length > 0) problems.push(`${what}\n    answer holds the other account's ${leaked.join(', ')}: ${foreign.text.slice(0, 600)}`);
  return problems;
}

/** Runs probes `concurrency` at a time; returns every problem found. */
export async function runProbes(c: ApiClient, probes: readonly Probe[], secrets: readonly string[], concurrency = 8, onResult?: (r: ProbeResult) => void): Promise<string[]> {
  const problems: string[] = [];
  let next = 0;
  const worker = async () => {
    while (next < probes.length) {
      const probe = probes[next++]!;
      const result = await runProbe(c, probe);
      onResult?.(result);
      problems.push(...problemsOf(result, secrets));
    }
  };
  await Promise.all(Array.from({ length: concurrency }, worker));
  return problems;
}

/** Every occurrence of any of `ids` in a JSON value, as a path of keys and indexes. */
export function occurrences(value: unknown, ids: ReadonlySet<string>, at: (string | number)[] = []): (string | number)[][] {
  if (typeof value === 'string') return ids.has(value) ? [at] : [];
  if (Array.isArray(value)) return value.flatMap((v, i) => occurrences(v, ids, [...at, i]));
  if (value !== null && typeof value === 'object') return Object.entries(value).flatMap(([k, v]) => occurrences(v, ids, [...at, k]));
  return [];
}

/** A copy of `value` with the value at `path` replaced. */
export function replaced(value: unknown, path: readonly (string | number)[], by: unknown): unknown {
  if (path.length === 0) return by;
  const copy = structuredClone(value) as Record<string | number, unknown>;
  let node = copy;
  for (const key of path.slice(0, -1)) node = node[key] as Record<string | number, unknown>;
  node[path.at(-1)!] = by;
  return copy;
}

/** The lists that hold arrays of ids (ip_policy_ids, certificate_authority_ids) in a JSON value. */
export function idArrays(value: unknown, ids: ReadonlySet<string>, at: (string | number)[] = []): (string | number)[][] {
  if (Array.isArray(value)) {
    const own = value.length > 0 && value.every((v) => typeof v === 'string' && ids.has(v)) ? [at] : [];
    return [...own, ...value.flatMap((v, i) => idArrays(v, ids, [...at, i]))];
  }
  if (value !== null && typeof value === 'object') return Object.entries(value).flatMap(([k, v]) => idArrays(v, ids, [...at, k]));
  return [];
}

export function getAt(value: unknown, path: readonly (string | number)[]): unknown {
  let node = value as Record<string | number, unknown>;
  for (const key of path) node = node[key] as Record<string | number, unknown>;
  return node;
}

/** A valid body for a route of `acct` (its own ids referenced), or undefined for a route that takes none. */
export function validBody(method: Method, path: string, acct: Account): Record<string, unknown> | undefined {
  if (!BODY_METHODS.has(method)) return undefined;
  const role = roleOf(path);
  const defined = ROUTES.some((r) => r.method === method && r.path === path);
  if (!defined) return {};
  switch (role.role) {
    case 'collection':
      return createBody(role.kind.kind, acct.ids, acct.tag, acct.pems, acct.text);
    case 'item':
      return patchBody(role.kind, acct.ids, acct.tag, acct.pems, acct.text);
    case 'module': {
      const body = createBody(role.kind.kind, acct.ids, acct.tag, acct.pems, acct.text)[role.module];
      if (body === undefined) throw new Error(`the create body of ${role.kind.kind} lacks module ${role.module}`);
      return body as Record<string, unknown>;
    }
    case 'sources':
      return { type: `${acct.tag}_added.v0` };
    case 'source':
      return {};
  }
}

/** The id fields a body of this route may echo from its path, as the official client does. */
export function echoFields(path: string): string[] {
  const role = roleOf(path);
  if (role.role === 'sources' || role.role === 'source') return ['subscription_id'];
  return paramsOf(path).map((p) => p.name).concat('id').filter((v, i, all) => all.indexOf(v) === i);
}

/** Every probe of the sweep: B's key, A's ids in every place a request can name an id. */
export function sweepProbes(A: Account, B: Account): Probe[] {
  const probes: Probe[] = [];
  const aIds = [...Object.values(A.ids), ...Object.values(A.gone)];
  const bIds = new Set(Object.values(B.ids));

  // 1. Path parameters: each id parameter A's or B's own (all of them B's is no probe), for every method,
  //    whether the route has it (a 404) or not (a 405 naming the path). GET and DELETE also get every id of A,
  //    live or deleted, of any kind, in each id parameter.
  for (const path of PATHS) {
    const idParams = paramsOf(path).filter((p) => p.kind);
    for (const method of METHODS) {
      const body = validBody(method, path, B);
      for (let mask = 1; mask < 1 << idParams.length; mask++) {
        const values = ownParams(path, B);
        const foreign: string[] = [];
        idParams.forEach((p, i) => {
          if (!(mask & (1 << i))) return;
          values[p.name] = A.ids[p.kind!.kind]!;
          foreign.push(values[p.name]!);
          if (p.name === 'subscription_id') values.type = A.types[0]!;
        });
        probes.push({ method, path: fill(path, values), body, foreign, what: `path ${method} ${path}` });
      }
      if (method !== 'GET' && method !== 'DELETE') continue;
      for (const p of idParams) {
        for (const id of aIds) {
          const values = { ...ownParams(path, B), [p.name]: id };
          probes.push({ method, path: fill(path, values), foreign: [id], what: `path ${method} ${path}` });
        }
      }
    }
  }

  for (const route of ROUTES.filter((r) => BODY_METHODS.has(r.method))) {
    const path = fill(route.path, ownParams(route.path, B));
    const body = validBody(route.method, route.path, B)!;
    const what = `${route.method} ${route.path}`;
    // 2. References: each of B's ids in a valid body replaced by each of A's ids (any kind, live or deleted),
    //    and each list of ids with one of A's appended.
    for (const at of occurrences(body, bIds)) {
      for (const id of aIds) probes.push({ method: route.method, path, body: replaced(body, at, id), foreign: [id], what: `reference ${at.join('.')} ${what}` });
    }
    for (const at of idArrays(body, bIds)) {
      for (const id of aIds) {
        probes.push({ method: route.method, path, body: replaced(body, at, [...(getAt(body, at) as string[]), id]), foreign: [id], what: `reference list ${at.join('.')} ${what}` });
      }
    }
    // 3. Echoed ids (the official client repeats the path's ids in bodies), bare and in a module PUT's wrapper.
    const role = roleOf(route.path);
    const params = ownParams(route.path, B);
    for (const field of echoFields(route.path)) {
      const param = paramsOf(route.path).find((p) => p.name === field);
      const kind = param?.kind ?? (field === 'subscription_id' ? kindByName('event_subscription') : role.role === 'collection' || role.role === 'item' || role.role === 'module' ? role.kind : undefined);
      const candidates = [...new Set([kind ? A.ids[kind.kind]! : A.ids.ip_policy!, A.ids.ip_policy!])];
      for (const id of candidates) {
        const echoed = role.role === 'module'
          ? { ...Object.fromEntries(paramsOf(route.path).map((p) => [p.name, params[p.name]])), [field]: id, module: body }
          : { ...body, [field]: id };
        probes.push({ method: route.method, path, body: echoed, foreign: [id], what: `echoed ${field} ${what}` });
      }
    }
    // destination_ids: no event destination exists, and no document of A may look like one.
    if (role.role !== 'sources' && role.role !== 'source' && role.kind.kind === 'event_subscription' && role.role !== 'module') {
      for (const id of aIds) probes.push({ method: route.method, path, body: { ...body, destination_ids: [id] }, foreign: [id], what: `destination_ids ${what}` });
    }
  }

  // 4. before_id (and the official client's beforeId) of every list: any id of A, live or deleted.
  for (const route of ROUTES.filter((r) => r.method === 'GET' && ['collection', 'sources'].includes(roleOf(r.path).role))) {
    const path = fill(route.path, ownParams(route.path, B));
    for (const id of aIds) {
      probes.push({ method: 'GET', path: `${path}?before_id=${id}`, foreign: [id], what: `before_id GET ${route.path}` });
      probes.push({ method: 'GET', path: `${path}?limit=1&beforeId=${id}`, foreign: [id], what: `beforeId GET ${route.path}` });
    }
  }
  return probes;
}
