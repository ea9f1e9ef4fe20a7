// `edgeops plan PATH...`: fetch live state, diff and print the plan. Read-only: only list GETs are sent.
import { Option, type Command } from 'commander';
import { openSnapshotApi } from '../../client/snapshot.ts';
import { computePlan, loadDesired } from '../../pipeline.ts';
import type { Plan } from '../../engine/plan-data.ts';
import { renderPlanJson } from '../../render/json.ts';
import { renderPlanMarkdown } from '../../render/markdown.ts';
import { renderPlanText } from '../../render/text.ts';
import { withConnection } from '../connect.ts';
import { learnSecrets, type CliContext } from '../context.ts';
import { addSharedOptions, resolveSettings, type SharedFlags } from '../settings.ts';

export type PlanFormat = 'text' | 'json' | 'markdown';
const FORMATS: readonly PlanFormat[] = ['text', 'json', 'markdown'];

interface PlanFlags extends SharedFlags {
  format: string;
  detailedExitcode?: boolean;
  against?: string;
}

export function renderPlan(plan: Plan, format: PlanFormat, color: boolean): string {
  switch (format) {
    case 'json': return renderPlanJson(plan);
    case 'markdown': return renderPlanMarkdown(plan);
    case 'text': return renderPlanText(plan, { color });
  }
}

export function registerPlan(program: Command, ctx: CliContext, done: (code: number) => void): void {
  const cmd = program
    .command('plan')
    .description('show what apply would change: fetch live state, diff it with the manifests')
    .argument('<paths...>', 'manifest files or directories')
    .addOption(new Option('--format <format>', 'output format').choices(FORMATS).default('text'))
    .addOption(new Option('--detailed-exitcode', 'exit 0 when there are no changes, 2 when there are'))
    .addOption(new Option('--against <file>', 'plan against a snapshot from `edgeops export --snapshot` (no service URL or API key; no network)'));
  addSharedOptions(cmd)
    .addHelpText('after', `
Exit codes: 0 success (with --detailed-exitcode: 0 no changes, 2 changes), 1 error.

Examples:
  $ edgeops plan examples/basic --local
  $ EDGEOPS_API_URL=http://127.0.0.1:4010 EDGEOPS_API_KEY=dev edgeops plan infra/
  $ edgeops plan infra/ --format markdown > plan.md      # for a pull-request comment
  $ edgeops plan infra/ --format json --detailed-exitcode`)
    .action(async (paths: string[], flags: PlanFlags) => {
      const format = flags.format as PlanFormat; // commander has checked it against FORMATS
      const desired = await loadDesired(paths, ctx.env, { stack: flags.stack });
      learnSecrets(ctx, desired);
      const settings = resolveSettings(flags, ctx.env, desired.config, ctx.stdout.isTTY === true);
      const plan = flags.against
        ? (await computePlan(desired, openSnapshotApi(flags.against), { stack: settings.stack })).plan
        : await withConnection(settings, paths, async ({ api }) => (await computePlan(desired, api, { stack: settings.stack })).plan);
      ctx.out(renderPlan(plan, format, settings.color));
      done(flags.detailedExitcode && plan.actions.length > 0 ? 2 : 0);
    });
}
