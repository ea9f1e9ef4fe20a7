// The GitHub Action's entry (action.yml runs its bundle, action/dist/index.mjs): read the inputs and the event,
// run plan, apply or drift, and turn the result into the step's exit code. Every error ends here as an
// `::error::` annotation and exit 1; nothing is thrown past this file.
import { ManifestError } from '../errors.ts';
import { ActionInputError, readGitHubContext, readInput, readInputs, type ActionCommand } from './inputs.ts';
import { annotateProblems } from './report.ts';
import { runApply } from './run-apply.ts';
import { runDrift } from './run-drift.ts';
import { runPlan } from './run-plan.ts';
import { runStacksApply } from './run-stacks-apply.ts';
import { runStacksDrift } from './run-stacks-drift.ts';
import { runStacksPlan } from './run-stacks-plan.ts';
import { createRunner, type Runner } from './runner.ts';
import { createSession, type Session } from './session.ts';
import { findStacks, type StackSet } from './stack-set.ts';

const COMMANDS: Record<ActionCommand, (s: Session) => Promise<number>> = {
  plan: runPlan,
  apply: runApply,
  drift: runDrift,
};

/** A path of several stacks: each stack its own run, the results together. */
const STACK_COMMANDS: Record<ActionCommand, (s: Session, set: StackSet) => Promise<number>> = {
  plan: runStacksPlan,
  apply: runStacksApply,
  drift: runStacksDrift,
};

/** Stack roots that cannot run together (two naming one stack, an `after` cycle): each problem on its line. */
function refusedStacks(session: Session, err: ManifestError): number {
  annotateProblems(session, err.issues.map((i) => ({ file: i.pos.file, line: i.pos.line, col: i.pos.col, message: i.message })));
  session.runner.error(`edgeops action: the stack roots under ${session.inputs.paths.join(' ')} cannot run together: ${err.summary}`);
  return 1;
}

async function runCommand(session: Session): Promise<number> {
  let set: StackSet | undefined;
  try {
    set = findStacks(session);
  } catch (err) {
    if (err instanceof ManifestError) return refusedStacks(session, err);
    throw err;
  }
  if (!set) return COMMANDS[session.inputs.command](session);
  const count = set.stacks.filter((x) => !x.removed).length;
  // Each stack's edgeops.yaml names its stack; one name, or one snapshot, cannot stand for all of them.
  if (session.inputs.stack) throw new ActionInputError(`input stack names one stack, but path holds ${count} stack roots, each naming its own: leave stack empty`);
  if (session.inputs.against) throw new ActionInputError(`input against is the snapshot of one stack, but path holds ${count} stack roots: set path to that stack's directory`);
  return STACK_COMMANDS[session.inputs.command](session, set);
}

async function runAction(env: NodeJS.ProcessEnv, runner: Runner = createRunner(env)): Promise<number> {
  // Masked before anything else can print, including an error about another input.
  runner.mask(readInput(env, 'api-key'));
  runner.mask(readInput(env, 'github-token'));
  if (env.GITHUB_TOKEN) runner.mask(env.GITHUB_TOKEN);
  try {
    const github = readGitHubContext(env);
    const inputs = readInputs(env, github);
    const how = inputs.derived ? ` (from the ${github.eventName || 'unknown'} event)` : '';
    const from = inputs.against ? ` against the snapshot ${inputs.against}` : '';
    runner.info(`edgeops ${inputs.command}${how} on ${inputs.paths.join(' ')}${from}`);
    return await runCommand(createSession(env, inputs, github, runner));
  } catch (err) {
    runner.error(`edgeops action: ${err instanceof Error ? err.message : String(err)}`);
    return 1;
  }
}

process.exitCode = await runAction(process.env);
