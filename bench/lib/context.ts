// What every benchmark gets from the runner: a scratch directory, progress logging, and seeded SQLite
// templates shared across benchmarks of one run (seeding 20,000 resources once is enough).
import type { Figure } from './figure.ts';
import type { SeedSet } from './seed.ts';

export interface BenchContext {
  /** Scratch directory of this run, removed at the end unless BENCH_KEEP is set. */
  tmp: string;
  /** Progress to stderr, so stdout keeps one line per figure. */
  log(msg: string): void;
  /** A SQLite file holding `count` managed resources applied from generated manifests (cached per run). */
  seeded(count: number): Promise<SeedSet>;
}

export interface Benchmark {
  /** Used on the command line: `npm run bench -- <name>`. */
  name: string;
  /** Its number in the table of bench/README.md. */
  id: number;
  title: string;
  run(ctx: BenchContext): Promise<Figure[]>;
}
