// `edgeops validate [PATH...]`: load, schema-check and resolve; no network. Errors are thrown as one
// ManifestError holding every issue (main.ts prints them all). It takes the options plan and apply take, so one
// command line serves all three in a script; their values are checked, and the connection is never used.
import { Option, type Command } from 'commander';
import { formatIssue, ManifestError, type ManifestIssue } from '../../errors.ts';
import { environmentStackRoots } from '../../manifest/environment/stack-roots.ts';
import * as validate from '../../operations/validate.ts';
// The manifests' reader itself, not pipeline.ts: validate needs none of the engine, so a run loads none of it.
import { readDesiredState, sortIssues } from '../../manifest/read-desired.ts';
import { renderValidateJson } from '../../render/validate-json.ts';
import type { CliContext } from '../context.ts';
import { learnSecrets } from '../learn-secrets.ts';
import { sayManifestWarnings } from '../manifest-warnings.ts';
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
      const checkStack = async (stackPaths: string[]): Promise<number> => {
        const desired = await readDesiredState(stackPaths, { env: ctx.env, stack: flags.stack });
        learnSecrets(ctx, desired);
        sayManifestWarnings(ctx, desired);
        const { stack } = resolveSettings(flags, ctx.env, desired.config, ctx.stdout.isTTY === true);
        return validate.run({ desired, stack });
      };
      // A tree of environments: each stack resolved on its own (a base through the stacks that use it).
      const check = async (): Promise<number> => {
        const roots = environmentStackRoots(paths, process.cwd());
        if (!roots) return checkStack(paths);
        const issues: ManifestIssue[] = [];
        let resources = 0;
        for (const root of roots) {
          try {
            resources += await checkStack([root]);
          } catch (err) {
            if (!(err instanceof ManifestError)) throw err;
            issues.push(...err.issues);
          }
        }
        // A base's problem is found once per stack that uses it: said once.
        const seen = new Set<string>();
        const unique = issues.filter((i) => !seen.has(formatIssue(i)) && seen.add(formatIssue(i)));
        if (unique.length > 0) throw new ManifestError(sortIssues(unique));
        return resources;
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
      done(0);
    });
}
