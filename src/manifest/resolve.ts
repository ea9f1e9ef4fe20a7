// Stage 4, resolve: documents -> desired resources. Reference fields become PendingRefs (names) or stay literal
// ids; nulls meaning "unset" are dropped; `{file}`/`{env}` secrets are read; the reference graph must have no
// cycle, and references across documents must agree (parents.ts); traffic policy text must be a policy
// document (policy-text.ts). No network.
import type { ManifestIssue } from '../errors.ts';
import { KINDS } from '../kinds/index.ts';
import type { Json, PendingRef, ResourceKind } from '../kinds/resource-kind.ts';
import { addressOf, type DesiredResource, type ManifestDoc } from './document.ts';
import { findCycles, type RefEdge } from './cycles.ts';
import { MOVED_FROM, movedFromAddresses } from './moved-from.ts';
import { misplacedPrivateKeyMessage, misplacedPrivateKeys } from './schema/formats.ts';
import { cloneJson, fieldPath, rememberSource, slotsAt, valuePos } from './pointer.ts';
import { checkParents, type ResolvedDoc } from './parents.ts';
import { NameIndex, resolveRef } from './refs.ts';
import { policyTextIssue } from './policy-text.ts';
import { resolveSecret } from './secrets.ts';
import { kindValidation } from './schema.ts';

export interface ResolveOptions {
  env?: NodeJS.ProcessEnv;
  /** Base for file names in messages (default: process.cwd()). */
  cwd?: string;
  /** The kinds to resolve against (default KINDS; tests pass their own). */
  kinds?: readonly ResourceKind[];
}

export interface ResolveResult {
  resources: DesiredResource[];
  /** Each resource with its document and kind (for the checks of resolved values, value-rules.ts). */
  resolved: ResolvedDoc[];
  issues: ManifestIssue[];
}

export function resolveDocs(docs: readonly ManifestDoc[], opts: ResolveOptions = {}): ResolveResult {
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
    const kind = kinds.get(doc.kind);
    if (!kind) continue; // the rules stage reports unknown kinds
    const address = addressOf(doc);
    const fail = (pointer: string, message: string): void => {
      issues.push({ pos: valuePos(doc, pointer), address, message });
    };
    const spec = cloneJson(doc.fields);
    delete spec[MOVED_FROM]; // not a field of the resource: it names the live resource to keep
    const validation = kindValidation(doc.kind);
    // A null where the schema takes one means "unset": the resource is as if the field were left out.
    for (const pattern of validation?.unsetPointers ?? []) {
      for (const slot of slotsAt(spec, pattern)) if (slot.value === null) slot.unset();
    }
    const dependsOn: string[] = [];
    const edges: RefEdge[] = [];

    for (const refField of kind.refs) {
      for (const slot of slotsAt(spec, refField.pointer)) {
        const outcome = resolveRef(slot.value, refField.kinds, index, kinds);
        if (!outcome || 'literal' in outcome) continue;
        if ('error' in outcome) {
          fail(slot.pointer, `${fieldPath(slot.pointer)}: ${outcome.error}`);
          continue;
        }
        const pending: PendingRef = { $ref: outcome.address };
        slot.set(pending as unknown as Json);
        if (!dependsOn.includes(outcome.address)) dependsOn.push(outcome.address);
        edges.push({ to: outcome.address, pos: valuePos(doc, slot.pointer) });
      }
    }

    for (const pattern of validation?.secretPointers ?? []) {
      const phases = validation?.policyPhases.get(pattern);
      for (const slot of slotsAt(spec, pattern)) {
        const written = slot.value;
        const outcome = resolveSecret(written, slot.pointer, { dir: doc.dir, cwd, env });
        if (outcome && 'error' in outcome) {
          fail(outcome.pointer, outcome.error);
          continue;
        }
        if (outcome) slot.set(outcome.value);
        const policy = phases && policyTextIssue(written, outcome ? outcome.value : written, slot.pointer, phases);
        if (policy) fail(policy.pointer, policy.message);
      }
    }
    for (const pointer of misplacedPrivateKeys(spec, kind.secrets ?? [])) fail(pointer, misplacedPrivateKeyMessage(pointer));

    const movedFrom = movedFromAddresses(doc);
    const resource: DesiredResource = { kind: doc.kind, name: doc.name, address, spec, dependsOn, pos: doc.pos, ...(movedFrom.length > 0 ? { movedFrom } : {}) };
    rememberSource(resource, doc);
    resources.push(resource);
    resolved.push({ doc, kind, resource });
    if (doc.name !== '' && !graph.has(address)) graph.set(address, edges);
  }
  issues.push(...findCycles(graph), ...checkParents(resolved));
  return { resources, resolved, issues };
}
