// What `export` says it wrote: the manifests (how many resources, which files, the private keys to supply, what
// was left out and why) and/or the snapshot.
import { PROJECT_FILE, type ExportResult } from '../export/build.ts';

/** What an export wrote: the manifests (the export and its file names) and/or the snapshot (its counts). */
export interface ExportOutcome {
  manifests?: { result: ExportResult; dir: string; written: string[] };
  snapshot?: { file: string; lists: number; items: number };
}

function manifestsReport(result: ExportResult, dir: string, written: string[]): string {
  const out: string[] = [];
  const total = result.managed + result.unmanaged;
  const parts = [`${result.managed} managed`, ...(result.unmanaged > 0 ? [`${result.unmanaged} unmanaged`] : [])];
  out.push(`Exported ${total} resource${total === 1 ? '' : 's'} of stack "${result.stack}" (${parts.join(', ')}) to ${dir}:`);
  for (const file of written) {
    const docs = result.files.find((f) => f.file === file)?.docs.length;
    out.push(`  ${file}${docs === undefined ? '' : ` (${docs})`}`);
  }
  if (result.placeholders.length > 0) {
    out.push('', 'Certificates are exported without their private keys. Set these variables (each to the PEM key) before plan or apply:');
    const width = Math.max(...result.placeholders.map((p) => p.envVar.length));
    for (const p of result.placeholders) out.push(`  ${p.envVar.padEnd(width)}  ${p.address} ${p.field}`);
  }
  if (result.unmanaged > 0) {
    const n = `${result.unmanaged} unmanaged resource${result.unmanaged === 1 ? ' was' : 's were'} exported without an ownership marker.`;
    out.push('', written.includes(PROJECT_FILE)
      ? `${n} ${PROJECT_FILE} sets adopt: true, so plan and apply on ${dir} adopt them (write the marker) instead of creating copies.`
      : `${n} Plan and apply them with --adopt to bring them under management; without it, apply would create second copies.`);
  }
  if (result.leftOut.length > 0) {
    out.push('', `Left out ${result.leftOut.length} unmanaged resource${result.leftOut.length === 1 ? '' : 's'} that adoption cannot match to a document (give each a distinct description, hostport or labels, then export again):`);
    for (const r of result.leftOut) out.push(`  ${r.kind} ${r.id}: ${r.why}`);
  }
  if (result.otherStacks > 0) {
    out.push('', `Left out ${result.otherStacks} resource${result.otherStacks === 1 ? '' : 's'} managed by other stacks (--stack NAME exports another stack).`);
  }
  if (result.notPicked) {
    const n = result.notPicked;
    out.push('', `Only the resources given by --id were exported; stack "${result.stack}" manages ${n} more. A plan of ${dir} alone would delete ${n === 1 ? 'it' : 'them'}: move these documents into the stack's manifests.`);
  }
  if (!written.includes(PROJECT_FILE)) out.push('', `No ${PROJECT_FILE} was written: pass --stack ${result.stack} when planning the export.`);
  for (const warning of result.warnings) out.push(`Warning: ${warning}`);
  return `${out.join('\n')}\n`;
}

export function exportReport(outcome: ExportOutcome): string {
  const text: string[] = [];
  if (outcome.manifests) text.push(manifestsReport(outcome.manifests.result, outcome.manifests.dir, outcome.manifests.written));
  if (outcome.snapshot) {
    const { file, lists, items } = outcome.snapshot;
    text.push(`Wrote the live state (${lists} lists, ${items} items) to ${file}. Plan against it with: edgeops plan PATH --against ${file}\n`);
  }
  return text.join('\n');
}
