// Stage 5, resolve: documents -> desired resources. Reference fields take a literal id (with the id prefix of an
// allowed kind) or the name of a managed resource of an allowed kind; names become PendingRefs. Nulls meaning
// "unset" are dropped; `{file}`/`{env}` secrets are read (secrets.ts); the reference graph must have no cycle
// (every cycle found is one error, named in full, A -> B -> A, placed at the reference field of its first
// member that starts it), and references across documents must agree (resolve/parents.ts); traffic policy text
// must be a policy document (rules.ts). No network.
import type { ManifestIssue, SourcePos } from '../errors.ts';
import { dependencyOrder } from '../graph.ts';
import { KINDS } from '../kinds/index.ts';
import type { Json, PendingRef, ResourceKind } from '../kinds/resource-kind.ts';
import { addressOf, type DesiredResource, type ManifestDoc, type ResolvedDoc } from './document.ts';
import { cloneJson, rememberSource, slotsAt, unsetNullsAt, valuePos } from './pointer.ts';
import { checkParents } from './resolve/parents.ts';
import { MOVED_FROM, movedFromAddresses } from './resolve/moved-from.ts';
import { policyTextIssue } from './rules.ts';
import { kindValidation } from './schema.ts';
import { misplacedPrivateKeyMessage, misplacedPrivateKeys } from './schema/formats.ts';
import { didYouMean } from './schema/messages.ts';
import type { Steps } from '../pace.ts';
import { resolveSecret } from './secrets.ts';

interface ResolveOptions {
  env?: NodeJS.ProcessEnv;
  /** Base for file names in messages (default: process.cwd()). */
  cwd?: string;
  /** The kinds to resolve against (default KINDS; tests pass their own). */
  kinds?: readonly ResourceKind[];
}

interface ResolveResult {
  resources: DesiredResource[];
  /** Each resource with its document and kind (for the checks of resolved values: the value rules, rules.ts). */
  resolved: ResolvedDoc[];
  issues: ManifestIssue[];
}

/** Documents -> desired resources, as steps, one per document (pace.ts). */
export function* resolveSteps(docs: readonly ManifestDoc[], opts: ResolveOptions = {}): Steps<ResolveResult> {
  const kinds = new Map((opts.kinds ?? KINDS).map((k) => [k.kind, k]));
  const env = opts.env ?? process.env;
  const cwd = opts.cwd ?? process.cwd();
  const index = new NameIndex();
  for (const doc of docs) if (kinds.has(doc.kind) && doc.name !== '') index.add(doc.kind, doc.name);

  const issues: ManifestIssue[] = [];
  const resources: DesiredResource[] = [];
  const graph = new Map<string, RefEdge[]>();
  const resolved: ResolvedDoc[] = [];
  for (const doc of docs) {
    yield;
    const kind = kinds.get(doc.kind);
    if (!kind) continue; // the rules stage reports unknown kinds
    const address = addressOf(doc);
    /** A problem of the field at `field`, reported at the value at `pointer` (the field itself, or a key inside it). */
    const fail = (pointer: string, message: string, field = pointer): void => {
      issues.push({ pos: valuePos(doc, pointer), address, pointer: field, message });
    };
    const spec = cloneJson(doc.fields);
    delete spec[MOVED_FROM]; // not a field of the resource: it names the live resource to keep
    const validation = kindValidation(doc.kind);
    // The kind's patterns are walked by index here and below: they run for every document, mostly before V8
    // optimizes this function, and an unoptimized for-of allocates an iterator result at every step.
    // A null where the schema takes one means "unset": the resource is as if the field were left out.
    const unsetPointers = validation?.unsetPointers ?? [];
    for (let i = 0; i < unsetPointers.length; i++) unsetNullsAt(spec, unsetPointers[i]!);
    const dependsOn: string[] = [];
    const edges: RefEdge[] = [];

    for (let i = 0; i < kind.refs.length; i++) {
      const refField = kind.refs[i]!;
      for (const slot of slotsAt(spec, refField.pointer)) {
        const outcome = resolveRef(slot.value, refField.kinds, index, kinds);
        if (!outcome || 'literal' in outcome) continue;
        if ('error' in outcome) {
          fail(slot.pointer, outcome.error);
          continue;
        }
        const pending: PendingRef = { $ref: outcome.address };
        slot.set(pending as unknown as Json);
        if (!dependsOn.includes(outcome.address)) dependsOn.push(outcome.address);
        edges.push({ to: outcome.address, pos: valuePos(doc, slot.pointer) });
      }
    }

    const secretPointers = validation?.secretPointers ?? [];
    for (let i = 0; i < secretPointers.length; i++) {
      const pattern = secretPointers[i]!;
      const phases = validation?.policyPhases.get(pattern);
      for (const slot of slotsAt(spec, pattern)) {
        const written = slot.value;
        const outcome = resolveSecret(written, slot.pointer, { dir: doc.dir, cwd, env });
        if (outcome && 'error' in outcome) {
          fail(outcome.pointer, outcome.error, outcome.field);
          continue;
        }
        if (outcome) slot.set(outcome.value);
        const policy = phases && policyTextIssue(written, outcome ? outcome.value : written, slot.pointer, phases);
        if (policy) fail(policy.pointer, policy.message, policy.field);
      }
    }
    for (const pointer of misplacedPrivateKeys(spec, kind.secrets ?? [])) fail(pointer, misplacedPrivateKeyMessage());

    const movedFrom = movedFromAddresses(doc);
    const resource: DesiredResource = { kind: doc.kind, name: doc.name, address, spec, dependsOn, pos: doc.pos, ...(movedFrom.length > 0 ? { movedFrom } : {}), ...(doc.sources ? { sources: doc.sources } : {}) };
    rememberSource(resource, doc);
    resources.push(resource);
    resolved.push({ doc, kind, resource });
    if (doc.name !== '' && !graph.has(address)) graph.set(address, edges);
  }
  issues.push(...findCycles(graph), ...checkParents(resolved));
  return { resources, resolved, issues };
}

// References between documents.
/** The managed resources by name: which kinds define each name. */
class NameIndex {
  private readonly kindsByName = new Map<string, string[]>();
  private readonly namesByKind = new Map<string, string[]>();

  add(kind: string, name: string): void {
    const kinds = this.kindsByName.get(name) ?? [];
    if (kinds.includes(kind)) return;
    kinds.push(kind);
    this.kindsByName.set(name, kinds);
    const names = this.namesByKind.get(kind);
    if (names) names.push(name);
    else this.namesByKind.set(kind, [name]);
  }

  kindsOf(name: string): readonly string[] {
    return this.kindsByName.get(name) ?? [];
  }

  namesOf(kinds: readonly string[]): string[] {
    return kinds.flatMap((k) => this.namesByKind.get(k) ?? []);
  }
}

type RefOutcome = { address: string } | { literal: string } | { error: string };

const either = (kinds: readonly string[]): string => kinds.join(' or ');

function literal(value: string, allowed: readonly string[], kinds: ReadonlyMap<string, ResourceKind>): RefOutcome {
  const prefixOf = (k: string): string | undefined => kinds.get(k)?.idPrefix;
  const own = allowed.find((k) => {
    const p = prefixOf(k);
    return p !== undefined && value.startsWith(p);
  });
  if (own) {
    return value.length > prefixOf(own)!.length ? { literal: value } : { error: `"${value}" is not a complete id` };
  }
  const other = [...kinds.values()].find((k) => k.idPrefix !== undefined && value.startsWith(k.idPrefix));
  if (other) return { error: `wrong kind: "${value}" is an id of kind ${other.kind}, but this field takes ${either(allowed)}` };
  const expected = allowed.map((k) => `${k} (${prefixOf(k) ?? 'no id'}...)`);
  return { error: `"${value}" is neither a name (names have no "_") nor an id of ${either(expected)}` };
}

/** Resolves one reference value. Names never contain "_", so a value with "_" is a literal id. */
function resolveRef(
  value: Json,
  allowed: readonly string[],
  index: NameIndex,
  kinds: ReadonlyMap<string, ResourceKind>,
): RefOutcome | undefined {
  if (typeof value !== 'string' || value === '') return undefined; // the schema reports it
  if (value.includes('_')) return literal(value, allowed, kinds);
  const defined = index.kindsOf(value);
  const matches = defined.filter((k) => allowed.includes(k));
  if (matches.length === 1) return { address: `${matches[0]}/${value}` };
  if (matches.length > 1) {
    const both = matches.map((k) => `${k}/${value}`).join(' and ');
    return { error: `"${value}" is ambiguous: ${both} both exist; use a literal id or rename one` };
  }
  if (defined.length) {
    return { error: `wrong kind: "${value}" names ${defined.map((k) => `${k}/${value}`).join(' and ')}, but this field takes ${either(allowed)}` };
  }
  return { error: `no ${either(allowed)} named "${value}"${didYouMean(value, index.namesOf(allowed))}` };
}

// Cycles in the reference graph.
interface RefEdge {
  to: string;
  pos: SourcePos;
}

function findCycles(graph: ReadonlyMap<string, RefEdge[]>): ManifestIssue[] {
  const issues: ManifestIssue[] = [];
  const reported = new Set<string>();
  const targets = (node: string): string[] => (graph.get(node) ?? []).map((e) => e.to).filter((to) => graph.has(to));
  const onCycle = (cycle: string[]): void => {
    const key = [...cycle].sort().join(' ');
    if (reported.has(key)) return;
    reported.add(key);
    const start = cycle[0]!;
    const firstEdge = graph.get(start)!.find((e) => e.to === (cycle[1] ?? start))!;
    issues.push({ pos: firstEdge.pos, address: start, message: `reference cycle: ${[...cycle, start].join(' -> ')}` });
  };
  Array.from(dependencyOrder(graph.keys(), targets, onCycle)); // walked for its cycles
  return issues;
}
