// The drift report as Markdown (a scheduled job's summary, an issue body): counts, then one table row per finding.
import type { DriftDirection, DriftReport } from '../engine/drift.ts';
import { findingApply, findingSubject, resourceTitle, shownValue, summaryText } from './drift-lines.ts';

/** Inline code that survives any content: a fence longer than any backtick run inside, pipes escaped for tables. */
function code(text: string): string {
  const longest = Math.max(0, ...(text.match(/`+/g) ?? []).map((run) => run.length));
  const fence = '`'.repeat(longest + 1);
  const pad = text.startsWith('`') || text.endsWith('`') ? ' ' : '';
  return `${fence}${pad}${text.replace(/\|/g, '\\|')}${pad}${fence}`;
}

function escapeInline(text: string): string {
  return text.replace(/([\\`*_[\]<>|])/g, '\\$1');
}

/** The live and manifests columns of a finding about the whole resource. */
const WHOLE: Record<DriftDirection, { live: string; desired: string }> = {
  missing: { live: 'absent', desired: 'present' },
  'live-only': { live: 'present', desired: 'absent' },
  unmanaged: { live: 'present, no marker', desired: 'present' },
  changed: { live: 'absent', desired: 'absent' },
};

export function renderDriftMarkdown(report: DriftReport): string {
  const out: string[] = [`### edgeops drift for stack \`${report.stack.replace(/`/g, '')}\``, ''];
  if (report.inSync) {
    out.push(`**No drift.** Live state matches the manifests.`);
  } else {
    const s = report.summary;
    // The unmanaged column appears only when drift ran with adopt and found resources to adopt.
    const u = s.unmanaged ? { head: ' unmanaged |', rule: '---:|', cell: ` ${s.unmanaged} |` } : { head: '', rule: '', cell: '' };
    out.push(`| changed | missing | live-only |${u.head} resources |`, `|---:|---:|---:|${u.rule}---:|`, `| ${s.changed} | ${s.missing} | ${s.liveOnly} |${u.cell} ${s.resources} |`, '');
    out.push('| resource | direction | what | live | manifests | apply |', '|---|---|---|---|---|---|');
    for (const r of report.resources) {
      const resource = r.liveId ? `${code(resourceTitle(r))} (${code(r.liveId)})` : code(resourceTitle(r));
      for (const f of r.findings) {
        const whole = f.path === '';
        const live = whole ? WHOLE[f.direction].live : code(shownValue(f.live, f, report.names));
        const desired = whole ? WHOLE[f.direction].desired : code(shownValue(f.desired, f, report.names));
        out.push(`| ${resource} | ${f.direction} | ${escapeInline(findingSubject(f))} | ${live} | ${desired} | ${escapeInline(findingApply(f))} |`);
      }
    }
    out.push('', escapeInline(summaryText(report)).replace(/\\`/g, '`'));
  }
  if (report.warnings.length > 0) {
    out.push('');
    for (const warning of report.warnings) out.push(`> **Warning:** ${escapeInline(warning)}`);
  }
  return `${out.join('\n')}\n`;
}
