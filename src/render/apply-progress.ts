// Apply progress. On a colour terminal: finished actions scroll by as permanent lines, and below them a small
// live region (the actions in flight, each with a spinner, and a counter) is redrawn in place. Elsewhere (CI
// logs, pipes, NO_COLOR or --no-color) one plain line per finished action, nothing redrawn.
import pc from 'picocolors';
import type { Action, ApplyEvent, ApplyResult, Plan } from '../engine/plan-data.ts';
import { applySummary, eventLine, pendingLine } from './apply-report.ts';
import { textView } from './text.ts';
import type { IdNames } from './values.ts';
import type { PlanFooter } from './view.ts';

interface ProgressOptions {
  /** Plan.names: an error naming a managed resource's id names the resource too. */
  names?: IdNames;
  /** Redraw a live region (stdout is a terminal and colour is on). */
  live: boolean;
  color: boolean;
  total: number;
  /** Where text goes; the caller's writer redacts (the CLI passes its redacting stdout writer). */
  write: (text: string) => void;
  /** Terminal width, to keep each live line on one row (a wrapped line would break the redraw). */
  columns?: number;
}

interface ApplyProgress {
  onEvent(event: ApplyEvent): void;
  /** Clear the live region and stop the spinner. */
  stop(): void;
}

const FRAMES = ['⠋', '⠙', '⠹', '⠸', '⠼', '⠴', '⠦', '⠧', '⠇', '⠏'];
/** In-flight lines shown at most; the rest are counted in the status line. */
const MAX_LIVE = 10;

function createApplyProgress(opts: ProgressOptions): ApplyProgress {
  const c = pc.createColors(opts.color);
  const { write } = opts;
  if (!opts.live) {
    return {
      onEvent(event) {
        const line = eventLine(event, opts.names);
        if (line !== undefined) write(`${line}\n`);
      },
      stop() {},
    };
  }

  const inFlight = new Map<string, Action>();
  let finished = 0;
  let frame = 0;
  let drawn = 0;
  // A pseudo-terminal may report 0 columns: treat that as unknown.
  const width = Math.max(20, (opts.columns || 80) - 1);
  const fit = (line: string) => (line.length > width ? `${line.slice(0, width - 1)}…` : line);

  const clear = () => {
    if (drawn > 0) write(`\x1b[${drawn}F\x1b[J`);
    drawn = 0;
  };
  const draw = () => {
    const shown = [...inFlight.values()].slice(0, MAX_LIVE);
    const lines = shown.map((a) => `${c.cyan(FRAMES[frame % FRAMES.length]!)} ${fit(pendingLine(a))}`);
    const hidden = inFlight.size - shown.length;
    lines.push(c.dim(`${finished}/${opts.total} done${hidden > 0 ? `, ${hidden} more in flight` : ''}`));
    write(`${lines.join('\n')}\n`);
    drawn = lines.length;
  };
  const timer = setInterval(() => {
    frame += 1;
    clear();
    draw();
  }, 100);
  timer.unref();

  const mark = (event: ApplyEvent): string => {
    if (event.type === 'done') return c.green('✓');
    if (event.type === 'failed') return c.red('✗');
    return c.dim('-');
  };

  return {
    onEvent(event) {
      clear();
      if (event.type === 'start') {
        inFlight.set(event.action.id, event.action);
      } else {
        inFlight.delete(event.action.id);
        finished += 1;
        const line = eventLine(event, opts.names);
        if (line !== undefined) write(`${mark(event)} ${line}\n`);
      }
      draw();
    },
    stop() {
      clearInterval(timer);
      clear();
    },
  };
}

/** What an apply shows, in the order it happens: which saved plan runs, the plan, progress, the summary. */
export interface ApplyView {
  savedPlan(file: string, checksum: string): void;
  plan(plan: Plan, footer: PlanFooter): void;
  /** The actions start: progress until `stop()`. `names` names the ids of managed resources in failures. */
  progress(total: number, names: IdNames): ApplyProgress;
  summary(plan: Plan, result: ApplyResult, names: IdNames): void;
}

/** An apply for a terminal or a log: the text plan, then progress (live when `live`), then the summary. */
export function createApplyView(opts: { write: (text: string) => void; color: boolean; live: boolean; columns?: number }): ApplyView {
  const { write, color } = opts;
  const text = textView({ color });
  return {
    savedPlan: (file, checksum) => write(`Applying the saved plan ${file} (checksum ${checksum}).\n\n`),
    plan: (plan, footer) => write(text.plan(plan, footer)),
    progress(total, names) {
      write('\n');
      return createApplyProgress({ live: opts.live, color, total, names, write, columns: opts.columns });
    },
    summary: (plan, result, names) => write(`\n${applySummary(plan, result, names)}`),
  };
}
