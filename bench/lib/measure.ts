// Timing primitives: monotonic clock, warm-up then repetitions, median. Benchmarks report the median so one
// GC pause or scheduler hiccup on a small machine does not decide the figure.

export function nowMs(): number {
  return Number(process.hrtime.bigint()) / 1e6;
}

export async function timeMs(fn: () => Promise<unknown>): Promise<number> {
  const start = process.hrtime.bigint();
  await fn();
  return Number(process.hrtime.bigint() - start) / 1e6;
}

export function median(values: readonly number[]): number {
  if (values.length === 0) throw new Error('median of no values');
  const sorted = [...values].sort((a, b) => a - b);
  const mid = sorted.length >> 1;
  return sorted.length % 2 ? sorted[mid]! : (sorted[mid - 1]! + sorted[mid]!) / 2;
}

/**
 * a against b as the median of the rounds' own ratios (a[i] / b[i], both measured in round i): a round that
 * the machine slowed down slows both sides, so the drift between rounds cancels out.
 */
export function pairedRatio(a: readonly number[], b: readonly number[]): number {
  if (a.length !== b.length) throw new Error(`paired samples differ in number: ${a.length} and ${b.length}`);
  return median(a.map((x, i) => x / b[i]!));
}

export interface RepeatOptions {
  warmup: number;
  reps: number;
}

/** Repetition counts, scaled down with BENCH_QUICK=1 for a smoke run. */
export function reps(warmup: number, repetitions: number): RepeatOptions {
  return process.env.BENCH_QUICK ? { warmup: Math.min(warmup, 1), reps: 1 } : { warmup, reps: repetitions };
}

/**
 * Runs each variant `warmup` times, then `reps` rounds in which every variant runs once, interleaved so that
 * drift (thermal, page cache, the service's SQLite cache) hits both sides alike. Returns per-variant samples.
 */
export async function interleaved<K extends string>(
  variants: Record<K, () => Promise<unknown>>,
  opts: RepeatOptions,
): Promise<Record<K, number[]>> {
  const names = Object.keys(variants) as K[];
  const samples = Object.fromEntries(names.map((n) => [n, [] as number[]])) as Record<K, number[]>;
  for (let i = 0; i < opts.warmup; i++) for (const n of names) await variants[n]();
  for (let i = 0; i < opts.reps; i++) for (const n of names) samples[n].push(await timeMs(variants[n]));
  return samples;
}
