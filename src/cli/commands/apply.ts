// `edgeops apply PATH...`: plan, confirm, execute with progress, then the summary. Exit 1 on any failure.
import { Option, type Command } from 'commander';
import { AbortedError, ApplyFailedError } from '../../errors.ts';
import { computePlan, executePlan, loadDesired } from '../../pipeline.ts';
import { createApplyProgress } from '../../render/apply-progress.ts';
import { applySummary } from '../../render/apply-report.ts';
import { renderPlanText } from '../../render/text.ts';
import { confirmApply } from '../confirm.ts';
import { withConnection } from '../connect.ts';
import { learnSecrets, type CliContext } from '../context.ts';
import { trapInterrupts } from '../interrupt.ts';
import { addSharedOptions, resolveSettings, type SharedFlags } from '../settings.ts';

interface ApplyFlags extends SharedFlags {
  autoApprove?: boolean;
}

export function registerApply(program: Command, ctx: CliContext, done: (code: number) => void): void {
  const cmd = program
    .command('apply')
    .description('make live state match the manifests: plan, confirm, then create, update, replace and delete')
    .argument('<paths...>', 'manifest files or directories')
    .addOption(new Option('--auto-approve', 'apply without asking (required when stdin is not a terminal)'));
  addSharedOptions(cmd)
    .addHelpText('after', `
Exit codes: 0 applied (or nothing to do), 1 error or partial failure (every failure is listed; the actions
that did not depend on it ran, and running the command again converges).

Examples:
  $ edgeops apply examples/basic --local --auto-approve
  $ edgeops apply infra/ --api-url http://127.0.0.1:4010 --api-key dev
  $ EDGEOPS_STACK=staging edgeops apply infra/ --auto-approve --concurrency 4`)
    .action(async (paths: string[], flags: ApplyFlags) => {
      const desired = await loadDesired(paths, ctx.env, { stack: flags.stack });
      learnSecrets(ctx, desired);
      const isTTY = ctx.stdout.isTTY === true;
      const settings = resolveSettings(flags, ctx.env, desired.config, isTTY);
      await withConnection(settings, paths, async ({ api }) => {
        const planned = await computePlan(desired, api, { stack: settings.stack });
        const { plan } = planned;
        ctx.out(renderPlanText(plan, { color: settings.color }));
        if (plan.actions.length === 0) return;
        if (!flags.autoApprove) await confirmApply(ctx);
        ctx.out('\n');

        const progress = createApplyProgress({
          // DESIGN 2: NO_COLOR and --no-color turn the live display off as well, not only the colours.
          live: settings.color,
          color: settings.color,
          total: plan.actions.length,
          write: (text) => ctx.out(text),
          columns: ctx.stdout.columns,
        });
        const interrupt = trapInterrupts(ctx);
        let result;
        try {
          result = await executePlan(planned, api, {
            stack: settings.stack,
            concurrency: settings.concurrency,
            onEvent: (event) => progress.onEvent(event),
            signal: interrupt.signal,
          });
        } finally {
          progress.stop();
          interrupt.dispose();
        }
        ctx.out(`\n${applySummary(plan, result)}`);
        if (result.interrupted) throw new AbortedError('apply interrupted; run it again to converge');
        if (!result.ok) throw new ApplyFailedError('apply failed (see the failures above)');
      });
      done(0);
    });
}
