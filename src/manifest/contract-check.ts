// Stage 7, contract: every resolved document's requests, as its kind would send them, checked with the contract's
// body schemas and rules (src/contract), the same the service validates with. This catches what a document schema
// cannot say (header values, event types, URL paths, hostports duplicated in another spelling, ...). References
// to resources not created yet hold a placeholder id of their kind's prefix. No network: the kind sends the
// plan's own body (sentBody) to a recorder. A problem is reported at the position of the manifest value it is about.
import { bodyProblem, moduleProblem, requestProblem, withoutNulls } from '../contract/body-check.ts';
import { CONTRACT_KINDS, documentProblem, type LocatedProblem } from '../contract/index.ts';
import { valueAt } from '../contract/json.ts';
import { templatePattern } from '../contract/path.ts';
import { ID_SUFFIX_LENGTH } from '../contract/protocol.ts';
import type { ManifestIssue, SourcePos } from '../errors.ts';
import { KINDS, kindByName } from '../kinds/index.ts';
import type { Api, Obj } from '../kinds/resource-kind.ts';
import type { DesiredResource, ManifestDoc } from './document.ts';
import { keyPos, valuePos } from './pointer.ts';
import { childPointer, splitPointer } from '../contract/field-path.ts';
import { placeholderIds, sentBody } from '../kinds/sent-body.ts';
import { runPaced, type AsyncSteps, type Pace } from '../pace.ts';

interface Sent {
  method: 'POST' | 'PUT' | 'PATCH';
  path: string;
  body: Obj;
}

const ID_TAIL = '0'.repeat(ID_SUFFIX_LENGTH);
const KINDS_BY_NAME = new Map(KINDS.map((k) => [k.kind, k]));

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

// Compiled once per template: every document's every request is matched against them.
const patterns = new Map<string, RegExp>();
function pathPattern(template: string): RegExp {
  let re = patterns.get(template);
  if (!re) patterns.set(template, (re = templatePattern(template)));
  return re;
}

/** The first problem the service would find in one request's body, or undefined when it holds. */
type RequestCheck = (body: Obj) => LocatedProblem | undefined;

// Found once per method and route: ids in a path (the recorder's, a placeholder of a resource not created yet,
// a literal one) end in ID_SUFFIX_LENGTH characters, and every document of a kind sends to the same few routes.
const contracts = new Map<string, RequestCheck | undefined>();
const ID_SEGMENT = new RegExp(`/[a-z_]*[A-Za-z0-9]{${ID_SUFFIX_LENGTH}}(?=/|$)`, 'g');

/** The contract of one request, found by its method and path (the service's own routes). */
function contractOf(sent: Sent): RequestCheck | undefined {
  // Most creates go to a path without an id (`/ip_policies`): found as written, with no pattern run over it.
  const written = `${sent.method} ${sent.path}`;
  if (contracts.has(written)) return contracts.get(written);
  const key = `${sent.method} ${sent.path.replace(ID_SEGMENT, '/:id')}`;
  const found = contracts.has(key) ? contracts.get(key) : findContract(sent);
  if (contracts.size < 1000) contracts.set(key, found);
  return found;
}

function findContract(sent: Sent): RequestCheck | undefined {
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

/** The pointer in the document of a value the request sent at `pointer` (an event source's type is one of `types`). */
function documentPointer(spec: Obj, body: Obj, pointer: string): string {
  const path = splitPointer(pointer);
  if (valueAt(spec, path) !== undefined) return pointer;
  const value = valueAt(body, path);
  for (const [field, held] of Object.entries(spec)) {
    if (Array.isArray(held)) {
      const i = held.findIndex((item) => item === value);
      if (i >= 0) return childPointer(childPointer('', field), i);
    }
  }
  return '';
}

/**
 * One problem as data: the pointer of the manifest value it is about, and whether it is about that value's key
 * (an unknown field is pointed at where it is named).
 */
function located(problem: LocatedProblem, resource: DesiredResource, body: Obj): { pointer: string; key: boolean } {
  return { pointer: documentPointer(resource.spec, body, problem.pointer), key: problem.code === 'ERR_UNKNOWN_FIELD' };
}

const where = (pos: SourcePos): string => `${pos.file}:${pos.line}:${pos.col}`;

/** Positions of the top-level field `pointer` is in (its values and keys), or of the document for ''. */
function fieldPositions(doc: ManifestDoc, pointer: string): string[] {
  const top = pointer.split('/').slice(0, 2).join('/');
  if (top === '') return [where(doc.pos)];
  const inside = [...doc.positions.keys()].filter((p) => p === top || p.startsWith(`${top}/`));
  return inside.flatMap((p) => [where(valuePos(doc, p)), where(keyPos(doc, p))]);
}

interface ContractCheckOptions {
  stack: string;
  /** What earlier stages reported. */
  reported: readonly ManifestIssue[];
  /** The run's clock, when earlier stages were paced with it (pace.ts). */
  pace?: Pace;
}

/**
 * The contract's verdict on every resource's create requests. A problem in a field an earlier stage already
 * found wrong is that problem seen again (or one that follows from it), and left out.
 */
export function checkWithContract(resources: readonly DesiredResource[], docs: readonly ManifestDoc[], opts: ContractCheckOptions): Promise<ManifestIssue[]> {
  return runPaced(contractSteps(resources, docs, opts), opts.pace);
}

/** checkWithContract, a step per document: each is sent through the recorder, so the steps await. */
async function* contractSteps(resources: readonly DesiredResource[], docs: readonly ManifestDoc[], opts: ContractCheckOptions): AsyncSteps<ManifestIssue[]> {
  const docOf = new Map(docs.map((d) => [d.pos, d]));
  const reported = new Set(opts.reported.map((i) => `${i.address ?? ''} ${where(i.pos)}`));
  const issues: ManifestIssue[] = [];
  // One recorder for the run, emptied for each document.
  const sent: Sent[] = [];
  const api = recorder(sent);
  const ids = placeholderIds(KINDS_BY_NAME);
  for (const resource of resources) {
    yield;
    const kind = kindByName(resource.kind);
    const doc = docOf.get(resource.pos);
    if (!kind || !doc) continue;
    sent.length = 0;
    try {
      await kind.create(api, sentBody(resource, kind, { stack: opts.stack, ids }));
    } catch {
      continue; // a body the kind cannot even form is another stage's problem (a value of the wrong type)
    }
    for (let i = 0; i < sent.length; i++) {
      const request = sent[i]!;
      const contract = contractOf(request);
      const problem = contract?.(request.body);
      if (!problem) continue;
      const { pointer, key } = located(problem, resource, request.body);
      if (fieldPositions(doc, pointer).some((pos) => reported.has(`${resource.address} ${pos}`))) continue;
      const pos = key ? keyPos(doc, pointer) : valuePos(doc, pointer);
      reported.add(`${resource.address} ${where(pos)}`);
      issues.push({ pos, address: resource.address, ...(pointer === '' ? {} : { pointer }), code: problem.code, message: problem.reason });
    }
  }
  return issues;
}
