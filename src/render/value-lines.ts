// How a change reads when its values do not fit on one line, as Terraform lays them out: a multi-line string
// as its lines (a replacement as a line diff, unchanged lines as context), a long list entry by entry (a
// replacement as an entry diff), a long mapping key by key, nested as deep as the value goes. A PEM stays its
// fingerprint, with what its certificates say (subject, SANs, issuer, validity, serial) underneath, old and new.
// Every other value is shown in full. Text and Markdown (plans and drift) lay out the same lines.
import type { CertificateSummary, FieldChange } from '../engine/plan-data.ts';
import { pemDigest } from '../engine/certificate-details.ts';
import { jsonEqual } from '../engine/diff.ts';
import { isPendingRef } from '../kinds/refs.ts';
import type { Json } from '../kinds/resource-kind.ts';
import { diffSequences, withContext } from './sequence-diff.ts';
import { formatChange, formatKey, formatValue, formatWithin, isMultiLine, isPem, type IdNames } from './values.ts';

/** ' ' unchanged (context), '+' added, '-' removed, '~' changed in place. */
type Mark = ' ' | '+' | '-' | '~';

/** One line under a field's line; `depth` 0 is the field's own column, each level four columns further in. */
interface ValueLine {
  mark: Mark;
  depth: number;
  text: string;
}

/** The rest of the field's line (after `path: `), and the lines under it (none when it fits on one line). */
export interface ShownChange {
  text: string;
  lines: ValueLine[];
}

export interface ShowContext {
  names: IdNames;
  /** Plan.certificates: what the certificates of each PEM say, by the PEM's SHA-256. */
  certificates: Readonly<Record<string, CertificateSummary[]>>;
}

/** Lists and mappings whose one-line form is longer than this are laid out entry by entry. */
const INLINE_WIDTH = 80;
/** Unchanged lines shown around each changed line of a multi-line string. */
const CONTEXT_LINES = 3;
/** Certificates of one PEM shown; a longer bundle ends with a count. */
const MAX_CERTIFICATES = 10;

/** A list or a mapping, whose entries can be laid out one per line; a reference to a resource yet to be made is one value. */
const isContainer = (v: Json | undefined): v is Json[] | { [k: string]: Json } =>
  typeof v === 'object' && v !== null && !isPendingRef(v);

/**
 * Whether a value is shown on the field's own line. Measured without the `Kind/name` shown beside ids: those
 * make a line longer, not its value harder to read.
 */
function fitsInline(value: Json | undefined): boolean {
  if (isMultiLine(value)) return false;
  if (!isContainer(value)) return true;
  return formatWithin(value, INLINE_WIDTH) !== undefined && !hasMultiLine(value);
}

function hasMultiLine(value: Json): boolean {
  if (isMultiLine(value)) return true;
  return isContainer(value) && Object.values(value).some(hasMultiLine);
}

/** Control characters a terminal would act on, escaped as in JSON; tabs kept. */
const textLine = (line: string): string =>
  line.replace(/[\u0000-\u0008\u000b-\u001f\u007f]/g, (c) => `\\u${c.charCodeAt(0).toString(16).padStart(4, '0')}`);

/** A string's lines; a final newline ends the last line rather than starting an empty one. */
function linesOf(text: string): string[] {
  const lines = text.split('\n');
  if (lines.length > 1 && lines[lines.length - 1] === '') lines.pop();
  return lines.map(textLine);
}

/** Shown when two texts differ in their final newline, on the side without one (as `diff` does). */
const NO_FINAL_NEWLINE = '(no newline at the end)';

/** A value laid out under a mark: the text for its first line and the lines after it, all at `depth` and in. */
function layout(value: Json, mark: Mark, depth: number, names: IdNames): ShownChange {
  if (fitsInline(value)) return { text: formatValue(value, names), lines: [] };
  if (typeof value === 'string') {
    const lines = linesOf(value).map((text): ValueLine => ({ mark, depth: depth + 1, text }));
    return { text: '<<EOT', lines: [...lines, { mark, depth, text: 'EOT' }] };
  }
  const lines: ValueLine[] = [];
  if (Array.isArray(value)) {
    for (const entry of value) lines.push(...entryLines('', entry, mark, depth + 1, names, ','));
    return { text: '[', lines: [...lines, { mark, depth, text: ']' }] };
  }
  for (const [key, entry] of Object.entries(value as Record<string, Json>)) lines.push(...entryLines(`${formatKey(key)}: `, entry, mark, depth + 1, names, ''));
  return { text: '{', lines: [...lines, { mark, depth, text: '}' }] };
}

/** One entry of a list or mapping: `prefix` + its value, its lines after, and `end` after the last. */
function entryLines(prefix: string, value: Json, mark: Mark, depth: number, names: IdNames, end: string): ValueLine[] {
  const shown = layout(value, mark, depth, names);
  const lines = [{ mark, depth, text: `${prefix}${shown.text}` }, ...shown.lines];
  lines[lines.length - 1] = { ...lines[lines.length - 1]!, text: `${lines[lines.length - 1]!.text}${end}` };
  return lines;
}

/** The lines between a replaced container's opening and closing lines (or a multi-line string's). */
function diffLines(old: Json, neu: Json, depth: number, names: IdNames): ValueLine[] {
  if (typeof old === 'string' && typeof neu === 'string') return textDiff(old, neu, depth);
  if (Array.isArray(old) && Array.isArray(neu)) {
    const ops = diffSequences(old, neu, jsonEqual);
    return ops.flatMap(({ op, item }) => entryLines('', item, op, depth, names, ','));
  }
  const a = old as Record<string, Json>;
  const b = neu as Record<string, Json>;
  const keys = [...Object.keys(a), ...Object.keys(b).filter((k) => !Object.hasOwn(a, k))];
  return keys.flatMap((key) => {
    const prefix = `${formatKey(key)}: `;
    if (!Object.hasOwn(b, key)) return entryLines(prefix, a[key]!, '-', depth, names, '');
    if (!Object.hasOwn(a, key)) return entryLines(prefix, b[key]!, '+', depth, names, '');
    return changedEntry(prefix, a[key]!, b[key]!, depth, names, '');
  });
}

/** Two values diffed inside one another: two strings, two lists or two mappings. */
const sameShape = (old: Json, neu: Json): boolean => (typeof old === 'string' && typeof neu === 'string')
  || (Array.isArray(old) && Array.isArray(neu)) || (isContainer(old) && isContainer(neu) && !Array.isArray(old) && !Array.isArray(neu));

/** One entry present on both sides: context when equal, `old -> new` when both fit, else nested or removed + added. */
function changedEntry(prefix: string, old: Json, neu: Json, depth: number, names: IdNames, end: string): ValueLine[] {
  if (jsonEqual(old, neu)) return entryLines(prefix, old, ' ', depth, names, end);
  if (fitsInline(old) && fitsInline(neu)) {
    return [{ mark: '~', depth, text: `${prefix}${formatValue(old, names)} -> ${formatValue(neu, names)}${end}` }];
  }
  if (!sameShape(old, neu)) return [...entryLines(prefix, old, '-', depth, names, end), ...entryLines(prefix, neu, '+', depth, names, end)];
  const [open, close] = typeof old === 'string' ? ['<<EOT', 'EOT'] : Array.isArray(old) ? ['[', ']'] : ['{', '}'];
  return [{ mark: '~', depth, text: `${prefix}${open}` }, ...diffLines(old, neu, depth + 1, names), { mark: ' ', depth, text: `${close}${end}` }];
}

/** Two texts line by line: changed lines with up to CONTEXT_LINES unchanged ones around them. */
function textDiff(old: string, neu: string, depth: number): ValueLine[] {
  const ops = diffSequences(linesOf(old), linesOf(neu));
  const oldEnds = old.endsWith('\n');
  if (oldEnds !== neu.endsWith('\n')) ops.push({ op: oldEnds ? '+' : '-', item: NO_FINAL_NEWLINE });
  return withContext(ops, CONTEXT_LINES).map((entry): ValueLine => (entry.op === 'elided'
    ? { mark: ' ', depth, text: `(${entry.count} unchanged line${entry.count === 1 ? '' : 's'})` }
    : { mark: entry.op, depth, text: entry.item }));
}

/** What the certificates of the old and new PEM say: one block per certificate, field by field. */
function certificateLines(old: Json | undefined, neu: Json | undefined, ctx: ShowContext): ValueLine[] {
  const of = (pem: Json | undefined): CertificateSummary[] | undefined => (isPem(pem) ? ctx.certificates[pemDigest(pem)] : undefined);
  const before = of(old) ?? [];
  const after = of(neu) ?? [];
  const count = Math.max(before.length, after.length);
  const lines: ValueLine[] = [];
  for (let i = 0; i < Math.min(count, MAX_CERTIFICATES); i++) {
    const a: Json | undefined = before[i];
    const b: Json | undefined = after[i];
    const title = `certificate ${i + 1} of ${count}`;
    // An unchanged certificate (the rest of a chain, most often) is one line: which one it is.
    if (a !== undefined && b !== undefined && jsonEqual(a, b)) lines.push({ mark: ' ', depth: 1, text: `${title}: unchanged, subject ${formatValue(before[i]!.subject)}` });
    else if (a !== undefined && b !== undefined) lines.push(...changedEntry(`${title}: `, a, b, 1, ctx.names, ''));
    else lines.push(...entryLines(`${title}: `, (a ?? b)!, a !== undefined ? '-' : '+', 1, ctx.names, ''));
  }
  if (count > MAX_CERTIFICATES) lines.push({ mark: ' ', depth: 1, text: `(${count - MAX_CERTIFICATES} more certificates)` });
  return lines;
}

/** A change as its field's line shows it, with the lines under it when its values do not fit on one line. */
export function showChange(change: FieldChange, ctx: ShowContext): ShownChange {
  // Formatted only when it is shown: most values of a large plan are laid out on lines of their own.
  const inline = (): string => formatChange(change, ctx.names);
  if (change.sensitive) return { text: inline(), lines: [] };
  const old = change.kind === 'add' ? undefined : change.old;
  const neu = change.kind === 'remove' ? undefined : change.new;
  if (isPem(old) || isPem(neu)) return { text: inline(), lines: certificateLines(old, neu, ctx) };
  if (fitsInline(old) && fitsInline(neu)) return { text: inline(), lines: [] };
  if (old === undefined || neu === undefined) {
    const mark: Mark = old === undefined ? '+' : '-';
    return layout((old ?? neu)!, mark, 0, ctx.names);
  }
  // Values of different shapes: the old one removed and the new one added, each under the field's line.
  if (!sameShape(old, neu)) return { text: '', lines: [...entryLines('', old, '-', 1, ctx.names, ''), ...entryLines('', neu, '+', 1, ctx.names, '')] };
  const [first, ...rest] = changedEntry('', old, neu, 0, ctx.names, '');
  return { text: first!.text, lines: rest };
}
