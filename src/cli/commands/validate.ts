// `edgeops validate [PATH...]`: load, schema-check and resolve; no network. Errors are thrown as one
// ManifestError holding every issue (main.ts prints them all). It takes the options plan and apply take, so one
// command line serves all three in a script; their values are checked, and the connection is never used.
import { Option, type Command } from 'commander';
import { ManifestError } from '../../errors.ts';
import * as validate from '../../operations/validate.ts';
// The manifests' reader itself, not pipeline.ts: validate needs none of the engine, so a run loads none of it.
import { readDesiredState } from '../../manifest/read-desired.ts';
import { renderValidateJson } from '../../render/validate-json.ts';
import type { CliContext } from '../context.ts';
import { learnSecrets } from '../learn-secrets.ts';
import { pathsArgument } from '../paths-argument.ts';
import { addSharedOptions, resolveSettings, type SharedFlags } from '../settings.ts';

export function registerValidate(program: Command, ctx: CliContext, done: (code: number) => void): void {
  const cmd = program
    .command('validate')
    .description('check manifests: YAML, schemas, names and references (no network)')
    .addArgument(pathsArgument('manifest files or directories (every *.yaml/*.yml under them)'));
  addSharedOptions(cmd)
    // markdown is accepted, as plan takes it, and reads as text: a verdict has nothing to lay out.
    .addOption(new Option('--format <format>', 'output format: text, or json (the problems as data, on stdout)').choices(['text', 'markdown', 'json']).default('text'))
    .addHelpText('after', `
Exit codes: 0 valid, 1 invalid (every problem is printed as file:line:col: Kind/name: path: message;
with --format json, as {format_version, ok, problems: [{file, line, col, address, path, code, message}]}).
The service options (--api-url, --api-key, --local, --timeout) are accepted and checked, but no request is made.

Examples:
  $ edgeops validate
  $ edgeops validate infra/edges.yaml infra/backends/ --local`)
    .action(async (paths: string[], flags: SharedFlags & { format: 'text' | 'markdown' | 'json' }) => {
      let notes: string[] = [];
      const check = async (): Promise<number> => {
        const desired = await readDesiredState(paths, { env: ctx.env, stack: flags.stack });
        learnSecrets(ctx, desired);
        const { stack } = resolveSettings(flags, ctx.env, desired.config, ctx.stdout.isTTY === true);
        const n = validate.run({ desired, stack });
        notes = validate.policyNotes({ desired, stack });
        return n;
      };
      if (flags.format === 'json') {
        // Problems in the manifests are the answer, on stdout; any other failure is reported as usual.
        try {
          ctx.out(renderValidateJson({ resources: await check() }));
          done(0);
        } catch (err) {
          if (!(err instanceof ManifestError)) throw err;
          ctx.out(renderValidateJson({ issues: err.issues }));
          done(err.exitCode);
        }
        return;
      }
      const n = await check();
      ctx.out(`${n} resource${n === 1 ? '' : 's'} valid\n`);
      for (const note of notes) ctx.out(`${note}\n`);
      done(0);
    });
}
