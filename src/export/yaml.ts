// Exported documents as YAML text, with `yaml` (so quoting, block scalars for PEMs and multi-line bodies, and
// round-tripping through the loader are the library's job, not ours). Every document carries a comment with its
// live id; an unmanaged one also says how it comes under management.
import { Document, isMap } from 'yaml';
import type { ExportedDoc } from './documents.ts';

const OPTIONS = { lineWidth: 0, minContentWidth: 0 } as const;

function docComment(d: ExportedDoc): string {
  const lines = [` live id: ${d.entry.item.id}`];
  if (!d.entry.managed) {
    lines.push(' unmanaged: no ownership marker of this stack. With adopt (edgeops.yaml), plan and apply adopt it;');
    lines.push(' without adopt, apply would create a second copy of it.');
  }
  return lines.join('\n');
}

function documentYaml(d: ExportedDoc): string {
  const doc = new Document(d.doc);
  if (isMap(doc.contents)) doc.contents.commentBefore = docComment(d);
  return doc.toString(OPTIONS);
}

/** One file: a header comment, then the documents separated by `---`. */
export function fileYaml(header: readonly string[], docs: readonly ExportedDoc[]): string {
  const head = header.map((line) => `# ${line}`.trimEnd()).join('\n');
  return `${head}\n${docs.map(documentYaml).join('---\n')}`;
}
