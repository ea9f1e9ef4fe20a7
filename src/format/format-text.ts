// One manifest file in the canonical layout, through yaml's Document API so that comments, the documents and
// their order, anchors, aliases and merge keys stay as written: keys in the order of the kind's schema
// (key-order.ts), 2-space indentation, a flow collection (`{backend_id: web}`, `[a, b]`) kept on its line while
// the line stays within FLOW_WIDTH columns, and the editor modeline of the first document repeated at the head of
// every document (yaml-language-server reads a modeline for the document it heads only). The text the layout
// gives must load as the same data, document by document, or the file is refused (and left as it is).
import { isDeepStrictEqual } from 'node:util';
import { isAlias, isCollection, isMap, isPair, isScalar, LineCounter, parseAllDocuments, visit, type Document, type Node } from 'yaml';
import type { ManifestIssue, SourcePos } from '../errors.ts';
import { yamlIssues } from '../manifest/parse.ts';
import { MAX_ALIAS_VALUES, YAML_OPTIONS } from '../manifest/parse/yaml-tree.ts';
import type { Schema } from '../manifest/schema/parts.ts';
import { orderDocument } from './key-order.ts';

/** A flow collection whose line would run past this column is written as a block. */
const FLOW_WIDTH = 80;

const TO_STRING = { indent: 2, indentSeq: true, flowCollectionPadding: false, lineWidth: 0, minContentWidth: 0 } as const;

const MODELINE = /^\s*yaml-language-server:\s*\$schema=/;

interface FormatResult {
  /** The formatted text (the input itself when there are issues). */
  text: string;
  issues: ManifestIssue[];
}

/** Aliases with no anchor before them (yaml parses them; only reading the data fails), as the loader words it. */
function unresolvedAliases(doc: Document, at: (offset: number) => SourcePos): ManifestIssue[] {
  const anchors = new Set<string>();
  const issues: ManifestIssue[] = [];
  visit(doc, {
    Node: (_, node) => {
      if (isAlias(node)) {
        if (!anchors.has(node.source)) issues.push({ pos: at(node.range?.[0] ?? 0), message: `alias *${node.source} has no anchor before it` });
      } else if (node.anchor) {
        anchors.add(node.anchor);
      }
    },
  });
  return issues;
}

function parse(text: string, file: string): { docs: Document.Parsed[]; issues: ManifestIssue[]; lines: LineCounter } {
  const lines = new LineCounter();
  const at = (offset: number): SourcePos => ({ file, ...lines.linePos(offset) });
  const docs = [...parseAllDocuments(text, { ...YAML_OPTIONS, lineCounter: lines, prettyErrors: false })];
  const issues = docs.flatMap((doc) => (doc.errors.length > 0 ? yamlIssues(doc.errors, text, at) : unresolvedAliases(doc, at)));
  return { docs, lines, issues };
}

const comments = (doc: Document): (string | null | undefined)[] => [doc.commentBefore, (doc.contents as Node | null)?.commentBefore];

/** The first document's modeline, at the head of each later document that has none. */
function repeatModeline(docs: Document[]): void {
  const modeline = comments(docs[0]!).flatMap((c) => c?.split('\n') ?? []).find((line) => MODELINE.test(line));
  if (modeline === undefined) return;
  for (const doc of docs.slice(1)) {
    const contents = doc.contents as Node | null;
    if (!isMap(contents) || comments(doc).some((c) => c?.split('\n').some((line) => MODELINE.test(line)))) continue;
    contents.commentBefore = contents.commentBefore ? `${modeline}\n${contents.commentBefore}` : modeline;
  }
}

const render = (docs: Document[]): string => docs.map((doc) => doc.toString(TO_STRING)).join('');

/**
 * The outermost flow collections of `doc` whose rendering (`written`, the same document parsed back from the
 * text it rendered to) ends past FLOW_WIDTH or spans lines.
 */
function tooWide(doc: unknown, written: unknown, lines: LineCounter, found: Node[]): void {
  if (!isCollection(doc) || !isCollection(written)) return;
  if (doc.flow && written.range) {
    const start = lines.linePos(written.range[0]);
    const end = lines.linePos(written.range[1]);
    if (start.line !== end.line || end.col - 1 > FLOW_WIDTH) {
      found.push(doc);
      return;
    }
  }
  doc.items.forEach((item, i) => {
    const other = written.items[i];
    if (isPair(item) && isPair(other)) {
      tooWide(item.key, other.key, lines, found);
      tooWide(item.value, other.value, lines, found);
    } else {
      tooWide(item, other, lines, found);
    }
  });
}

/** Whether two texts load as the same documents (an alias bomb counts as different: such a file is left alone). */
function sameData(text: string, out: string, file: string): boolean {
  const [a, b] = [parse(text, file), parse(out, file)];
  if (b.issues.length > 0 || a.docs.length !== b.docs.length) return false;
  try {
    return a.docs.every((doc, i) => isDeepStrictEqual(doc.toJS({ maxAliasCount: MAX_ALIAS_VALUES }), b.docs[i]!.toJS({ maxAliasCount: MAX_ALIAS_VALUES })));
  } catch {
    return false;
  }
}

/**
 * Formats one file's text. `schemaOf` gives the schema of a document by its kind (undefined for a document
 * without one, such as edgeops.yaml), and its `target` for a Patch; with no schema, the keys keep their order.
 */
export function formatText(text: string, file: string, schemaOf: (kind: string | undefined, target?: string) => Schema | undefined): FormatResult {
  const parsed = parse(text, file);
  if (parsed.issues.length > 0) return { text, issues: parsed.issues };
  const { docs } = parsed;
  // YAML that is no manifest (a workflow file beside the manifests) is not fmt's to lay out.
  const kinds = docs.filter((doc) => isMap(doc.contents) && doc.contents.has('kind'));
  if (docs.length === 0 || (kinds.length === 0 && schemaOf(undefined) === undefined)) return { text, issues: [] };
  for (const doc of docs) {
    const kind = isMap(doc.contents) ? doc.contents.get('kind', true) : undefined;
    const target = isMap(doc.contents) ? doc.contents.get('target', true) : undefined;
    const schema = isMap(doc.contents)
      ? schemaOf(isScalar(kind) && typeof kind.value === 'string' ? kind.value : undefined, isScalar(target) && typeof target.value === 'string' ? target.value : undefined)
      : undefined;
    if (schema) orderDocument(doc, schema);
  }
  repeatModeline(docs);
  let out = render(docs);
  // Each round writes the outermost too-wide flow collections as blocks; what they hold is measured again.
  for (let round = 0; round < 8; round++) {
    const again = parse(out, file);
    const found: Node[] = [];
    docs.forEach((doc, i) => tooWide(doc.contents, again.docs[i]?.contents, again.lines, found));
    if (found.length === 0) break;
    for (const node of found) (node as Node & { flow: boolean }).flow = false;
    out = render(docs);
  }
  if (!sameData(text, out, file)) {
    return { text, issues: [{ pos: { file, line: 1, col: 1 }, message: 'fmt cannot lay this file out so that it loads as the same data; it is left as written' }] };
  }
  return { text: out, issues: [] };
}
