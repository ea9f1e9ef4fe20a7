// The order names are shown in: runs of digits compare as numbers, so `bulk-2` comes before `bulk-10`, as a
// reader counts; everything else in code-unit order, so the order never depends on the machine's locale. Plans
// (and so drift reports), export files and `list` all sort by this one comparator.

const RUNS = /\d+|\D+/g;

/** Negative, zero or positive as `a` sorts before, with or after `b`. Equal only for equal strings. */
export function naturalCompare(a: string, b: string): number {
  if (a === b) return 0;
  const ra = a.match(RUNS) ?? [];
  const rb = b.match(RUNS) ?? [];
  for (let i = 0; i < Math.min(ra.length, rb.length); i++) {
    const x = ra[i]!;
    const y = rb[i]!;
    if (x === y) continue;
    if (isDigits(x) && isDigits(y)) {
      // As numbers, without a size limit; `01` and `1` are equal numbers, then ordered as text below.
      const byValue = compareDigits(x.replace(/^0+(?=\d)/, ''), y.replace(/^0+(?=\d)/, ''));
      if (byValue !== 0) return byValue;
    }
    return x < y ? -1 : 1;
  }
  return ra.length - rb.length || (a < b ? -1 : 1);
}

const isDigits = (run: string): boolean => run.charCodeAt(0) >= 48 && run.charCodeAt(0) <= 57;

/** Two runs of digits without leading zeros, by value: the longer is larger. */
function compareDigits(x: string, y: string): number {
  if (x.length !== y.length) return x.length - y.length;
  return x < y ? -1 : x > y ? 1 : 0;
}
