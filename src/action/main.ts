// The GitHub Action's entry (action.yml runs its bundle, action/dist/index.mjs): read the inputs and the event,
// run plan, apply or drift, and turn the result into the step's exit code. Every error ends here as an
// `::error::` annotation and exit 1; nothing is thrown past this file.
import { readGitHubContext, readInput, readInputs, type ActionCommand } from './inputs.ts';
import { runApply } from './run-apply.ts';
import { runDrift } from './run-drift.ts';
import { runPlan } from './run-plan.ts';
import { createRunner, type Runner } from './runner.ts';
import { createSession, type Session } from './session.ts';

const COMMANDS: Record<ActionCommand, (s: Session) => Promise<number>> = {
  plan: runPlan,
  apply: runApply,
  drift: runDrift,
};

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
    return await COMMANDS[inputs.command](createSession(env, inputs, github, runner));
  } catch (err) {
    runner.error(`edgeops action: ${err instanceof Error ? err.message : String(err)}`);
    return 1;
  }
}

process.exitCode = await runAction(process.env);
