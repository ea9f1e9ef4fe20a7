// `edgeops policy test [PATH...]` runs the PolicyTest documents of the paths (each case through the evaluation
// plan uses) and exits 1 on a mismatch; `edgeops policy show edgeops:baseline` prints the built-in pack, each rule
// a plain Policy document to copy. No network.
import type { Command } from 'commander';
import { ConfigError, ManifestError } from '../../errors.ts';
import { sortIssues } from '../../manifest/read-desired.ts';
import { BASELINE, BASELINE_YAML } from '../../policy/baseline.ts';
import { loadPolicyPaths } from '../../policy/policy-set.ts';
import { caseLine, runPolicyTests } from '../../policy/test-runner.ts';
import type { CliContext } from '../context.ts';

export function registerPolicy(program: Command, ctx: CliContext, done: (code: number) => void): void {
  const policy = program.command('policy').description('test policies, show the built-in pack');
  policy
    .command('test')
    .description('run the PolicyTest documents of policy directories or files, stack directories, or edgeops:baseline')
    .argument('[paths...]', 'policy directories or files, stack directories (their edgeops.yaml policies), edgeops:baseline', ['.'])
    .addHelpText('after', `
Exit codes: 0 every case as expected, 1 a case not as expected (or a policy that does not compile).

Examples:
  $ edgeops policy test policies/
  $ edgeops policy test infra/prod edgeops:baseline`)
    .action((paths: string[]) => {
      const { set, issues } = loadPolicyPaths(paths, process.cwd());
      if (issues.length > 0) throw new ManifestError(sortIssues(issues));
      if (!set || set.tests.length === 0) throw new ConfigError(`no PolicyTest documents in ${paths.join(', ')}`);
      const outcomes = runPolicyTests(set);
      for (const o of outcomes) ctx.out(`${caseLine(o)}\n`);
      const failed = outcomes.filter((o) => !o.ok).length;
      ctx.out(`${outcomes.length - failed} of ${outcomes.length} case${outcomes.length === 1 ? '' : 's'} as expected${failed > 0 ? `, ${failed} not` : ''}\n`);
      const untested = set.warnings;
      for (const w of untested) ctx.err(`Warning: ${w}\n`);
      done(failed > 0 ? 1 : 0);
    });
  policy
    .command('show')
    .description('print a built-in policy pack (edgeops:baseline), each rule a Policy document to copy')
    .argument('<name>', BASELINE)
    .action((name: string) => {
      if (name !== BASELINE) throw new ConfigError(`no built-in policy pack named "${name}" (there is ${BASELINE})`);
      ctx.out(BASELINE_YAML);
      done(0);
    });
}
