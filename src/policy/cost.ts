// The cost limit: every evaluation may take at most COST_LIMIT steps (one step = one node of the expression
// evaluated, so each iteration of all()/exists()/map() counts its body), and no policy can hang a plan. The CEL
// library has parse-time limits only; the step count is added by wrapping each checked node's evaluate hook.
// That reaches into the library's AST (`meta`, `setMeta`, `args`): the version is pinned exactly, and
// test/cli/policy.test.ts ("stops an expensive expression at the cost limit") fails if a new version stops counting.

const COST_LIMIT = 1_000_000;

export class CostLimitError extends Error {
  constructor(readonly limit: number) {
    super(`the expression exceeded the cost limit of ${limit.toLocaleString('en-US')} evaluation steps`);
  }
}

let remaining = 0;

/** Runs `evaluate` with a budget of `limit` steps for the nodes wrapped by countSteps. */
export function withCostLimit<T>(evaluate: () => T, limit = COST_LIMIT): T {
  const outer = remaining;
  remaining = limit;
  try {
    return evaluate();
  } finally {
    remaining = outer;
  }
}

interface AstNode {
  op: string;
  args: unknown;
  meta: { evaluate?: Evaluate; alternate?: AstNode; macro?: { evaluate?: Evaluate } };
  setMeta(key: string, value: unknown): AstNode;
}
type Evaluate = (this: unknown, ...args: unknown[]) => unknown;

const COMPREHENSION_PARTS = ['iterable', 'init', 'step', 'condition'];

const isNode = (x: unknown): x is AstNode =>
  typeof x === 'object' && x !== null && typeof (x as AstNode).op === 'string' && typeof (x as AstNode).setMeta === 'function';

const counted = <F extends Evaluate>(inner: F): Evaluate =>
  function (this: unknown, ...args: unknown[]) {
    if (--remaining < 0) throw new CostLimitError(COST_LIMIT);
    return inner.apply(this, args);
  };

/** Every node reachable from `root` counts a step when evaluated. Call once, after the type check. */
export function countSteps(root: unknown): void {
  const seen = new Set<unknown>();
  const visit = (value: unknown): void => {
    if (value === null || typeof value !== 'object' || seen.has(value)) return;
    seen.add(value);
    if (Array.isArray(value)) {
      for (const v of value) visit(v);
      return;
    }
    if (!isNode(value)) {
      // A comprehension's parts; its other members (the checker's contexts) hold no nodes of this expression.
      for (const key of COMPREHENSION_PARTS) visit((value as Record<string, unknown>)[key]);
      return;
    }
    const meta = value.meta;
    if (meta.alternate) visit(meta.alternate);
    else if (meta.macro) {
      if (typeof meta.macro.evaluate === 'function') meta.macro.evaluate = counted(meta.macro.evaluate);
      visit((meta.macro as { args?: unknown }).args);
    } else if (typeof meta.evaluate === 'function') value.setMeta('evaluate', counted(meta.evaluate));
    visit(value.args);
  };
  visit(root);
}
