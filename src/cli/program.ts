// The commander program: one registration per command file. `runCli` resolves to the exit code of the command
// that ran (commander ignores action return values, so each action reports its code through `done`).
import { readFileSync } from 'node:fs';
import { Command } from 'commander';
import type { CliContext } from './context.ts';
import { registerApply } from './commands/apply.ts';
import { registerDrift } from './commands/drift.ts';
import { registerExport } from './commands/export.ts';
import { registerPlan } from './commands/plan.ts';
import { registerServe } from './commands/serve.ts';
import { registerUnlock } from './commands/unlock.ts';
import { registerValidate } from './commands/validate.ts';

function version(): string {
  const pkg = JSON.parse(readFileSync(new URL('../../package.json', import.meta.url), 'utf8')) as { version: string };
  return pkg.version;
}

export function buildProgram(ctx: CliContext, done: (code: number) => void): Command {
  const program = new Command('edgeops')
    .description('Declarative GitOps for network-edge configuration: validate, plan and apply YAML manifests')
    .version(version(), '-V, --version')
    .exitOverride()
    .configureOutput({ writeOut: (s) => ctx.out(s), writeErr: (s) => ctx.err(s) })
    .showHelpAfterError('(add --help for usage)')
    .addHelpText('after', `
Exit codes: 0 success, 1 error (invalid manifests, bad options, a failed apply), 2 changes found
(plan --detailed-exitcode) or drift found (drift).

Examples:
  $ edgeops validate examples/basic
  $ edgeops plan examples/basic --local
  $ edgeops apply examples/basic --local --auto-approve
  $ edgeops drift examples/basic --local --format markdown
  $ edgeops export --local --out exported/
  $ edgeops serve --port 4010 --api-key dev --db ./edge.db
  $ edgeops unlock --stack prod ipp_2rcCvYaCz4tUbWiCRVTCu2Rsx02
  $ EDGEOPS_API_URL=http://127.0.0.1:4010 EDGEOPS_API_KEY=dev edgeops plan infra/`);
  registerValidate(program, ctx, done);
  registerPlan(program, ctx, done);
  registerApply(program, ctx, done);
  registerDrift(program, ctx, done);
  registerExport(program, ctx, done);
  registerServe(program, ctx, done);
  registerUnlock(program, ctx, done);
  return program;
}

export async function runCli(argv: string[], ctx: CliContext): Promise<number> {
  let code = 0;
  const program = buildProgram(ctx, (c) => {
    code = c;
  });
  await program.parseAsync(argv, { from: 'user' });
  return code;
}
