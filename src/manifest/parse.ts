// Stage 2, parse: one YAML file -> its non-empty documents as trees with positions. The common subset of YAML is
// read directly (parse/yaml-common.ts), anything else by yaml's document API (parse/yaml-tree.ts turns its nodes
// into the same trees). A document with a syntax error is reported and skipped; the file's other documents are
// still read.
import { readFileSync } from 'node:fs';
import { isMap, isScalar, LineCounter, parseAllDocuments, type YAMLError } from 'yaml';
import type { ManifestIssue, SourcePos } from '../errors.ts';
import type { Obj } from '../kinds/resource-kind.ts';
import type { FoundFile } from './document.ts';
import { parseCommonYaml } from './parse/yaml-common.ts';
import { toTree, TreeError, YAML_OPTIONS, type Tree } from './parse/yaml-tree.ts';

export interface ParsedDoc extends Tree {
  value: Obj;
  pos: SourcePos;
}

interface ParsedFile {
  docs: ParsedDoc[];
  issues: ManifestIssue[];
}

/** The key written at `offset` (plain or quoted), for naming a duplicate key. */
function keyAt(text: string, offset: number): string {
  const end = text.indexOf('\n', offset);
  const rest = text.slice(offset, end < 0 ? undefined : end);
  const m = /^("(?:[^"\\]|\\.)*"|'(?:[^']|'')*'|.*?)\s*:(?:\s|$)/.exec(rest);
  const raw = m ? m[1]! : rest.trim();
  return /^["']/.test(raw) ? raw.slice(1, -1) : raw;
}

/**
 * Where the quoted value that never closes begins: the parser reports a missing closing quote where the text
 * ends, lines after the mistake. Quoted values that do close, comments and apostrophes inside plain values
 * are stepped over.
 */
function unclosedQuoteStart(text: string, to: number): number | undefined {
  for (let i = 0; i < to; i++) {
    const ch = text[i]!;
    const prev = i === 0 ? '\n' : text[i - 1]!;
    const opensToken = /[\s[{,:]/.test(prev);
    if (ch === '#' && /\s/.test(prev)) {
      const eol = text.indexOf('\n', i);
      if (eol < 0) return undefined;
      i = eol;
    } else if ((ch === '"' || ch === "'") && opensToken) {
      let close = -1;
      for (let j = i + 1; j < to; j++) {
        if (ch === '"' && text[j] === '\\') j++;
        else if (text[j] === ch) {
          if (ch === "'" && text[j + 1] === "'") j++;
          else {
            close = j;
            break;
          }
        }
      }
      if (close < 0) return i;
      i = close;
    }
  }
  return undefined;
}

function yamlMessage(e: YAMLError, text: string): string {
  if (e.code === 'DUPLICATE_KEY') return `duplicate key "${keyAt(text, e.pos[0])}"`;
  const first = e.message.split('\n')[0]!.replace(/ at line \d+, column \d+:?$/, '');
  return `invalid YAML: ${first}`;
}

/** yaml's errors of one document as issues, each where the mistake is. */
export function yamlIssues(errors: readonly YAMLError[], text: string, at: (offset: number) => SourcePos): ManifestIssue[] {
  return errors.map((e) => {
    const quote = e.code === 'MISSING_CHAR' && /quote/i.test(e.message) ? unclosedQuoteStart(text, e.pos[0]) : undefined;
    if (quote === undefined) return { pos: at(e.pos[0]), message: yamlMessage(e, text) };
    return { pos: at(quote), message: `invalid YAML: the ${text[quote] === '"' ? 'double' : 'single'}-quoted value starting here is never closed` };
  });
}

export function parseFile(file: FoundFile): ParsedFile {
  const out: ParsedFile = { docs: [], issues: [] };
  let text: string;
  try {
    text = readFileSync(file.abs, 'utf8');
  } catch (err) {
    const code = (err as NodeJS.ErrnoException).code;
    out.issues.push({ pos: { file: file.rel, line: 1, col: 1 }, message: `cannot read file: ${code ?? (err as Error).message}` });
    return out;
  }
  return parseText(text, file.rel);
}

/** A file's text -> its documents: the common subset read directly, anything else by yaml (parseYamlText). */
export function parseText(text: string, file: string): ParsedFile {
  const common = parseCommonYaml(text, file);
  return common ? { docs: common, issues: [] } : parseYamlText(text, file);
}

/** A file's text read by yaml's document API: every construct, and yaml's messages for what is not YAML. */
export function parseYamlText(text: string, file: string): ParsedFile {
  const out: ParsedFile = { docs: [], issues: [] };
  const lines = new LineCounter();
  const at = (offset: number): SourcePos => ({ file, ...lines.linePos(offset) });
  for (const doc of parseAllDocuments(text, { ...YAML_OPTIONS, lineCounter: lines, prettyErrors: false })) {
    if (doc.errors.length) {
      out.issues.push(...yamlIssues(doc.errors, text, at));
      continue;
    }
    const contents = doc.contents;
    if (contents === null || (isScalar(contents) && contents.value === null)) continue;
    const pos = at(contents.range[0]);
    if (!isMap(contents)) {
      out.issues.push({ pos, message: 'a document must be a mapping (kind, name and the fields of the resource)' });
      continue;
    }
    try {
      const tree = toTree(contents, file, lines, pos);
      out.docs.push({ ...tree, value: tree.value as Obj, pos });
    } catch (err) {
      if (!(err instanceof TreeError)) throw err;
      out.issues.push({ pos: err.pos, message: err.message });
    }
  }
  return out;
}
