// A rendered stack as text: YAML documents a stack directory could hold as they are (each preceded by a comment
// naming the files it was made of), or JSON for tools.
import { Document, isMap } from 'yaml';
import type { Obj } from '../kinds/resource-kind.ts';

/** One resolved document: what a manifest of it holds, and where it came from. */
export interface RenderedDoc {
  address: string;
  /** `kind`, `name`, then the fields. */
  document: Obj;
  /** The document's position, then each Patch that changed it (`file:line:col`). */
  sources: string[];
}

/** A stack's resolved documents (operations/render.ts). */
export interface RenderedStack {
  /** The directory as given. */
  path: string;
  stack?: string;
  environment?: string;
  /** Every file its resolution reads (manifest/environment/inputs.ts), relative to the cwd. */
  inputs: string[];
  docs: RenderedDoc[];
}

const OPTIONS = { lineWidth: 0, minContentWidth: 0 } as const;

export function renderedYaml(stack: RenderedStack): string {
  const head = [`# ${stack.docs.length} document${stack.docs.length === 1 ? '' : 's'} of ${stack.stack ? `stack ${stack.stack}` : stack.path}${stack.environment ? ` (environment ${stack.environment})` : ''}, resolved by edgeops render`];
  const docs = stack.docs.map((d) => {
    const doc = new Document(d.document);
    if (isMap(doc.contents)) doc.contents.commentBefore = ` from ${d.sources.join(', ')}`;
    return doc.toString(OPTIONS);
  });
  return `${head.join('\n')}\n${docs.join('---\n')}`;
}

export function renderedJson(stack: RenderedStack): string {
  const out = {
    format_version: 1,
    ...(stack.stack ? { stack: stack.stack } : {}),
    ...(stack.environment ? { environment: stack.environment } : {}),
    inputs: stack.inputs,
    documents: stack.docs.map((d) => ({ sources: d.sources, document: d.document })),
  };
  return `${JSON.stringify(out, null, 2)}\n`;
}
