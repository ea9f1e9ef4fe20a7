// A run over several stacks, as people and programs read it: one section per stack (its name and directory over
// the stack's own report, unchanged), then a summary table with a row per stack; a stack without changes or drift
// is its row alone. As JSON, one document: `{"format_version", "stacks": [{stack, dir, environment, ...}]}` where
// each stack's report is the single-stack JSON unchanged, and a failed stack has `error` instead.
import type { PlanSummary } from '../engine/plan-data.ts';
import type { JsonFailure } from './error-text.ts';
import { JSON_PLAN_VERSION } from './json.ts';

export type ReportFormat = 'text' | 'markdown';

/** One stack of the run, as the summary shows it. */
export interface StackRow {
  stack: string;
  dir: string;
  environment: string | null;
  /** The plan's counts (plan, apply); undefined when the stack failed. */
  summary?: PlanSummary;
  /** drift: the number of resources that drifted; undefined when the stack failed. */
  drifted?: number;
  checksum?: string;
  /** Why the row has no counts: `failed`, `skipped: edge-staging failed`. */
  status?: string;
  /** Not planned, and no failure: `unchanged since origin/main`. */
  note?: string;
}

export function stackHeading(format: ReportFormat, stack: string, dir: string): string {
  if (format === 'markdown') return `## Stack \`${stack}\` (\`${dir.replace(/`/g, '')}\`)\n\n`;
  const title = `Stack ${stack} (${dir})`;
  return `${title}\n${'='.repeat(title.length)}\n`;
}

const hasChanges = (s: PlanSummary): boolean => s.create + s.update + s.replace + s.delete > 0;

/** Whether a stack's section is printed: it changes, drifted, or failed (else its row says all). */
export const worthASection = (row: StackRow): boolean =>
  row.status !== undefined || (row.summary !== undefined && hasChanges(row.summary)) || (row.drifted !== undefined && row.drifted > 0);

function table(format: ReportFormat, header: string[], rows: string[][]): string {
  if (format === 'markdown') {
    const line = (cells: string[]): string => `| ${cells.map((c) => c.replace(/\|/g, '\\|')).join(' | ')} |`;
    return `${[line(header), line(header.map(() => '---')), ...rows.map(line)].join('\n')}\n`;
  }
  const widths = header.map((h, i) => Math.max(h.length, ...rows.map((r) => r[i]!.length)));
  const line = (cells: string[]): string => cells.map((c, i) => (i === cells.length - 1 ? c : c.padEnd(widths[i]!))).join('  ').trimEnd();
  return `${[header, ...rows].map(line).join('\n')}\n`;
}

const counted = (rows: readonly StackRow[], what: (r: StackRow) => boolean): number => rows.filter(what).length;

function summaryHeadline(format: ReportFormat, rows: readonly StackRow[], changed: number, what: string): string {
  const failed = counted(rows, (r) => r.status !== undefined);
  const parts = [`${rows.length} stacks`, `${changed} ${what}`, ...(failed > 0 ? [`${failed} failed or skipped`] : [])];
  return format === 'markdown' ? `## Summary: ${parts.join(', ')}\n\n` : `Summary: ${parts.join(', ')}\n`;
}

/** The removed stacks' warnings under the table. */
export function removedLines(format: ReportFormat, lines: readonly string[]): string {
  if (lines.length === 0) return '';
  return `\n${lines.map((l) => (format === 'markdown' ? `> **Warning:** ${l}` : `Warning: ${l}`)).join('\n')}\n`;
}

export function planSummaryTable(format: ReportFormat, rows: readonly StackRow[]): string {
  const code = (s: string): string => (format === 'markdown' ? `\`${s}\`` : s);
  const body = rows.map((r) => [
    r.stack, code(r.dir),
    ...(r.summary ? [r.summary.create, r.summary.update, r.summary.replace, r.summary.delete].map(String) : ['-', '-', '-', '-']),
    r.status ?? r.note ?? (r.checksum ? code(r.checksum) : '-'),
  ]);
  const changed = counted(rows, (r) => r.summary !== undefined && hasChanges(r.summary));
  return summaryHeadline(format, rows, changed, 'with changes') + table(format, ['STACK', 'DIRECTORY', 'CREATE', 'UPDATE', 'REPLACE', 'DELETE', 'CHECKSUM'].map((h) => (format === 'markdown' ? h[0] + h.slice(1).toLowerCase() : h)), body);
}

export function driftSummaryTable(format: ReportFormat, rows: readonly StackRow[]): string {
  const body = rows.map((r) => [
    r.stack, format === 'markdown' ? `\`${r.dir}\`` : r.dir,
    r.drifted === undefined ? '-' : String(r.drifted),
    r.status ?? (r.drifted === 0 ? 'in sync' : 'drifted'),
  ]);
  const drifted = counted(rows, (r) => (r.drifted ?? 0) > 0);
  return summaryHeadline(format, rows, drifted, 'drifted') + table(format, ['STACK', 'DIRECTORY', 'DRIFTED', 'STATUS'].map((h) => (format === 'markdown' ? h[0] + h.slice(1).toLowerCase() : h)), body);
}

/** One stack's entry of the JSON: its report under `key` (null when it failed), or the failure. */
export interface StackJson {
  stack: string;
  dir: string;
  environment: string | null;
  checksum?: string | null;
  [report: string]: unknown;
}

type Place = Pick<StackJson, 'stack' | 'dir' | 'environment'>;

/** A stack whose plan failed: no plan, no checksum, its failure (as the CLI and the Action's plan-json write it). */
export const failedStackJson = (place: Place, error: JsonFailure): StackJson => ({ ...place, checksum: null, plan: null, error });

/** A stack root removed since the ref: nothing planned, and the live resources it leaves (null: not counted). */
export const removedStackJson = (place: Place, live: number | null): StackJson => ({ ...place, checksum: null, plan: null, removed: true, live_resources: live });

/**
 * The JSON of a run over several stacks; `format_version` is that of the single-stack documents it holds (the
 * JSON plan's by default).
 */
export const stacksJson = (stacks: readonly StackJson[], version: number = JSON_PLAN_VERSION): string =>
  `${JSON.stringify({ format_version: version, stacks }, null, 2)}\n`;
