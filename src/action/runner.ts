// Talking to the Actions runner: workflow commands on stdout and the files named by GITHUB_OUTPUT and
// GITHUB_STEP_SUMMARY. Both are plain text formats GitHub documents, written directly so the action needs no
// toolkit package. Every text leaving the action passes through `scrub`, so a secret never lands in a log,
// an output, the job summary or a comment, even if some message quoted it.
import { appendFileSync } from 'node:fs';
import { randomUUID } from 'node:crypto';

/** The runner rejects a step summary over 1 MiB; leave room for what other steps append. */
export const STEP_SUMMARY_LIMIT = 900 * 1024;

export interface Runner {
  /** Registers a secret: the runner hides it in logs (`::add-mask::`) and `scrub` replaces it everywhere. */
  mask(secret: string): void;
  scrub(text: string): string;
  setOutput(name: string, value: string): void;
  appendSummary(markdown: string): void;
  info(text: string): void;
  /** With `at`, GitHub shows the warning on that line of the file. */
  warning(text: string, at?: AnnotationPosition): void;
  /** With `at`, GitHub shows the error on that line of the file (on a pull request's diff too). */
  error(text: string, at?: AnnotationPosition): void;
  group<T>(title: string, fn: () => Promise<T>): Promise<T>;
}

interface AnnotationPosition {
  /** Relative to the repository root (GITHUB_WORKSPACE). */
  file: string;
  line: number;
  col: number;
  title?: string;
}

/** Workflow command data: `%`, CR and LF escaped so a message cannot end the command early. */
function escapeData(text: string): string {
  return text.replace(/%/g, '%25').replace(/\r/g, '%0D').replace(/\n/g, '%0A');
}

/** A workflow command property: its data escapes, and `:` and `,`, which end a property. */
function escapeProperty(text: string): string {
  return escapeData(text).replace(/:/g, '%3A').replace(/,/g, '%2C');
}

function properties(at: AnnotationPosition | undefined): string {
  if (!at) return '';
  const props = [`file=${escapeProperty(at.file)}`, `line=${at.line}`, `col=${at.col}`, ...(at.title ? [`title=${escapeProperty(at.title)}`] : [])];
  return ` ${props.join(',')}`;
}

export function createRunner(env: NodeJS.ProcessEnv, write: (text: string) => void = (t) => void process.stdout.write(t)): Runner {
  const secrets: string[] = [];
  const scrub = (text: string): string => secrets.reduce((out, secret) => out.split(secret).join('***'), text);
  const command = (name: string, text: string, at?: AnnotationPosition) =>
    write(`::${name}${properties(at && { ...at, file: scrub(at.file), title: at.title && scrub(at.title) })}::${escapeData(scrub(text))}\n`);

  return {
    mask(secret) {
      // Very short values would turn ordinary words into `***` everywhere; the runner masks them anyway.
      if (secret.length < 4 || secrets.includes(secret)) return;
      secrets.push(secret);
      secrets.sort((a, b) => b.length - a.length);
      // The one line that holds the secret: the runner consumes it and never prints it.
      write(`::add-mask::${escapeData(secret)}\n`);
    },
    scrub,
    setOutput(name, value) {
      const file = env.GITHUB_OUTPUT;
      const clean = scrub(value);
      if (!file) {
        write(`output ${name}: ${clean}\n`);
        return;
      }
      // The heredoc form takes any value; the random delimiter cannot occur in it.
      const delimiter = `ghadelimiter_${randomUUID()}`;
      appendFileSync(file, `${name}<<${delimiter}\n${clean}\n${delimiter}\n`);
    },
    appendSummary(markdown) {
      const file = env.GITHUB_STEP_SUMMARY;
      if (!file) return;
      appendFileSync(file, `${scrub(markdown)}\n`);
    },
    info: (text) => write(`${scrub(text)}\n`),
    warning: (text, at) => command('warning', text, at),
    error: (text, at) => command('error', text, at),
    async group(title, fn) {
      write(`::group::${escapeData(scrub(title))}\n`);
      try {
        return await fn();
      } finally {
        write('::endgroup::\n');
      }
    },
  };
}
