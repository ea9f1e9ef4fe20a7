// `edgeops policy test`: each PolicyTest case runs its policy through the same evaluation as a plan (runPolicies)
// and must come out as `expect` says: pass, or the severity of the strongest result.
import type { Obj } from '../kinds/resource-kind.ts';
import type { PolicyTestCase, PolicyTestDoc } from './documents.ts';
import { runPolicies, type PolicyTarget } from './evaluate.ts';
import type { PolicySet } from './policy-set.ts';

interface CaseOutcome {
  test: string;
  policy: string;
  /** `#index` or the case's name. */
  label: string;
  expect: PolicyTestCase['expect'];
  actual: PolicyTestCase['expect'] | 'error';
  ok: boolean;
  /** The results' messages, or the evaluation's problem. */
  detail: string[];
  /** Where the case is written. */
  where: string;
}

const RANK = { pass: 0, info: 1, warn: 2, deny: 3 } as const;

function runCase(set: PolicySet, test: PolicyTestDoc, c: PolicyTestCase): CaseOutcome {
  const label = c.name ?? `#${c.index + 1}`;
  const pos = test.doc.positions.get(`/cases/${c.index}`) ?? test.doc.pos;
  const base = { test: test.name, policy: test.policy, label, expect: c.expect, where: `${pos.file}:${pos.line}:${pos.col}` };
  const compiled = set.policies.find((p) => p.policy.name === test.policy);
  if (!compiled) return { ...base, actual: 'error', ok: false, detail: [`no policy named "${test.policy}" (or it did not compile)`] };
  const kind = c.kind ?? compiled.policy.match.kinds?.[0] ?? '';
  const object = (c.object ?? null) as Obj | null;
  const oldObject = (c.oldObject ?? null) as Obj | null;
  const name = String((object ?? oldObject ?? {}).name ?? label);
  const target: PolicyTarget = { kind, name, address: `${kind}/${name}`, operation: c.operation ?? (oldObject ? 'update' : 'create'), object: object ?? oldObject, oldObject };
  const { report, issues } = runPolicies({
    set: { ...set, policies: [compiled], exceptions: [] },
    stack: c.stack ?? 'default',
    ...(c.environment !== undefined ? { environment: c.environment } : {}),
    now: c.now ? new Date(c.now) : new Date(),
    targets: [target],
    docs: { [kind]: object ? [object] : [] },
    mode: 'plan',
  });
  if (issues.length > 0) return { ...base, actual: 'error', ok: false, detail: issues.map((i) => i.message) };
  const actual = report.results.reduce<PolicyTestCase['expect']>((worst, r) => (RANK[r.severity] > RANK[worst] ? r.severity : worst), 'pass');
  return { ...base, actual, ok: actual === c.expect, detail: report.results.map((r) => r.message) };
}

/** Every case of every test in the set, in file order. */
export function runPolicyTests(set: PolicySet): CaseOutcome[] {
  return set.tests.flatMap((test) => test.cases.map((c) => runCase(set, test, c)));
}

export function caseLine(o: CaseOutcome): string {
  const verdict = o.ok ? 'PASS' : 'FAIL';
  const got = o.ok ? o.actual : `expected ${o.expect}, got ${o.actual}`;
  const detail = o.detail.length > 0 ? `: ${o.detail.join('; ')}` : '';
  return `${verdict} ${o.policy} ${o.label} (${o.where}): ${got}${detail}`;
}
