// The commander program: one registration per command file. Each command reports its exit code through `done`
// (commander ignores action return values); cli/main.ts runs the program and maps what it throws.
import { Command } from 'commander';
import type { CliContext } from './context.ts';
import { edgeopsVersion } from '../version.ts';
import { firstOperand } from './first-operand.ts';

/**
 * Registers one command on `program`. `whole` builds the program with every command (what `completion` describes,
 * whichever commands this run registered): handed down, so no command module imports this one.
 */
type Register = (program: Command, ctx: CliContext, done: (code: number) => void, whole: () => Promise<Command>) => void;

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
  stacks: async () => (await import('./commands/stacks.ts')).registerStacks,
  export: async () => (await import('./commands/export.ts')).registerExport,
  graph: async () => (await import('./commands/graph.ts')).registerGraph,
  render: async () => (await import('./commands/render.ts')).registerRender,
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

/**
 * The commander program of a run of `argv` (only the commands it needs), or with every command when no `argv`
 * is given. Each command reports its exit code through `done` (commander ignores what actions return).
 */
export async function buildProgram(ctx: CliContext, done: (code: number) => void, argv?: string[]): Promise<Command> {
  const names = argv === undefined ? Object.keys(COMMANDS) : commandsFor(argv);
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
  $ edgeops stacks
  $ edgeops graph --format dot
  $ edgeops export --local --out exported/
  $ edgeops serve --port 4010 --api-key dev --db ./edge.db
  $ edgeops unlock --stack prod ipp_2rcCvYaCz4tUbWiCRVTCu2Rsx02
  $ edgeops policy test policies/
  $ source <(edgeops completion bash)
  $ EDGEOPS_API_URL=http://127.0.0.1:4010 EDGEOPS_API_KEY=dev edgeops plan infra/`);
  const registers = await Promise.all(names.map((name) => COMMANDS[name]!()));
  const whole = (): Promise<Command> => buildProgram(ctx, () => undefined);
  for (const register of registers) register(program, ctx, done, whole);
  return program;
}
