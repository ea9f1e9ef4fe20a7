// `edgeops plan PATH...`: fetch live state, diff and print the plan with its delete-threshold status and its
// checksum; `--out FILE` saves it for `apply --plan`. Read-only: only list GETs are sent.
import { writeFileSync } from 'node:fs';
import { Option, type Command } from 'commander';
import { openSnapshotApi } from '../../client/snapshot.ts';
import { computePlan, loadDesired, startFetch, type PlanContext } from '../../pipeline.ts';
import type { Plan } from '../../engine/plan-data.ts';
import { deleteStatusLine, markDestroy } from '../../engine/safety.ts';
import { KINDS } from '../../kinds/index.ts';
import type { PlanFooter } from '../../render/view.ts';
import { FORMATS, VIEWS, type Format } from '../../render/views.ts';
import { withConnection } from '../connect.ts';
import type { CliContext } from '../context.ts';
import { learnSecrets } from '../learn-secrets.ts';
import { withJsonError } from '../json-error.ts';
import { checksumOf, keyMaterial, writeSavedPlan } from '../saved-plans.ts';
import { addAdoptOptions, addSharedOptions, resolveSettings, type Settings, type SharedFlags } from '../settings.ts';
import { settingsBeforeManifests } from '../settings-ahead.ts';

export type PlanFormat = Format;

interface PlanFlags extends SharedFlags {
  format: string;
  detailedExitcode?: boolean;
  against?: string;
  out?: string;
  jsonOut?: string;
  destroy?: boolean;
}

export function renderPlan(plan: Plan, format: PlanFormat, color: boolean, footer: PlanFooter = {}): string {
  return VIEWS[format]({ color }).plan(plan, footer);
}

/**
 * The manifests and the plan. Against a service, the live state's lists start before the manifests are read
 * and run while they load, when the settings allow (settingsBeforeManifests).
 */
async function planned(ctx: CliContext, paths: string[], flags: PlanFlags): Promise<PlanContext & { settings: Settings }> {
  const ahead = flags.against ? undefined : settingsBeforeManifests(paths, flags, ctx);
  if (ahead) {
    return withConnection(ahead, paths, async ({ api }) => {
      const live = startFetch(api, { stack: ahead.stack });
      const desired = await loadDesired(paths, ctx.env, { stack: flags.stack, allowEmpty: flags.destroy === true });
      learnSecrets(ctx, desired);
      return { ...(await computePlan(desired, api, { stack: ahead.stack, adopt: ahead.adopt, live })), settings: ahead };
    });
  }
  const desired = await loadDesired(paths, ctx.env, { stack: flags.stack, allowEmpty: flags.destroy === true });
  learnSecrets(ctx, desired);
  const settings = resolveSettings(flags, ctx.env, desired.config, ctx.stdout.isTTY === true);
  const options = { stack: settings.stack, adopt: settings.adopt };
  const planContext = flags.against
    ? await computePlan(desired, openSnapshotApi(flags.against), options)
    : await withConnection(settings, paths, ({ api }) => computePlan(desired, api, options));
  return { ...planContext, settings };
}

export function registerPlan(program: Command, ctx: CliContext, done: (code: number) => void): void {
  const cmd = program
    .command('plan')
    .description('show what apply would change: fetch live state, diff it with the manifests')
    .argument('<paths...>', 'manifest files or directories')
    .addOption(new Option('--format <format>', 'output format').choices(FORMATS).default('text'))
    .addOption(new Option('--detailed-exitcode', 'exit 0 when there are no changes, 2 when there are'))
    .addOption(new Option('--against <file>', 'plan against a snapshot from `edgeops export --snapshot` (no service URL or API key; no network)'))
    .addOption(new Option('--out <file>', 'also save the plan (no secret values) for `edgeops apply --plan FILE`'))
    .addOption(new Option('--json-out <file>', 'also write the plan in the JSON plan format (as --format json prints it) to FILE'))
    .addOption(new Option('--destroy', 'allow paths without documents: plan deleting every resource of the stack (apply needs --destroy too)'));
  addSharedOptions(addAdoptOptions(cmd))
    .addHelpText('after', `
Exit codes: 0 success (with --detailed-exitcode: 0 no changes, 2 changes), 1 error.

Examples:
  $ edgeops plan examples/basic --local
  $ EDGEOPS_API_URL=http://127.0.0.1:4010 EDGEOPS_API_KEY=dev edgeops plan infra/
  $ edgeops plan infra/ --format markdown > plan.md      # for a pull-request comment
  $ edgeops plan infra/ --format json --detailed-exitcode
  $ edgeops plan infra/ --out plan.json                   # then: edgeops apply --plan plan.json
  $ edgeops plan infra/ --adopt                           # bring existing resources under management
  $ edgeops plan infra/ --format markdown --json-out plan.json   # one plan, two renderings

The checksum printed under a plan approves it without a file: \`edgeops apply infra/ --checksum sha256:...\`
applies only if a fresh plan has exactly that checksum.`)
    // A failure is also written to --json-out, with the manifest problems' positions (json-error.ts).
    .action(async (paths: string[], flags: PlanFlags) => withJsonError(ctx, flags.jsonOut, async () => {
      const format = flags.format as PlanFormat; // commander has checked it against FORMATS
      const { desired, settings, plan: draft, live } = await planned(ctx, paths, flags);
      const plan = markDestroy(draft, live, KINDS, desired.config);
      const material = keyMaterial(settings, ctx.env);
      const checksum = checksumOf(plan, material);
      const footer: PlanFooter = { deletes: deleteStatusLine(plan, desired.config) };
      if (plan.actions.length > 0) footer.checksum = checksum;
      ctx.out(renderPlan(plan, format, settings.color, footer));
      if (flags.jsonOut) writeFileSync(flags.jsonOut, ctx.redact(renderPlan(plan, 'json', false, footer)));
      if (flags.out) {
        const note = writeSavedPlan(ctx, { file: flags.out, plan, live, paths, adopt: settings.adopt, checksum, material });
        // Notes go to stderr unless the output is text, so JSON and Markdown on stdout stay clean.
        const say = (text: string): void => (format === 'text' ? ctx.out(text) : ctx.err(text));
        say(`Saved the plan to ${flags.out}; apply exactly it with: edgeops apply --plan ${flags.out}\n`);
        if (note) ctx.err(`Note: ${note}\n`);
      }
      done(flags.detailedExitcode && plan.actions.length > 0 ? 2 : 0);
    }));
}
