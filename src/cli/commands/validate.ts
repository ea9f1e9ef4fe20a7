// `edgeops validate PATH...`: load, schema-check and resolve; no network. Errors are thrown as one
// ManifestError holding every issue (main.ts prints them all). It takes the options plan and apply take, so one
// command line serves all three in a script; their values are checked, and the connection is never used.
import type { Command } from 'commander';
import * as validate from '../../operations/validate.ts';
import { loadDesired } from '../../pipeline.ts';
import type { CliContext } from '../context.ts';
import { learnSecrets } from '../learn-secrets.ts';
import { addSharedOptions, resolveSettings, type SharedFlags } from '../settings.ts';

export function registerValidate(program: Command, ctx: CliContext, done: (code: number) => void): void {
  const cmd = program
    .command('validate')
    .description('check manifests: YAML, schemas, names and references (no network)')
    .argument('<paths...>', 'manifest files or directories (every *.yaml/*.yml under them)');
  addSharedOptions(cmd)
    .addHelpText('after', `
Exit codes: 0 valid, 1 invalid (every problem is printed as file:line:col: Kind/name: message).
The service options (--api-url, --api-key, --local, --timeout) are accepted and checked, but no request is made.

Examples:
  $ edgeops validate examples/basic
  $ edgeops validate infra/edges.yaml infra/backends/ --local`)
    .action(async (paths: string[], flags: SharedFlags) => {
      const desired = await loadDesired(paths, ctx.env, { stack: flags.stack });
      learnSecrets(ctx, desired);
      const { stack } = resolveSettings(flags, ctx.env, desired.config, ctx.stdout.isTTY === true);
      const n = validate.run({ desired, stack });
      ctx.out(`${n} resource${n === 1 ? '' : 's'} valid\n`);
      done(0);
    });
}
