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
import { stackTargets } from '../stack-runs.ts';
import { validateStacks } from '../stack-checks.ts';

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
Paths holding several stack roots check each stack on its own (a line per stack; each problem names its stack;
--format json: {format_version, ok, stacks: [{stack, dir, environment, ok, resources, problems}]}); two stack
roots naming one stack, an edgeops.yaml \`after:\` naming no stack root and a cycle of \`after\` are problems.

Examples:
  $ edgeops validate
  $ edgeops validate infra/edges.yaml infra/backends/ --local`)
    .action(async (paths: string[], flags: SharedFlags & { format: 'text' | 'markdown' | 'json' }) => {
      // Policy notes (a policy without a test) follow the count in text; each stack's go to its own output.
      let notes: string[] = [];
      const check = async (sub: CliContext, from: string[], ownStackFiles?: boolean, say?: (note: string) => void): Promise<number> => {
        const desired = await readDesiredState(from, { env: sub.env, stack: flags.stack, ownStackFiles });
        learnSecrets(sub, desired);
        sayManifestWarnings(sub, desired);
        const { stack } = resolveSettings(flags, sub.env, desired.config, sub.stdout.isTTY === true);
        const n = validate.run({ desired, stack });
        const found = validate.policyNotes({ desired, stack });
        if (say) found.forEach(say);
        else notes = [...notes, ...found];
        return n;
      };
      const targets = stackTargets(paths, process.cwd(), flags.stack, ctx.env);
      if (targets) {
        const json = flags.format === 'json';
        done(await validateStacks(ctx, targets, json, (sub, from) => check(sub, from, true, json ? () => undefined : (note) => sub.out(`${note}\n`))));
        return;
      }
      // A base given itself: checked through each stack that uses it, resolved on its own.
      const checkAll = async (): Promise<number> => {
        const roots = environmentStackRoots(paths, process.cwd());
        if (!roots) return check(ctx, paths);
        const issues: ManifestIssue[] = [];
        let resources = 0;
        for (const root of roots) {
          try {
            resources += await check(ctx, [root]);
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
          ctx.out(renderValidateJson({ resources: await checkAll() }));
          done(0);
        } catch (err) {
          if (!(err instanceof ManifestError)) throw err;
          ctx.out(renderValidateJson({ issues: err.issues }));
          done(err.exitCode);
        }
        return;
      }
      const n = await checkAll();
      ctx.out(`${n} resource${n === 1 ? '' : 's'} valid\n`);
      for (const note of notes) ctx.out(`${note}\n`);
      done(0);
    });
}
