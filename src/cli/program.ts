// The commander program: one registration per command file. `runCli` resolves to the exit code of the command
// that ran (commander ignores action return values, so each action reports its code through `done`).
import { Command } from 'commander';
import type { CliContext } from './context.ts';
import { edgeopsVersion } from '../version.ts';
import { firstOperand } from './short-run.ts';

type Register = (program: Command, ctx: CliContext, done: (code: number) => void) => void;

// Each command's module is imported when a run needs it, so a run loads only the code of the command it names:
// `validate` and `show` never load the HTTP client, `--version` no command at all. The order is the order of the help.
const COMMANDS: Record<string, () => Promise<Register>> = {
  validate: async () => (await import('./commands/validate.ts')).registerValidate,
  fmt: async () => (await import('./commands/fmt.ts')).registerFmt,
  plan: async () => (await import('./commands/plan.ts')).registerPlan,
  show: async () => (await import('./commands/show.ts')).registerShow,
  apply: async () => (await import('./commands/apply.ts')).registerApply,
  drift: async () => (await import('./commands/drift.ts')).registerDrift,
  list: async () => (await import('./commands/list.ts')).registerList,
  export: async () => (await import('./commands/export.ts')).registerExport,
  graph: async () => (await import('./commands/graph.ts')).registerGraph,
  serve: async () => (await import('./commands/serve.ts')).registerServe,
  unlock: async () => (await import('./commands/unlock.ts')).registerUnlock,
  policy: async () => (await import('./commands/policy.ts')).registerPolicy,
  completion: async () => (await import('./commands/completion.ts')).registerCompletion,
  '__complete-targets': async () => (await import('./commands/complete-targets.ts')).registerCompleteTargets,
};

/**
 * The commands a run registers: the one its first operand names; none for a bare --version; otherwise all of
 * them (the help lists every command, and a mistyped name gets a suggestion from the full list).
 */
function commandsFor(argv: string[]): string[] {
  const first = firstOperand(argv);
  if (first !== undefined && Object.hasOwn(COMMANDS, first)) return [first];
  if (first === undefined && argv.some((a) => a === '-V' || a === '--version')) return [];
  return Object.keys(COMMANDS);
}

export async function buildProgram(ctx: CliContext, done: (code: number) => void, names = Object.keys(COMMANDS)): Promise<Command> {
  const program = new Command('edgeops')
    .description('Declarative GitOps for network-edge configuration: validate, plan and apply YAML manifests')
    .version(edgeopsVersion(), '-V, --version')
    .exitOverride()
    // A usage error reads like every other error: `edgeops: unknown command 'fmt'`, not commander's `error: ...`.
    .configureOutput({ writeOut: (s) => ctx.out(s), writeErr: (s) => ctx.err(s), outputError: (s, write) => write(s.replace(/^error: /, 'edgeops: ')) })
    .showHelpAfterError('(add --help for usage)')
    .addHelpText('after', `
Exit codes: 0 success, 1 error (invalid manifests, bad options, a failed apply), 2 changes found
(plan --detailed-exitcode) or drift found (drift).

Examples, run in a directory of manifests (PATH defaults to it; --local serves them from .edgeops/local.db):
  $ edgeops validate
  $ edgeops fmt --check
  $ edgeops plan --local --out plan.json
  $ edgeops show plan.json --format markdown
  $ edgeops apply --local --auto-approve
  $ edgeops drift --local --format markdown
  $ edgeops list --local
  $ edgeops graph --format dot
  $ edgeops export --local --out exported/
  $ edgeops serve --port 4010 --api-key dev --db ./edge.db
  $ edgeops unlock --stack prod ipp_2rcCvYaCz4tUbWiCRVTCu2Rsx02
  $ edgeops policy test policies/
  $ source <(edgeops completion bash)
  $ EDGEOPS_API_URL=http://127.0.0.1:4010 EDGEOPS_API_KEY=dev edgeops plan infra/`);
  const registers = await Promise.all(names.map((name) => COMMANDS[name]!()));
  for (const register of registers) register(program, ctx, done);
  return program;
}

export async function runCli(argv: string[], ctx: CliContext): Promise<number> {
  let code = 0;
  const program = await buildProgram(ctx, (c) => {
    code = c;
  }, commandsFor(argv));
  await program.parseAsync(argv, { from: 'user' });
  return code;
}
