// The policy section of a plan or drift report, in text and Markdown: deny and warn results in a plan (info only
// in JSON and drift), each at its file:line:col, then the exceptions the plan used and the notes about them.
import pc from 'picocolors';
import type { PolicyReport, PolicyResult } from '../policy/results.ts';
import { resultLine } from '../policy/results.ts';

type Colors = ReturnType<typeof pc.createColors>;

/** The results a reader of this output sees: drift shows info too. */
const shownResults = (results: readonly PolicyResult[], drift: boolean): PolicyResult[] => results.filter((r) => drift || r.severity !== 'info');

/** `1 deny, 2 warn` (blocking denies only; the rest as they are), or `ok`. */
export function policyTally(results: readonly PolicyResult[]): string {
  const deny = results.filter((r) => r.blocking).length;
  const warn = results.filter((r) => !r.blocking && r.severity !== 'info').length;
  const parts = [deny > 0 ? `${deny} deny` : '', warn > 0 ? `${warn} warn` : ''].filter(Boolean);
  return parts.length > 0 ? parts.join(', ') : 'ok';
}

function exceptionNotes(report: PolicyReport): string[] {
  const notes: string[] = [];
  if (report.exceptions.length > 0) notes.push(`Exceptions used: ${report.exceptions.join(', ')}`);
  return [...notes, ...report.warnings];
}

/** Nothing to show: no result this output shows and no note (the JSON plan still carries `policy: []`). */
const quiet = (report: PolicyReport, results: readonly PolicyResult[]): boolean => results.length === 0 && exceptionNotes(report).length === 0;

export function policyTextLines(report: PolicyReport | undefined, c: Colors, drift = false): string[] {
  if (!report) return [];
  const results = shownResults(report.results, drift);
  if (quiet(report, results)) return [];
  const out: string[] = ['', c.bold(`Policies: ${policyTally(results)}`)];
  for (const r of results) {
    const paint = r.blocking ? c.red : r.severity === 'info' || r.existing || (r.exception && !r.exception_pending) ? c.dim : c.yellow;
    out.push(paint(`  ${resultLine(r)}`));
  }
  for (const note of exceptionNotes(report)) out.push(c.yellow(`  ${note}`));
  return out;
}


function status(r: PolicyResult, cell: (text: string) => string): string {
  if (r.exception_pending) return `exception awaiting approval by ${r.exception_pending.map(cell).join(', ')} (\`${r.exception}\`)`;
  if (r.exception) return `exception \`${r.exception}\``;
  if (r.existing) return 'existing';
  return r.blocking ? '**blocks**' : '';
}

/** `cell` escapes text for a table cell (markdown.ts's escaper: it is defined once). */
export function policyMarkdownLines(report: PolicyReport | undefined, cell: (text: string) => string, drift = false): string[] {
  if (!report) return [];
  const results = shownResults(report.results, drift);
  if (quiet(report, results)) return [];
  const out: string[] = ['', `#### Policies: ${policyTally(results)}`];
  if (results.length > 0) {
    out.push('', '| severity | policy | target | field | message | at | status |', '|---|---|---|---|---|---|---|');
    for (const r of results) {
      out.push(`| ${r.severity} | \`${r.policy}\` | \`${r.target}\` | ${r.field ? `\`${r.field}\`` : ''} | ${cell(r.message)} | \`${r.file}:${r.line}\` | ${status(r, cell)} |`);
    }
  }
  const notes = exceptionNotes(report);
  if (notes.length > 0) out.push('', ...notes.map((n) => `> ${cell(n)}`));
  return out;
}
