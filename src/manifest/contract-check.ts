// Stage 7, contract: every resolved document's requests, as its kind would send them, checked with the contract's
// body schemas and rules (src/contract), the same the service validates with. This catches what a document schema
// cannot say (header values, event types, URL paths, hostports duplicated in another spelling, ...). References
// to resources not created yet hold a placeholder id of their kind's prefix. No network: the kind sends to a
// recorder. A problem is reported at the position of the manifest value it is about.
import { bodyProblem, moduleProblem, requestProblem, withoutNulls } from '../contract/body-check.ts';
import { CONTRACT_KINDS, documentProblem, type ValueProblem } from '../contract/index.ts';
import type { ManifestIssue, SourcePos } from '../errors.ts';
import { kindByName } from '../kinds/index.ts';
import type { Api, Json, Obj, ResourceKind } from '../kinds/resource-kind.ts';
import type { DesiredResource, ManifestDoc } from './document.ts';
import { childPointer, fieldPath, keyPos, valuePos } from './pointer.ts';
import { serializeMetadata } from '../kinds/marker.ts';

interface Sent {
  method: 'POST' | 'PUT' | 'PATCH';
  path: string;
  body: Obj;
}

const ID_TAIL = '0'.repeat(27);
const placeholders = new Map<string, string>();

/** A syntactically valid id for a resource that does not exist yet: one per address, as distinct as theirs. */
function placeholderId(address: string): string {
  let id = placeholders.get(address);
  if (id === undefined) {
    const kind = kindByName(address.slice(0, address.indexOf('/')));
    placeholders.set(address, (id = `${kind?.idPrefix ?? 'id_'}${String(placeholders.size + 1).padStart(ID_TAIL.length, '0')}`));
  }
  return id;
}

function withPlaceholders(value: Json): Json {
  if (value === null || typeof value !== 'object') return value;
  if (Array.isArray(value)) return value.map(withPlaceholders);
  const keys = Object.keys(value);
  if (keys.length === 1 && keys[0] === '$ref' && typeof value.$ref === 'string') return placeholderId(value.$ref);
  return Object.fromEntries(keys.map((k) => [k, withPlaceholders(value[k]!)]));
}

/** An Api that answers every request at once and keeps the writes. */
function recorder(sent: Sent[]): Api {
  const answer = (body: Obj): Obj => ({ ...body, id: ID_TAIL });
  return {
    get: async () => ({}),
    post: async (path, body) => (sent.push({ method: 'POST', path, body }), answer(body)),
    patch: async (path, body) => (sent.push({ method: 'PATCH', path, body }), answer(body)),
    put: async (path, body) => (sent.push({ method: 'PUT', path, body }), answer(body)),
    delete: async () => undefined,
    list: async () => [],
  };
}

/** The request body of a create, as the apply sends it: the kind's hooks, and for marker kinds the marker. */
function createBody(kind: ResourceKind, resource: DesiredResource, stack: string): Obj {
  const spec = withPlaceholders(resource.spec) as Obj;
  if (kind.identity !== 'marker') return kind.normalizeDesired(kind.toRequest(spec));
  const { metadata, ...rest } = spec;
  const body = kind.normalizeDesired(kind.toRequest(rest));
  const user = metadata !== null && typeof metadata === 'object' && !Array.isArray(metadata) ? metadata : {};
  return { ...body, metadata: serializeMetadata(user as Obj, { stack, name: resource.address }) };
}

const pathPattern = (template: string): RegExp => new RegExp(`^${template.replace(/:\w+/g, '[^/]+')}$`);

/** The first problem the service would find in one request's body, or undefined when it holds. */
type RequestCheck = (body: Obj) => ValueProblem | undefined;

/** The contract of one request, found by its method and path (the service's own routes). */
function contractOf(sent: Sent): RequestCheck | undefined {
  for (const c of CONTRACT_KINDS) {
    if (sent.method === 'POST' && pathPattern(c.path).test(sent.path)) {
      return (body) => {
        const value = withoutNulls(body, c.create);
        return requestProblem(c.create, c.modules, value) ?? documentProblem(c, value);
      };
    }
    for (const m of sent.method === 'PUT' ? c.modules : []) {
      if (pathPattern(`${c.path}/:id/${m.name}`).test(sent.path)) return (body) => moduleProblem(m, withoutNulls(body, m.schema), '');
    }
    for (const s of sent.method === 'POST' ? Object.values(c.subresources ?? {}) : []) {
      if (pathPattern(s.path).test(sent.path)) return (body) => bodyProblem(s.create, withoutNulls(body, s.create));
    }
  }
  return undefined;
}

/** `a.b[2].c` -> `/a/b/2/c`. */
function pointerOf(path: string): string {
  return [...path.matchAll(/([^.[\]]+)|\[(\d+)\]/g)].reduce((p, m) => childPointer(p, m[1] ?? Number(m[2])), '');
}

const isKnown = (spec: Json, pointer: string): boolean => {
  let node: Json | undefined = spec;
  for (const seg of pointer.split('/').slice(1)) {
    if (node === null || typeof node !== 'object') return false;
    node = (node as Record<string, Json>)[Array.isArray(node) ? Number(seg) : seg];
  }
  return node !== undefined;
};

/** The pointer in the document of a value the request sent at `pointer` (an event source's type is one of `types`). */
function documentPointer(spec: Obj, body: Obj, pointer: string): string {
  if (isKnown(spec, pointer)) return pointer;
  const value = pointer.split('/').slice(1).reduce<Json | undefined>((node, seg) => (node !== null && typeof node === 'object' ? (node as Record<string, Json>)[seg] : undefined), body);
  for (const [field, held] of Object.entries(spec)) {
    if (Array.isArray(held)) {
      const i = held.findIndex((item) => item === value);
      if (i >= 0) return childPointer(childPointer('', field), i);
    }
  }
  return '';
}

/** One problem: the pointer of the manifest value it is about, and its message in the manifest's notation. */
function located(problem: ValueProblem, resource: DesiredResource, body: Obj): { pointer: string; key: boolean; message: string } {
  const unknown = /^unknown field "([^"]*)"/.exec(problem.message);
  if (unknown) {
    const pointer = documentPointer(resource.spec, body, pointerOf(unknown[1]!));
    return { pointer, key: true, message: `${fieldPath(pointer)}: unknown field` };
  }
  const colon = problem.message.indexOf(': ');
  const path = colon < 0 ? '' : problem.message.slice(0, colon);
  const required = problem.message.endsWith(': required');
  const pointer = documentPointer(resource.spec, body, pointerOf(required ? path.slice(0, Math.max(0, path.lastIndexOf('.'))) : path));
  const what = colon < 0 ? problem.message : problem.message.slice(colon + 2);
  const message = required ? `missing field "${path.slice(path.lastIndexOf('.') + 1)}"` : what;
  const field = fieldPath(pointer);
  return { pointer, key: false, message: field ? `${field}: ${message}` : message };
}

const where = (pos: SourcePos): string => `${pos.file}:${pos.line}:${pos.col}`;

/** Positions of the top-level field `pointer` is in (its values and keys), or of the document for ''. */
function fieldPositions(doc: ManifestDoc, pointer: string): string[] {
  const top = pointer.split('/').slice(0, 2).join('/');
  if (top === '') return [where(doc.pos)];
  const inside = [...doc.positions.keys()].filter((p) => p === top || p.startsWith(`${top}/`));
  return inside.flatMap((p) => [where(valuePos(doc, p)), where(keyPos(doc, p))]);
}

/**
 * The contract's verdict on every resource's create requests. A problem in a field an earlier stage already
 * found wrong is that problem seen again (or one that follows from it), and left out.
 */
export async function checkWithContract(
  resources: readonly DesiredResource[],
  docs: readonly ManifestDoc[],
  opts: { stack: string; reported: readonly ManifestIssue[] },
): Promise<ManifestIssue[]> {
  const docOf = new Map(docs.map((d) => [d.pos, d]));
  const reported = new Set(opts.reported.map((i) => `${i.address ?? ''} ${where(i.pos)}`));
  const issues: ManifestIssue[] = [];
  for (const resource of resources) {
    const kind = kindByName(resource.kind);
    const doc = docOf.get(resource.pos);
    if (!kind || !doc) continue;
    const sent: Sent[] = [];
    try {
      await kind.create(recorder(sent), createBody(kind, resource, opts.stack));
    } catch {
      continue; // a body the kind cannot even form is another stage's problem (a value of the wrong type)
    }
    for (const request of sent) {
      const contract = contractOf(request);
      const problem = contract?.(request.body);
      if (!problem) continue;
      const { pointer, key, message } = located(problem, resource, request.body);
      if (fieldPositions(doc, pointer).some((pos) => reported.has(`${resource.address} ${pos}`))) continue;
      const pos = key ? keyPos(doc, pointer) : valuePos(doc, pointer);
      reported.add(`${resource.address} ${where(pos)}`);
      issues.push({ pos, address: resource.address, message });
    }
  }
  return issues;
}
