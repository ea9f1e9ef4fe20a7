// One stack of a run over several: a session of its own (its directory as the path, its own edgeops.yaml's stack
// and settings, its own redactor) whose log is held back and written whole, in a group named for the stack, when
// it is done, so stacks applied at once never interleave their lines; every warning and error names the stack.
// Its outputs are the run's to set, from all stacks together: a stack's own are dropped.
import { relative, resolve } from 'node:path';
import { createRedactor } from '../render/redact.ts';
import type { Runner } from './runner.ts';
import type { Session } from './session.ts';

interface StackPlace {
  stack: string;
  /** Repository-relative. */
  dir: string;
}

interface StackSession {
  session: Session;
  /** Writes the held-back log, in a group titled `title`. */
  flush(title: string): Promise<void>;
}

function heldRunner(parent: Runner, stack: string): { runner: Runner; lines: (() => void)[] } {
  const lines: (() => void)[] = [];
  const named = (text: string): string => (text.includes(`stack ${stack}`) ? text : `stack ${stack}: ${text}`);
  const runner: Runner = {
    mask: (secret) => parent.mask(secret),
    scrub: (text) => parent.scrub(text),
    setOutput: () => undefined,
    appendSummary: (markdown) => void lines.push(() => parent.appendSummary(markdown)),
    info: (text) => void lines.push(() => parent.info(text)),
    warning: (text) => void lines.push(() => parent.warning(named(text))),
    error: (text, at) => void lines.push(() => parent.error(named(text), at)),
    group: async (title, fn) => {
      lines.push(() => parent.info(`-- ${title}`));
      return fn();
    },
  };
  return { runner, lines };
}

/** `repoRoot`: the directory the stacks' dirs are relative to. */
export function stackSession(s: Session, repoRoot: string, place: StackPlace): StackSession {
  const { runner, lines } = heldRunner(s.runner, place.stack);
  // Each stack's edgeops.yaml names its stack: a stack from the workflow's environment would name them all alike.
  const env = { ...s.edgeopsEnv };
  delete env.EDGEOPS_STACK;
  const path = relative(s.cwd, resolve(repoRoot, place.dir)) || '.';
  const session: Session = {
    ...s,
    edgeopsEnv: env,
    inputs: { ...s.inputs, paths: [path], stack: undefined },
    runner,
    redact: createRedactor(env.EDGEOPS_API_KEY ? [env.EDGEOPS_API_KEY] : []),
  };
  return {
    session,
    flush: (title) => s.runner.group(title, async () => {
      for (const line of lines.splice(0)) line();
    }),
  };
}
