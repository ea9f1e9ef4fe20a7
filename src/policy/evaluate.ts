// Policies run over targets: each document (or live resource) a policy matches, with its operation. A false
// validation is a result at the offending field's line, whose severity follows `enforce_from`, whose blocking
// follows the scope rule (only what the plan changes can be denied) and the exceptions. An expression that fails
// to evaluate, or runs past the cost limit, is an issue at the expression's own position.
import type { ManifestIssue, SourcePos } from '../errors.ts';
import type { Obj } from '../kinds/resource-kind.ts';
import type { ManifestDoc } from '../manifest/document.ts';
import { toCel } from './cel-types.ts';
import { positionIn, type CompiledPolicy, type KindPrograms, type Program } from './compile.ts';
import { CostLimitError, withCostLimit } from './cost.ts';
import type { MatchOperation, PolicyDoc } from './documents.ts';
import { offendingField } from './fields.ts';
import { exceptionFor, type ExceptionApproval } from './exceptions.ts';
import type { PolicySet } from './policy-set.ts';
import { compareResults, type PolicyReport, type PolicyResult } from './results.ts';

export interface PolicyTarget {
  kind: string;
  name: string;
  address: string;
  operation: MatchOperation;
  object: Obj | null;
  oldObject: Obj | null;
  /** The document, for the offending field's position; absent for a live resource no document names. */
  doc?: ManifestDoc;
}

interface RunInput {
  set: PolicySet;
  stack: string;
  environment?: string;
  now: Date;
  targets: readonly PolicyTarget[];
  /** The stack's desired documents by kind, as `object`s. */
  docs: Record<string, Obj[]>;
  /** `drift`: every result is a finding (no scope rule); `plan`: the scope rule applies. */
  mode: 'plan' | 'drift';
  /** Whether an exception counts (the Action: approved by an owner); every committed one counts otherwise. */
  approval?: ExceptionApproval;
  /** Only policies that read no live state (`validate`). */
  staticOnly?: boolean;
}

const dateOf = (day: string): Date => new Date(`${day}T00:00:00Z`);

/** `prod*` matches `prod` and `prod-eu`; anything else matches itself. */
const matches = (patterns: readonly string[] | undefined, value: string | undefined): boolean =>
  patterns === undefined || (value !== undefined && patterns.some((p) => (p.endsWith('*') ? value.startsWith(p.slice(0, -1)) : p === value)));

function applies(policy: PolicyDoc, target: PolicyTarget, input: RunInput): boolean {
  const m = policy.match;
  if (m.kinds && !m.kinds.includes(target.kind)) return false;
  if (!matches(m.environments, input.environment) || !matches(m.stacks, input.stack)) return false;
  // Unchanged documents are always looked at (reported as existing); changes only for the operations named.
  if (input.mode === 'drift' || target.operation === 'none') return target.object !== null;
  return m.operations.includes(target.operation);
}

function run(program: Program, context: Record<string, unknown>): unknown {
  return withCostLimit(() => program.run(context));
}

interface Violation {
  message: string;
  field: string;
  pointer: string;
}

/** The violations of one policy for one target. */
function violations(programs: KindPrograms, policy: PolicyDoc, context: Record<string, unknown>, issue: (program: Program, err: unknown) => void): Violation[] {
  const ctx = { ...context };
  for (const v of programs.variables) {
    try {
      ctx[v.name] = run(v.program, ctx);
    } catch (err) {
      issue(v.program, err);
      return [];
    }
  }
  const found: Violation[] = [];
  programs.validations.forEach((v, i) => {
    let ok: unknown;
    try {
      ok = run(v.program, ctx);
    } catch (err) {
      issue(v.program, err);
      return;
    }
    if (ok === true) return;
    const validation = policy.validations[i]!;
    let message = validation.message ?? `${policy.description ?? 'violates the policy'}`;
    if (v.message) {
      try {
        message = String(run(v.message, ctx));
      } catch (err) {
        issue(v.message, err);
      }
    }
    found.push({ message, ...offendingField(validation, policy) });
  });
  return found;
}

function locate(target: PolicyTarget, pointer: string, policy: PolicyDoc, validationPointer: string): SourcePos {
  if (target.doc) {
    for (let p = pointer; ; p = p.slice(0, p.lastIndexOf('/'))) {
      const pos = target.doc.positions.get(p);
      if (pos) return pos;
      if (p === '') return target.doc.pos;
    }
  }
  return policy.doc.positions.get(validationPointer) ?? policy.doc.pos;
}

export function runPolicies(input: RunInput): { report: PolicyReport; issues: ManifestIssue[] } {
  const results: PolicyResult[] = [];
  const issues: ManifestIssue[] = [];
  const used = new Set<string>();
  const warnings = new Set<string>();
  const today = input.now;
  const docs = toCel(input.docs);
  for (const compiled of input.set.policies) {
    const { policy } = compiled;
    for (const target of input.targets) {
      if (!applies(policy, target, input)) continue;
      const programs = programsFor(compiled, target.kind);
      if (!programs || (input.staticOnly && programs.readsOld)) continue;
      const context = {
        object: toCel(target.object, programs.decl),
        oldObject: target.oldObject === null ? null : toCel(target.oldObject),
        operation: target.operation,
        stack: input.stack,
        environment: input.environment ?? '',
        docs,
        now: input.now,
      };
      const issue = (program: Program, err: unknown): void => {
        const pos = policy.doc.positions.get(program.source.pointer) ?? policy.doc.pos;
        const range = (err as { range?: { start: number } }).range;
        const what = err instanceof CostLimitError ? err.message : `could not be evaluated: ${(err as Error).message.split('\n')[0]}`;
        issues.push({ pos: range ? positionIn(program.source.expression, range.start, pos, input.set.readLine) : pos, address: `Policy/${policy.name}`, pointer: program.source.pointer, message: `on ${target.address}: ${what}` });
      };
      for (const v of violations(programs, policy, context, issue)) {
        let severity = policy.severity;
        let message = v.message;
        if (severity === 'deny' && policy.enforceFrom && today < dateOf(policy.enforceFrom)) {
          severity = 'warn';
          message += ` (a warning until ${policy.enforceFrom}, denied from then)`;
        }
        const existing = input.mode === 'plan' && target.operation === 'none' && !policy.match.operations.includes('none');
        const exception = exceptionFor(input.set.exceptions, policy, target.address, { now: today, approval: input.approval });
        if (exception.note) warnings.add(exception.note);
        if (exception.used) used.add(exception.used.name);
        const honoured = exception.used !== undefined && exception.pending === undefined;
        const pos = locate(target, v.pointer, policy, policy.validations[0]!.pointer);
        results.push({
          policy: policy.name,
          severity,
          target: target.address,
          field: v.field,
          message,
          file: pos.file,
          line: pos.line,
          col: pos.col,
          exception: exception.used?.name ?? null,
          ...(existing ? { existing: true as const } : {}),
          ...(exception.pending ? { exception_pending: exception.pending } : {}),
          blocking: input.mode === 'plan' && severity === 'deny' && !existing && !honoured,
        });
      }
    }
  }
  results.sort(compareResults);
  return { report: { results, exceptions: [...used].sort(), warnings: [...warnings].sort(), digest: input.set.digest }, issues };
}

function programsFor(compiled: CompiledPolicy, kind: string): KindPrograms | undefined {
  return compiled.byKind.get(kind) ?? compiled.byKind.get('');
}
