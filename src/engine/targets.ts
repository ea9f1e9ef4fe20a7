// `--target Kind/name`: a plan of only some resources, as Terraform's -target makes one. The full plan is made
// first (so every kept action is exactly the action the full plan has), then cut down to the targets and what
// they reference, transitively, by the documents' references: an edge's backend and IP policies are kept, a
// policy's rules are not (they reference the policy, not the other way round). A target that no document names
// but that this stack manages live is a delete, and only that delete is kept. Nothing outside the selection is
// planned, deleted included. Pure.
import { EdgeopsError, type ManifestIssue } from '../errors.ts';
import type { ResourceKind } from '../kinds/resource-kind.ts';
import type { DesiredState } from '../manifest/document.ts';
import { closeMatches } from '../manifest/schema/messages.ts';
import { managedBy, type LiveState } from './live.ts';
import { stepId } from './graph.ts';
import type { Action, Plan, PlanTargets } from './plan-data.ts';
import { summarize } from './plan.ts';
import { deleteWarnings } from './safety.ts';

/** `Kind/name`, as `--target` takes it: a kind's name, `/`, a name (for an item without a document, its ids). */
export const TARGET_FORM = /^[A-Za-z][A-Za-z0-9]*\/\S+$/;

/** The targets, sorted and without repeats (the order they were given in means nothing). */
export const normalizedTargets = (targets: readonly string[]): string[] => [...new Set(targets)].sort();

/** Old addresses (`moved_from`) that name a document's resource now: a target may still use them. */
function renames(desired: DesiredState): Map<string, string> {
  const documents = new Set(desired.resources.map((r) => r.address));
  const out = new Map<string, string>();
  for (const r of desired.resources) for (const old of r.movedFrom ?? []) if (!documents.has(old)) out.set(old, r.address);
  return out;
}

/** The targets and, for each one a document names, every document it references, transitively. */
export function targetClosure(desired: DesiredState, targets: readonly string[]): Set<string> {
  const byAddress = new Map(desired.resources.map((r) => [r.address, r]));
  const renamed = renames(desired);
  const selected = new Set<string>();
  const pending = targets.map((t) => renamed.get(t) ?? t);
  while (pending.length > 0) {
    const address = pending.pop()!;
    if (selected.has(address)) continue;
    selected.add(address);
    for (const dep of byAddress.get(address)?.dependsOn ?? []) pending.push(dep);
  }
  return selected;
}

/** Every address a plan of the stack can act on: the documents, the managed resources, and the plan's own. */
function universe(plan: Plan, desired: DesiredState, live: LiveState, kinds: readonly ResourceKind[]): Set<string> {
  const renamed = renames(desired);
  const all = new Set(desired.resources.map((r) => r.address));
  for (const address of managedBy(live, plan.stack).byAddress.keys()) if (!renamed.has(address)) all.add(address);
  for (const a of plan.actions) all.add(a.address);
  return all;
}

/** `a`, `a or b`, `a, b or c`. */
const alternatives = (list: readonly string[]): string => (list.length <= 1 ? list.join('') : `${list.slice(0, -1).join(', ')} or ${list[list.length - 1]}`);

const split = (address: string): [string, string] => [address.slice(0, address.indexOf('/')), address.slice(address.indexOf('/') + 1)];

/**
 * Addresses a mistyped target may have meant: of its kind, those with a name close to its name; and those of
 * its name whose kind is close to its kind (its letters in another case, a neighbouring kind of the same name).
 */
function closeTargets(target: string, known: ReadonlySet<string>): string[] {
  const [kind, name] = split(target);
  const all = [...known].map(split);
  const byName = closeMatches(name, all.filter(([k]) => k === kind).map(([, n]) => n)).map((n) => `${kind}/${n}`);
  const byKind = closeMatches(kind, all.filter(([k, n]) => n === name && k !== kind).map(([k]) => k)).map((k) => `${k}/${name}`);
  return [...new Set([...byName, ...byKind])].slice(0, 3);
}

/** Refuses targets that name nothing the plan could act on, each with the addresses close to it. */
function assertKnown(targets: readonly string[], known: ReadonlySet<string>, renamed: ReadonlyMap<string, string>, stack: string): void {
  const unknown = targets.filter((t) => !known.has(t) && !renamed.has(t));
  if (unknown.length === 0) return;
  const lines = unknown.map((t) => {
    const close = closeTargets(t, known);
    const hint = close.length > 0 ? ` (did you mean ${alternatives(close)}?)` : '';
    return `--target ${t} names no resource of stack "${stack}": no document has that Kind/name, and no live resource of the stack carries it${hint}`;
  });
  throw new EdgeopsError('E_UNKNOWN_TARGET', lines.join('\n'));
}

/** Whether a message names one of the addresses (as a whole `Kind/name`, not the start of a longer name). */
function mentions(text: string, addresses: ReadonlySet<string>): boolean {
  for (const match of text.matchAll(/[A-Za-z][A-Za-z0-9]*\/[A-Za-z0-9_-]+/g)) if (addresses.has(match[0])) return true;
  return false;
}

/** Each step of the actions (a replace has two) by the id a `dependsOn` names it with. */
function stepsOf(actions: Iterable<Action>): Map<string, Action> {
  const steps = new Map<string, Action>();
  for (const a of actions) {
    steps.set(stepId(a), a);
    if (a.op === 'replace') steps.set(stepId(a, 'delete-old'), a);
  }
  return steps;
}

/**
 * A warning for each kept action that, in the full plan, waits for one that the targets leave out: the
 * targeted apply runs it without that step first (a rule of a new policy, a dependent repointed before an old
 * resource goes, a value released by another resource), so it may fail, or pass through a state the full plan
 * avoids. `dropped`: the actions left out, by step id (stepsOf).
 */
function leftOutPrerequisites(kept: readonly Action[], dropped: ReadonlyMap<string, Action>): string[] {
  const waits = new Map<string, Map<string, string>>();
  for (const a of kept) {
    for (const id of [...a.dependsOn, ...(a.deleteDependsOn ?? [])]) {
      const other = dropped.get(id);
      if (!other) continue;
      const steps = waits.get(a.address) ?? new Map<string, string>();
      steps.set(`${other.op} ${other.address}`, other.address);
      waits.set(a.address, steps);
    }
  }
  return [...waits].sort(([a], [b]) => (a < b ? -1 : 1)).map(([address, steps]) => {
    const list = [...steps.keys()].sort();
    const add = [...new Set(steps.values())].sort().map((t) => `--target ${t}`).join(' ');
    const them = list.length === 1 ? 'it' : 'them';
    return `${address}: in the full plan it waits for ${list.join(', ')}, which --target leaves out; the targeted apply runs without ${them} (add ${add} to include ${them})`;
  });
}

interface TargetInput {
  kinds: readonly ResourceKind[];
  desired: DesiredState;
  live: LiveState;
  targets: readonly string[];
}

/**
 * The plan cut down to the targets and what they reference: their actions only (links to other actions
 * dropped), the summary, warnings and errors of those resources, delete warnings counted again, and
 * `targets` recorded. Throws E_UNKNOWN_TARGET for a target that names nothing the stack has.
 */
export function targetPlan(plan: Plan, input: TargetInput): Plan {
  const targets = normalizedTargets(input.targets);
  const known = universe(plan, input.desired, input.live, input.kinds);
  assertKnown(targets, known, renames(input.desired), plan.stack);
  const selected = targetClosure(input.desired, targets);
  const kept = plan.actions.filter((a) => selected.has(a.address));
  const keptSteps = stepsOf(kept);
  const dropped = stepsOf(plan.actions.filter((a) => !selected.has(a.address)));
  const linked = (ids: readonly string[]): string[] => ids.filter((id) => keptSteps.has(id));
  const actions = kept.map((a) => ({
    ...a,
    dependsOn: linked(a.dependsOn),
    ...(a.deleteDependsOn ? { deleteDependsOn: linked(a.deleteDependsOn) } : {}),
  }));
  const fullLimits = new Set(deleteWarnings(plan, input.desired.config));
  const out: Plan = { ...plan, actions, summary: summarize(actions), warnings: [] };
  out.warnings = [
    ...leftOutPrerequisites(kept, dropped),
    ...plan.warnings.filter((w) => !fullLimits.has(w) && mentions(w, selected)),
    ...deleteWarnings(out, input.desired.config),
  ];
  const errors = targetedErrors(plan.errors ?? [], selected);
  if (errors.length > 0) out.errors = errors;
  else delete out.errors;
  out.targets = { addresses: targets, resources: [...selected].filter((a) => known.has(a)).length, of: known.size };
  return out;
}

/** The plan errors of the selected documents (and those of no document): the others' resources are not planned. */
export function targetedErrors(errors: readonly ManifestIssue[], selected: ReadonlySet<string>): ManifestIssue[] {
  return errors.filter((e) => e.address === undefined || selected.has(e.address));
}
