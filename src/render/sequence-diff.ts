// The difference of two sequences (the lines of two texts, the entries of two lists) as unchanged, removed and
// added entries in order, the way `diff` shows it: the longest common subsequence is kept, the rest is removed
// or added. Plans use it for multi-line strings (with unchanged lines as context, as Terraform shows heredocs)
// and for lists shown entry by entry.

type DiffOp<T> = { op: ' ' | '-' | '+'; item: T };

/** Most cells of the LCS table: beyond it, the changed middle is shown as removed then added, whole. */
const MAX_CELLS = 4_000_000;

/** `old` -> `new` as ops; `same` tells equal entries (strict equality by default). */
export function diffSequences<T>(old: readonly T[], neu: readonly T[], same: (a: T, b: T) => boolean = (a, b) => a === b): DiffOp<T>[] {
  // The common head and tail cost nothing; only the middle needs the table.
  let head = 0;
  while (head < old.length && head < neu.length && same(old[head]!, neu[head]!)) head++;
  let tail = 0;
  while (tail < old.length - head && tail < neu.length - head && same(old[old.length - 1 - tail]!, neu[neu.length - 1 - tail]!)) tail++;
  const a = old.slice(head, old.length - tail);
  const b = neu.slice(head, neu.length - tail);
  const ops: DiffOp<T>[] = old.slice(0, head).map((item) => ({ op: ' ', item }));
  ops.push(...middle(a, b, same));
  ops.push(...old.slice(old.length - tail).map((item): DiffOp<T> => ({ op: ' ', item })));
  return ops;
}

function middle<T>(a: readonly T[], b: readonly T[], same: (x: T, y: T) => boolean): DiffOp<T>[] {
  const removed = a.map((item): DiffOp<T> => ({ op: '-', item }));
  const added = b.map((item): DiffOp<T> => ({ op: '+', item }));
  if (a.length === 0 || b.length === 0 || (a.length + 1) * (b.length + 1) > MAX_CELLS) return [...removed, ...added];
  // lcs[i][j]: length of the longest common subsequence of a[i..] and b[j..].
  const width = b.length + 1;
  const lcs = new Uint32Array((a.length + 1) * width);
  for (let i = a.length - 1; i >= 0; i--) {
    for (let j = b.length - 1; j >= 0; j--) {
      lcs[i * width + j] = same(a[i]!, b[j]!) ? lcs[(i + 1) * width + j + 1]! + 1 : Math.max(lcs[(i + 1) * width + j]!, lcs[i * width + j + 1]!);
    }
  }
  const ops: DiffOp<T>[] = [];
  let i = 0;
  let j = 0;
  while (i < a.length && j < b.length) {
    if (same(a[i]!, b[j]!)) {
      ops.push({ op: ' ', item: a[i]! });
      i++;
      j++;
    } else if (lcs[(i + 1) * width + j]! >= lcs[i * width + j + 1]!) {
      ops.push({ op: '-', item: a[i++]! });
    } else {
      ops.push({ op: '+', item: b[j++]! });
    }
  }
  while (i < a.length) ops.push({ op: '-', item: a[i++]! });
  while (j < b.length) ops.push({ op: '+', item: b[j++]! });
  return ops;
}

/** A run of unchanged entries left out of a diff: how many. */
type Elided = { op: 'elided'; count: number };

/**
 * The ops with only `context` unchanged entries kept next to each change; longer unchanged runs become one
 * Elided entry. A diff without changes keeps nothing but its count.
 */
export function withContext<T>(ops: readonly DiffOp<T>[], context: number): (DiffOp<T> | Elided)[] {
  const out: (DiffOp<T> | Elided)[] = [];
  let i = 0;
  while (i < ops.length) {
    if (ops[i]!.op !== ' ') {
      out.push(ops[i++]!);
      continue;
    }
    let end = i;
    while (end < ops.length && ops[end]!.op === ' ') end++;
    const keepBefore = i === 0 ? 0 : context;
    const keepAfter = end === ops.length ? 0 : context;
    if (end - i <= keepBefore + keepAfter + 1) {
      out.push(...ops.slice(i, end));
    } else {
      out.push(...ops.slice(i, i + keepBefore), { op: 'elided', count: end - i - keepBefore - keepAfter }, ...ops.slice(end - keepAfter, end));
    }
    i = end;
  }
  return out;
}
