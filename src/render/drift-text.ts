// The drift report for a terminal and for logs: one block per resource, one line per finding.
import pc from 'picocolors';
import type { DriftDirection, DriftReport } from '../engine/drift.ts';
import { findingApply, findingText, resourceHeader, summaryText } from './drift-lines.ts';

type Colors = ReturnType<typeof pc.createColors>;

function paint(c: Colors, direction: DriftDirection): (s: string) => string {
  switch (direction) {
    case 'changed': return c.yellow;
    case 'missing': return c.red;
    case 'live-only': return c.magenta;
    case 'unmanaged': return c.cyan;
  }
}

export function renderDriftText(report: DriftReport, opts: { color: boolean }): string {
  const c = pc.createColors(opts.color);
  const out: string[] = [];
  if (!report.inSync) {
    out.push(`Drift on stack "${report.stack}": live state differs from the manifests.`, '');
    for (const r of report.resources) {
      out.push(c.bold(resourceHeader(r)));
      for (const f of r.findings) {
        const apply = f.action === 'module-put' || f.action === 'module-delete' ? c.dim(`  # apply: ${findingApply(f)}`) : '';
        out.push(`    ${paint(c, f.direction)(f.direction.padEnd(9))}  ${findingText(f, report.names)}${apply}`);
      }
      out.push('');
    }
  }
  out.push(c.bold(summaryText(report)));
  for (const warning of report.warnings) out.push(c.yellow(`Warning: ${warning}`));
  return `${out.join('\n')}\n`;
}
