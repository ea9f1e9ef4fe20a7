// Policies compiled: every expression parsed and type-checked once per kind the policy matches (`object` typed by
// the kind's schema), so a misspelled field or a syntax error is an issue at the expression's file:line:col.
import type { ManifestIssue, SourcePos } from '../errors.ts';
import { addressOf } from '../manifest/document.ts';
import { kindEnvironment, isResourceKind } from './cel-env.ts';
import type { CelDecl } from './cel-types.ts';
import { countSteps } from './cost.ts';
import type { CelSource, PolicyDoc } from './documents.ts';

/** A checked expression, ready to run against a context of variables. */
export interface Program {
  source: CelSource;
  run(context: Record<string, unknown>): unknown;
}

export interface KindPrograms {
  /** The kind's `object` declaration (undefined: any kind, `object` is dyn). */
  decl: { [field: string]: CelDecl } | undefined;
  variables: { name: string; program: Program }[];
  validations: { program: Program; message?: Program }[];
  /** Whether any expression reads oldObject (such a policy needs live state: validate does not run it). */
  readsOld: boolean;
}

export interface CompiledPolicy {
  policy: PolicyDoc;
  /** By kind; the key '' when the policy names no kinds. */
  byKind: Map<string, KindPrograms>;
}

/** Reads one line of a file, 1-based: where an expression's text begins inside its YAML value. */
export type LineReader = (file: string, line: number) => string | undefined;

/** The position of `offset` inside an expression written at `pos` (plain, quoted, or a block scalar). */
export function positionIn(expression: string, offset: number, pos: SourcePos, readLine: LineReader): SourcePos {
  // An error at the end of the input (an expression left unfinished) is shown after its last character.
  const before = expression.slice(0, Math.min(offset, expression.trimEnd().length)).split('\n');
  const lineIndex = before.length - 1;
  const colInLine = before[lineIndex]!.length;
  const source = readLine(pos.file, pos.line);
  const at = source?.[pos.col - 1];
  if (at === '|' || at === '>') {
    const first = readLine(pos.file, pos.line + 1) ?? '';
    const indent = first.length - first.trimStart().length;
    return { file: pos.file, line: pos.line + 1 + lineIndex, col: indent + 1 + colInLine };
  }
  if (lineIndex > 0) return { file: pos.file, line: pos.line + lineIndex, col: colInLine + 1 };
  return { file: pos.file, line: pos.line, col: pos.col + (at === '"' || at === "'" ? 1 : 0) + colInLine };
}

interface CelError extends Error {
  range?: { start: number; end: number };
}

const firstLine = (message: string): string => message.split('\n')[0]!.trim();

function compileKind(policy: PolicyDoc, kind: string | undefined, readLine: LineReader, issues: ManifestIssue[]): KindPrograms | undefined {
  const { env: kindEnv, decl } = kindEnvironment(kind);
  const env = kindEnv.clone();
  const address = addressOf(policy.doc);
  const of = kind === undefined ? '' : ` (for ${kind})`;
  let ok = true;
  const compile = (source: CelSource, expect: string | undefined): { program: Program; type: string } | undefined => {
    const pos = policy.doc.positions.get(source.pointer) ?? policy.doc.pos;
    const fail = (offset: number, message: string): undefined => {
      issues.push({ pos: positionIn(source.expression, offset, pos, readLine), address, pointer: source.pointer, message: `${message}${of}` });
      ok = false;
      return undefined;
    };
    let parsed: ReturnType<typeof env.parse>;
    try {
      parsed = env.parse(source.expression);
    } catch (err) {
      return fail((err as CelError).range?.start ?? 0, `syntax error: ${firstLine((err as Error).message)}`);
    }
    const checked = parsed.check();
    if (!checked.valid) {
      const error = checked.error as CelError | undefined;
      return fail(error?.range?.start ?? 0, `type error: ${firstLine(error?.message ?? 'invalid expression')}`);
    }
    const type = checked.type ?? 'dyn';
    if (expect && type !== expect && type !== 'dyn') return fail(0, `must be of type ${expect}, not ${type}`);
    countSteps(parsed.ast);
    return { program: { source, run: (context) => parsed(context) }, type };
  };
  const variables: KindPrograms['variables'] = [];
  for (const v of policy.variables) {
    const done = compile(v, undefined);
    if (!done) continue;
    variables.push({ name: v.name, program: done.program });
    if (env.hasVariable(v.name)) {
      issues.push({ pos: policy.doc.positions.get(v.pointer.replace(/expression$/, 'name')) ?? policy.doc.pos, address, message: `variable "${v.name}" hides a name every expression sees` });
      ok = false;
      continue;
    }
    try {
      env.registerVariable(v.name, done.type);
    } catch {
      env.registerVariable(v.name, 'dyn');
    }
  }
  const validations: KindPrograms['validations'] = [];
  for (const v of policy.validations) {
    const program = compile(v, 'bool');
    const message = v.messageExpression ? compile(v.messageExpression, 'string') : undefined;
    if (program) validations.push({ program: program.program, ...(message ? { message: message.program } : {}) });
  }
  if (!ok) return undefined;
  const texts = [...policy.variables, ...policy.validations, ...policy.validations.flatMap((v) => (v.messageExpression ? [v.messageExpression] : []))];
  return { decl, variables, validations, readsOld: texts.some((t) => /\boldObject\b/.test(t.expression)) };
}

/** Each policy compiled for each kind it matches; a policy with any issue is left out. */
export function compilePolicies(policies: readonly PolicyDoc[], readLine: LineReader): { compiled: CompiledPolicy[]; issues: ManifestIssue[] } {
  const issues: ManifestIssue[] = [];
  const compiled: CompiledPolicy[] = [];
  for (const policy of policies) {
    const before = issues.length;
    const kinds = policy.match.kinds ?? [undefined];
    policy.match.kinds?.forEach((kind, i) => {
      if (!isResourceKind(kind)) issues.push({ pos: policy.doc.positions.get(`/match/kinds/${i}`) ?? policy.doc.pos, address: addressOf(policy.doc), pointer: `/match/kinds/${i}`, message: `"${kind}" is not a resource kind` });
    });
    if (issues.length > before) continue;
    const byKind = new Map<string, KindPrograms>();
    for (const kind of kinds) {
      const programs = compileKind(policy, kind, readLine, issues);
      if (programs) byKind.set(kind ?? '', programs);
    }
    if (issues.length === before) compiled.push({ policy, byKind });
  }
  return { compiled, issues };
}
