// "Did you mean" for kinds, fields and names: the closest candidate by edit distance, if close enough to be
// a plausible typo (case differences count as nothing).

/** Edit distance counting a swap of neighbours as one edit ("wbe" is one typo away from "web"). */
function distance(a: string, b: string): number {
  const rows: number[][] = Array.from({ length: a.length + 1 }, (_, i) => [i, ...Array<number>(b.length).fill(0)]);
  for (let j = 1; j <= b.length; j++) rows[0]![j] = j;
  for (let i = 1; i <= a.length; i++) {
    for (let j = 1; j <= b.length; j++) {
      const cost = a[i - 1] === b[j - 1] ? 0 : 1;
      let d = Math.min(rows[i - 1]![j]! + 1, rows[i]![j - 1]! + 1, rows[i - 1]![j - 1]! + cost);
      if (i > 1 && j > 1 && a[i - 1] === b[j - 2] && a[i - 2] === b[j - 1]) d = Math.min(d, rows[i - 2]![j - 2]! + 1);
      rows[i]![j] = d;
    }
  }
  return rows[a.length]![b.length]!;
}

export function closest(word: string, candidates: Iterable<string>): string | undefined {
  const w = word.toLowerCase();
  const limit = Math.max(1, Math.floor(w.length / 3));
  let best: string | undefined;
  let bestScore = Infinity;
  for (const c of candidates) {
    const score = distance(w, c.toLowerCase());
    if (score <= limit && score < bestScore) {
      best = c;
      bestScore = score;
    }
  }
  return best;
}

/** ` (did you mean "x"?)` or the empty string. */
export function didYouMean(word: string, candidates: Iterable<string>): string {
  const best = closest(word, candidates);
  return best === undefined ? '' : ` (did you mean "${best}"?)`;
}
