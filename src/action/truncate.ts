// Fitting a Markdown plan under a size limit (a pull-request comment holds at most 65,536 characters): keep the
// heading and the summary table, then whole resources by what a reviewer must not miss (deletes and replaces
// first, then updates, then creates) while they fit, shown in the plan's order, and say what is left out and
// where the full plan is. Works on the CLI's Markdown (design: CLI) by its
// shape: one fenced `diff` block whose resource headers are the lines without indentation.

export const COMMENT_LIMIT = 65_536;

export interface Truncated {
  text: string;
  /** Resources in the plan (0 when the text has no diff block to count them in). */
  total: number;
  shown: number;
  omitted: number;
  /** What is left out by action, e.g. `1,198 creates`; empty when nothing is. */
  omittedText: string;
}

interface TruncateOptions {
  /** How size is counted; characters by default (the comment limit), bytes for the step summary. */
  measure?: (text: string) => number;
  /** Markdown naming where the full plan is, e.g. `the [job summary](https://...)`. */
  fullPlanAt?: string;
}

const RESOURCE_HEADER = /^[-+!] \S/;

type Op = 'delete' | 'replace' | 'update' | 'create';
/** The order resources are kept in when not all fit. */
const PRIORITY: readonly Op[] = ['delete', 'replace', 'update', 'create'];

/** The resource's action from its header line: `- ` delete, `! -/+ ` replace, `! ` update, `+ ` create. */
function opOf(block: string[]): Op {
  const header = block[0] ?? '';
  if (header.startsWith('- ')) return 'delete';
  if (header.startsWith('! -/+ ')) return 'replace';
  if (header.startsWith('! ')) return 'update';
  return 'create';
}

/** `2 deletes and 1,198 creates` for the blocks not kept. */
function describeOmitted(blocks: string[][], kept: Set<number>): string {
  const counts = new Map<Op, number>();
  blocks.forEach((block, i) => {
    if (!kept.has(i)) counts.set(opOf(block), (counts.get(opOf(block)) ?? 0) + 1);
  });
  const parts = PRIORITY.filter((op) => counts.has(op)).map((op) => `${counts.get(op)!.toLocaleString('en-US')} ${op}${counts.get(op) === 1 ? '' : 's'}`);
  return parts.length <= 1 ? parts.join('') : `${parts.slice(0, -1).join(', ')} and ${parts[parts.length - 1]}`;
}

interface Parsed {
  preamble: string[];
  fence: string;
  blocks: string[][];
  tail: string[];
}

function parse(markdown: string): Parsed | undefined {
  const lines = markdown.replace(/\n$/, '').split('\n');
  const open = lines.findIndex((line) => /^`{3,}diff$/.test(line));
  if (open < 0) return undefined;
  const fence = lines[open]!.slice(0, -'diff'.length);
  const close = lines.findIndex((line, i) => i > open && line === fence);
  if (close < 0) return undefined;
  const blocks: string[][] = [];
  for (const line of lines.slice(open + 1, close)) {
    if (RESOURCE_HEADER.test(line) || blocks.length === 0) blocks.push([line]);
    else blocks[blocks.length - 1]!.push(line);
  }
  return { preamble: lines.slice(0, open), fence, blocks, tail: lines.slice(close + 1) };
}

function notice(omitted: number, total: number, what: string, fullPlanAt: string | undefined): string {
  const where = fullPlanAt ? ` The full plan is in ${fullPlanAt}.` : '';
  return `> **${omitted} of ${total} resource${total === 1 ? ' is' : 's are'} not shown here** (${what}) to stay under GitHub's ${COMMENT_LIMIT.toLocaleString('en-US')}-character limit; deletes and replaces are shown first, then updates, then creates.${where}`;
}

/** The kept blocks (indices into p.blocks) in the plan's order. */
function compose(p: Parsed, kept: Set<number>, tail: string[], fullPlanAt: string | undefined): string {
  const omitted = p.blocks.length - kept.size;
  const what = describeOmitted(p.blocks, kept);
  const body = p.blocks.filter((_, i) => kept.has(i)).map((block) => block.join('\n'));
  // The marker line sits inside the diff block, where a leading `#` renders as a plain grey line.
  if (omitted > 0) body.push(`# ... ${omitted} more resource${omitted === 1 ? '' : 's'} not shown (${what})`);
  const parts = [...p.preamble, `${p.fence}diff`, ...body, p.fence];
  if (omitted > 0) parts.push('', notice(omitted, p.blocks.length, what, fullPlanAt));
  return `${[...parts, ...tail].join('\n')}\n`;
}

/**
 * The summary line and warnings after the block: all of them, unless they would take more than `room` (half
 * of what is left; thousands of warnings): then the first lines, and how many more there are.
 */
function fitTail(tail: string[], room: number, measure: (s: string) => number): string[] {
  if (measure(tail.join('\n')) <= room) return tail;
  const kept: string[] = [];
  let size = 0;
  for (const line of tail) {
    if (size + measure(line) + 1 > room - 100) break;
    kept.push(line);
    size += measure(line) + 1;
  }
  const left = tail.slice(kept.length).filter((line) => line.trim() !== '').length;
  return [...kept, '', `> ... ${left} more line${left === 1 ? '' : 's'} not shown`];
}

/** Whole lines from the start while they fit, then a note; for text this function cannot parse. */
function cutLines(text: string, limit: number, measure: (s: string) => number, fullPlanAt: string | undefined): string {
  const where = fullPlanAt ? ` The full plan is in ${fullPlanAt}.` : '';
  const note = `\n> **The rest is cut** to stay under the size limit.${where}\n`;
  const room = limit - measure(note);
  let out = '';
  for (const line of text.split('\n')) {
    if (measure(out) + measure(line) + 1 > room) break;
    out += `${line}\n`;
  }
  return `${out}${note}`;
}

/**
 * The plan with only its deletes and replaces (every one of them), the rest counted in the note; for a
 * comment of several stacks over the limit, where each stack keeps what a reviewer must not miss.
 */
export function keepOnlyRemovals(markdown: string, fullPlanAt?: string): string {
  const parsed = parse(markdown);
  if (!parsed) return markdown;
  const kept = new Set(parsed.blocks.flatMap((block, i) => (opOf(block) === 'delete' || opOf(block) === 'replace' ? [i] : [])));
  return kept.size === parsed.blocks.length ? markdown : compose(parsed, kept, parsed.tail, fullPlanAt);
}

export function truncatePlanMarkdown(markdown: string, limit: number, opts: TruncateOptions = {}): Truncated {
  const measure = opts.measure ?? ((s: string) => s.length);
  const parsed = parse(markdown);
  const total = parsed?.blocks.length ?? 0;
  if (measure(markdown) <= limit) return { text: markdown, total, shown: total, omitted: 0, omittedText: '' };
  if (!parsed) return { text: cutLines(markdown, limit, measure, opts.fullPlanAt), total: 0, shown: 0, omitted: 0, omittedText: '' };

  const none = new Set<number>();
  const skeleton = measure(compose(parsed, none, [], opts.fullPlanAt));
  const tail = fitTail(parsed.tail, Math.floor((limit - skeleton) / 2), measure);
  // Leave room for the longest note the omitted counts can produce (all four actions, large numbers).
  let size = measure(compose(parsed, none, tail, opts.fullPlanAt)) + 80;
  const order = parsed.blocks.map((block, i) => ({ i, rank: PRIORITY.indexOf(opOf(block)) })).sort((a, b) => a.rank - b.rank || a.i - b.i);
  const kept = new Set<number>();
  for (const { i } of order) {
    const grow = measure(parsed.blocks[i]!.join('\n')) + 1;
    // Strictly by priority: once one resource does not fit, none of a lower priority jumps ahead of it.
    if (size + grow > limit) break;
    kept.add(i);
    size += grow;
  }
  let text = compose(parsed, kept, tail, opts.fullPlanAt);
  // The estimate above makes this rare; it makes the limit a guarantee, dropping the least important first.
  const dropOrder = order.map((o) => o.i).filter((i) => kept.has(i)).reverse();
  while (measure(text) > limit && dropOrder.length > 0) {
    kept.delete(dropOrder.shift()!);
    text = compose(parsed, kept, tail, opts.fullPlanAt);
  }
  if (measure(text) > limit) text = cutLines(text, limit, measure, opts.fullPlanAt);
  return { text, total, shown: kept.size, omitted: total - kept.size, omittedText: describeOmitted(parsed.blocks, kept) };
}
