// `edgeops validate PATH...`: load, schema-check and resolve; no network. Errors are thrown as one
// ManifestError holding every issue (main.ts prints them all).
import type { Command } from 'commander';
import { loadDesired } from '../../pipeline.ts';
import type { CliContext } from '../context.ts';
import { learnSecrets } from '../context.ts';

export function registerValidate(program: Command, ctx: CliContext, done: (code: number) => void): void {
  program
    .command('validate')
    .description('check manifests: YAML, schemas, names and references (no network)')
    .argument('<paths...>', 'manifest files or directories (every *.yaml/*.yml under them)')
    .addHelpText('after', `
Exit codes: 0 valid, 1 invalid (every problem is printed as file:line:col: Kind/name: message).

Examples:
  $ edgeops validate examples/basic
  $ edgeops validate infra/edges.yaml infra/backends/`)
    .action(async (paths: string[]) => {
      const desired = await loadDesired(paths, ctx.env);
      learnSecrets(ctx, desired);
      const n = desired.resources.length;
      ctx.out(`${n} resource${n === 1 ? '' : 's'} valid\n`);
      done(0);
    });
}
