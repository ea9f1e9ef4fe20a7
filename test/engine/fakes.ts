// Small fake kinds over an in-memory store, for engine tests: no HTTP, every hook call recorded.
// The kinds mirror the shapes the engine must handle (marker and natural identity, refs to one id and to lists,
// immutable, secret and write-only fields, modules) without being any real kind.
import type { Api, FetchContext, LiveItem, Obj, RefField, ResourceKind } from '../../src/kinds/resource-kind.ts';
import type { DesiredResource, DesiredState } from '../../src/manifest/document.ts';
import { serializeMetadata } from '../../src/kinds/marker.ts';
import { pendingTargets } from '../../src/kinds/refs.ts';

export interface Call {
  op: 'create' | 'update' | 'put' | 'module-delete' | 'delete';
  kind: string;
  id: string;
  body?: Obj;
  module?: string;
}

/** What a hook does before touching the store: await to hold it, throw to fail it. */
export type Gate = (call: Call) => Promise<void> | void;

export class Store {
  readonly items = new Map<string, Map<string, Obj>>();
  readonly calls: Call[] = [];
  gate: Gate = () => {};
  private seq = 0;

  table(kind: string): Map<string, Obj> {
    let t = this.items.get(kind);
    if (!t) this.items.set(kind, (t = new Map()));
    return t;
  }
  nextId(prefix: string): string {
    this.seq++;
    return `${prefix}${String(this.seq).padStart(4, '0')}`;
  }
  /** Put an item directly, as if made by someone else through the API. */
  seed(kind: string, prefix: string, raw: Obj): string {
    const id = this.nextId(prefix);
    this.table(kind).set(id, { ...raw, id });
    return id;
  }
  async record(call: Call): Promise<void> {
    this.calls.push(call);
    await this.gate(call);
  }
}

/** The Api is never used by the fakes; the engine only passes it through. */
export const nullApi: Api = {
  get: async () => ({}),
  post: async () => ({}),
  patch: async () => ({}),
  put: async () => ({}),
  delete: async () => {},
  list: async () => [],
};

interface FakeSpec {
  kind: string;
  prefix: string;
  refs?: RefField[];
  immutable?: string[];
  secrets?: string[];
  writeOnly?: string[];
  modules?: string[];
  /** Desired-side default, applied by normalizeDesired and fromLive alike. */
  defaults?: Obj;
  unique?: ResourceKind['unique'];
}

const strip = (raw: Obj, fields: string[]): Obj => {
  const out = { ...raw };
  for (const f of fields) delete out[f];
  return out;
};

export function markerKind(store: Store, spec: FakeSpec): ResourceKind {
  const withDefaults = (b: Obj): Obj => ({ ...(spec.defaults ?? {}), ...b });
  const toLive = (id: string, body: Obj): Obj => strip({ ...body, id }, spec.writeOnly ?? []);
  return {
    kind: spec.kind,
    idPrefix: spec.prefix,
    identity: 'marker',
    refs: spec.refs ?? [],
    immutable: spec.immutable ?? [],
    secrets: spec.secrets ?? [],
    writeOnly: spec.writeOnly ?? [],
    modules: spec.modules ?? [],
    ...(spec.unique ? { unique: spec.unique } : {}),
    toRequest: (s) => ({ ...s }),
    fromLive: (raw) => withDefaults(strip(raw, ['id'])),
    normalizeDesired: withDefaults,
    async fetch(_ctx: FetchContext): Promise<LiveItem[]> {
      return [...store.table(spec.kind).values()].map((raw) => ({ id: String(raw.id), raw: { ...raw } }));
    },
    async create(_api, body) {
      if (pendingTargets(body).length > 0) throw new Error('PendingRef sent to the service');
      const id = store.nextId(spec.prefix);
      await store.record({ op: 'create', kind: spec.kind, id, body });
      const raw = toLive(id, body);
      store.table(spec.kind).set(id, raw);
      return { id, raw };
    },
    async update(_api, live, changed) {
      await store.record({ op: 'update', kind: spec.kind, id: live.id, body: changed });
      const cur = store.table(spec.kind).get(live.id)!;
      const next = { ...cur };
      for (const [k, v] of Object.entries(changed)) {
        if (v === null) delete next[k];
        else next[k] = v;
      }
      store.table(spec.kind).set(live.id, next);
    },
    async putModule(_api, live, module, body) {
      await store.record({ op: 'put', kind: spec.kind, id: live.id, module, body });
      store.table(spec.kind).get(live.id)![module] = body;
    },
    async deleteModule(_api, live, module) {
      await store.record({ op: 'module-delete', kind: spec.kind, id: live.id, module });
      delete store.table(spec.kind).get(live.id)![module];
    },
    async delete(_api, live) {
      await store.record({ op: 'delete', kind: spec.kind, id: live.id });
      store.table(spec.kind).delete(live.id);
    },
  };
}

/** A natural-key kind: one item per parent (`parent_id`), holding a list of `values`. */
export function naturalKind(store: Store, name: string, parentKinds: string[]): ResourceKind {
  return {
    kind: name,
    identity: 'natural',
    refs: [{ pointer: '/parent_id', kinds: parentKinds }],
    immutable: ['parent_id'],
    secrets: [],
    writeOnly: [],
    modules: [],
    toRequest: (s) => ({ ...s }),
    fromLive: (raw) => ({ parent_id: raw.parent_id ?? null, values: raw.values ?? [] }),
    normalizeDesired: (b) => ({ parent_id: b.parent_id ?? null, values: b.values ?? [] }),
    naturalKey: (b) => String(b.parent_id),
    async fetch() {
      return [...store.table(name).values()].map((raw) => ({ id: String(raw.parent_id), raw: { ...raw } }));
    },
    async create(_api, body) {
      const id = String(body.parent_id);
      await store.record({ op: 'create', kind: name, id, body });
      store.table(name).set(id, { ...body });
      return { id, raw: { ...body } };
    },
    async update(_api, live, _changed, desired) {
      await store.record({ op: 'update', kind: name, id: live.id, body: desired });
      store.table(name).set(live.id, { ...desired });
    },
    async delete(_api, live) {
      await store.record({ op: 'delete', kind: name, id: live.id });
      store.table(name).delete(live.id);
    },
  };
}

/** The standard fake world: Pol <- Rule; Back, Pol, Cert <- Edge (modules); Cert (secret, write-only); Tag (natural, on Edge). */
export function fakeWorld() {
  const store = new Store();
  const pol = markerKind(store, { kind: 'Pol', prefix: 'pol_' });
  const rule = markerKind(store, {
    kind: 'Rule',
    prefix: 'rul_',
    refs: [{ pointer: '/pol_id', kinds: ['Pol'] }],
    immutable: ['pol_id', 'action'],
  });
  const hostports = [{ field: 'hostports', scope: 'hostport', key: (h: string) => h.toLowerCase() }];
  const back = markerKind(store, { kind: 'Back', prefix: 'bak_', unique: hostports });
  const edge = markerKind(store, {
    kind: 'Edge',
    prefix: 'edg_',
    refs: [
      { pointer: '/backend/backend_id', kinds: ['Back'] },
      { pointer: '/ip/pol_ids/*', kinds: ['Pol'] },
      { pointer: '/mtls/cert_ids/*', kinds: ['Cert'] },
    ],
    modules: ['backend', 'ip', 'mtls'],
    unique: hostports,
  });
  const cert = markerKind(store, {
    kind: 'Cert',
    prefix: 'crt_',
    immutable: ['pem', 'key'],
    secrets: ['key'],
    writeOnly: ['key'],
  });
  const tag = naturalKind(store, 'Tag', ['Edge']);
  return { store, kinds: [pol, rule, back, edge, cert, tag] as ResourceKind[], pol, rule, back, edge, cert, tag };
}

/** A desired resource; `refs` are the addresses its spec names (for dependsOn). */
export function res(address: string, spec: Obj): DesiredResource {
  const [kind, name] = address.split('/') as [string, string];
  return { kind, name, address, spec, dependsOn: pendingTargets(spec), pos: { file: 'm.yaml', line: 1, col: 1 } };
}

export const ref = (address: string) => ({ $ref: address });

export function state(resources: DesiredResource[], config: DesiredState['config'] = {}): DesiredState {
  return { resources, config };
}

/** Raw metadata as edgeops writes it, for seeding live items. */
export const marked = (stack: string, address: string, user?: Obj): string => serializeMetadata(user, { stack, name: address });

/** A promise with its resolve exposed, to hold a fake hook until the test releases it. */
export function deferred(): { promise: Promise<void>; resolve: () => void } {
  let resolve!: () => void;
  const promise = new Promise<void>((r) => (resolve = r));
  return { promise, resolve };
}
