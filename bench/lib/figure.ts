// One printed line per figure, the ratio last, and the same data kept for the Markdown table.

export interface Figure {
  /** Benchmark id, e.g. `plan-vs-fetch-floor`. */
  name: string;
  /** The measured values in display order, e.g. [['floor', '812.3 ms'], ['plan', '901.2 ms']]. */
  values: [label: string, value: string][];
  /** The headline ratio, already oriented the way the target is stated. */
  ratio: number;
  /** e.g. `<= 1.25x`. */
  target: string;
  ok: boolean;
  /** Extra facts for the notes (sample spread, counts). */
  note?: string;
}

export function ms(v: number): string {
  return `${v.toFixed(1)} ms`;
}

/** Decimal megabytes (10^6 bytes), as the 300 MB target is stated. */
export function mb(bytes: number): string {
  return `${(bytes / 1e6).toFixed(1)} MB`;
}

export function perSec(v: number): string {
  return `${Math.round(v).toLocaleString('en-US')} req/s`;
}

export function ratioText(r: number): string {
  return `${r.toFixed(2)}x`;
}

export function formatFigure(f: Figure): string {
  const vals = f.values.map(([l, v]) => `${l} ${v}`).join('  ');
  return `${f.name}  ${vals}  ratio ${ratioText(f.ratio)} (target ${f.target}) ${f.ok ? 'OK' : 'MISSED'}`;
}

/** Samples as `min/median/max` for the notes column. */
export function spread(samples: readonly number[], unit = 'ms'): string {
  const s = [...samples].sort((a, b) => a - b);
  const mid = s.length >> 1;
  const med = s.length % 2 ? s[mid]! : (s[mid - 1]! + s[mid]!) / 2;
  return `n=${s.length} min ${s[0]!.toFixed(1)} med ${med.toFixed(1)} max ${s[s.length - 1]!.toFixed(1)} ${unit}`;
}
