// `edgeops plan PATH...`: fetch live state, diff and print the plan with its delete-threshold status and its
// checksum; `--out FILE` saves it for `apply --plan`. Read-only: only list GETs are sent.
import { writeFileSync } from 'node:fs';
import { Option, type Command } from 'commander';
import { openSnapshotApi } from '../../client/snapshot.ts';
import type { Api } from '../../kinds/resource-kind.ts';
import type { DesiredState } from '../../manifest/document.ts';
import * as plan from '../../operations/plan.ts';
import { loadDesired } from '../../pipeline.ts';
import { FORMATS, VIEWS, type Format } from '../../render/views.ts';
import { keyMaterial, withConnection } from '../connect.ts';
import type { CliContext } from '../context.ts';
import { learnSecrets } from '../learn-secrets.ts';
import { sayManifestWarnings } from '../manifest-warnings.ts';
import { targetOption } from '../plan-options.ts';
import { withJsonError } from '../json-error.ts';
import { pathsArgument } from '../paths-argument.ts';
import { addAdoptOptions, addSharedOptions, resolveSettings, type Settings, type SharedFlags } from '../settings.ts';
import { settingsBeforeManifests } from '../settings-ahead.ts';
import { changedTargets, stackTargets } from '../stack-runs.ts';
import { removedStackNotes } from '../removed-stacks.ts';
import { planStacks } from '../stack-plans.ts';
import { stackHeading } from '../stack-heading.ts';

interface PlanFlags extends SharedFlags {
  format: string;
  parallel?: string;
  changedSince?: string;
  /** Set for one stack of a run over several: deeper stack roots are theirs (not a flag). */
  ownStackFiles?: boolean;
  detailedExitcode?: boolean;
  against?: string;
  out?: string;
  jsonOut?: string;
  destroy?: boolean;
  target?: string[];
}

/** What a run over several stacks takes from each stack's plan besides its output. */
interface PlanHooks {
  /** The plan in the JSON plan format, redacted, once it is made (with errors too). */
  json?(text: string): void;
}

/**
 * The plan operation with the service (or snapshot) it plans against. Against a service, the live state's lists
 * start before the manifests are read and run while they load, when the settings allow (settingsBeforeManifests).
 */
async function planned(ctx: CliContext, paths: string[], flags: PlanFlags, hooks: PlanHooks = {}): Promise<plan.PlanOutcome> {
  const load = async (): Promise<DesiredState> => {
    // Against a service, settingsBeforeManifests has already refused part of a stack.
    const desired = await loadDesired(paths, ctx.env, {
      stack: flags.stack, allowEmpty: flags.destroy === true, wholeStacks: flags.against !== undefined ? 'plan' : undefined, ownStackFiles: flags.ownStackFiles,
    });
    learnSecrets(ctx, desired);
    sayManifestWarnings(ctx, desired);
    return desired;
  };
  const run = (api: Api, settings: Settings, desired: () => Promise<DesiredState>) => {
    const format = flags.format as Format; // commander has checked it against FORMATS
    const request: plan.PlanRequest = {
      stack: settings.stack, adopt: settings.adopt, desired, material: keyMaterial(settings, ctx.env),
      save: flags.out ? { file: flags.out, paths } : undefined,
      paths,
      targets: flags.target,
    };
    return plan.run(request, {
      api,
      redact: (text) => ctx.redact(text),
      view: {
        plan(p, footer) {
          const heading = format === 'text' ? stackHeading(paths, settings, flags.against) : undefined;
          if (heading) ctx.out(`${heading}\n\n`);
          ctx.out(VIEWS[format]({ color: settings.color }).plan(p, footer));
          if (flags.jsonOut) writeFileSync(flags.jsonOut, ctx.redact(VIEWS.json({ color: false }).plan(p, footer)));
          hooks.json?.(ctx.redact(VIEWS.json({ color: false }).plan(p, footer)));
        },
        saved(file, note) {
          // Notes go to stderr unless the output is text, so JSON and Markdown on stdout stay clean.
          const say = (text: string): void => (format === 'text' ? ctx.out(text) : ctx.err(text));
          say(`Saved the plan to ${file}; apply exactly it with: edgeops apply --plan ${file}\n`);
          if (note) ctx.err(`Note: ${note}\n`);
        },
        notSaved(file) {
          ctx.err(`Not saved to ${file}: a plan with errors cannot be applied.\n`);
        },
      },
    });
  };
  const ahead = flags.against ? undefined : settingsBeforeManifests(paths, flags, ctx, 'plan');
  if (ahead) return withConnection(ahead, paths, ({ api }) => run(api, ahead, load));
  const desired = await load();
  const settings = resolveSettings(flags, ctx.env, desired.config, ctx.stdout.isTTY === true);
  const loaded = async (): Promise<DesiredState> => desired;
  return flags.against
    ? run(openSnapshotApi(flags.against), settings, loaded)
    : withConnection(settings, paths, ({ api }) => run(api, settings, loaded));
}

export function registerPlan(program: Command, ctx: CliContext, done: (code: number) => void): void {
  const cmd = program
    .command('plan')
    .description('show what apply would change: fetch live state, diff it with the manifests')
    .addArgument(pathsArgument())
    .addOption(new Option('--format <format>', 'output format').choices(FORMATS).default('text'))
    .addOption(new Option('--detailed-exitcode', 'exit 0 when there are no changes, 2 when there are'))
    .addOption(new Option('--against <file>', 'plan against a snapshot from `edgeops export --snapshot` (no service URL or API key; no network)'))
    .addOption(new Option('--out <file>', 'also save the plan (no secret values) for `edgeops apply --plan FILE`'))
    .addOption(new Option('--json-out <file>', 'also write the plan in the JSON plan format (as --format json prints it) to FILE'))
    .addOption(new Option('--destroy', 'allow paths without documents: plan deleting every resource of the stack (apply needs --destroy too)'))
    .addOption(targetOption())
    .addOption(new Option('--parallel <n>', 'paths holding several stacks: plan this many stacks at once (default 1)'))
    .addOption(new Option('--changed-since <ref>', 'plan only the stacks whose files changed since git merge-base REF HEAD (as `edgeops stacks --changed-since` marks them), and warn about stack roots removed since'));
  addSharedOptions(addAdoptOptions(cmd))
    .addHelpText('after', `
Exit codes: 0 success (with --detailed-exitcode: 0 no changes, 2 changes), 1 error.

Examples:
  $ edgeops plan --local
  $ EDGEOPS_API_URL=http://127.0.0.1:4010 EDGEOPS_API_KEY=dev edgeops plan infra/
  $ edgeops plan infra/ --format markdown > plan.md      # for a pull-request comment
  $ edgeops plan infra/ --format json --detailed-exitcode
  $ edgeops plan infra/ --out plan.json                   # then: edgeops apply --plan plan.json
  $ edgeops plan infra/ --adopt                           # bring existing resources under management
  $ edgeops plan infra/ --format markdown --json-out plan.json   # one plan, two renderings
  $ edgeops plan infra/ --target TCPEdge/ssh              # only the edge and what it references
  $ edgeops plan infra/ --parallel 4                      # infra/ holding several stack roots
  $ edgeops plan infra/ --changed-since origin/main       # only the stacks this branch changes

Paths holding several stack roots (directories with an edgeops.yaml naming different stacks) plan each stack
on its own, with its own settings: a section per stack, then a summary table; --out DIR saves one plan per
stack (DIR/STACK.json); --format json prints {format_version, stacks: [{stack, dir, environment, checksum, plan}]}.
With --detailed-exitcode: 2 when any stack has changes; 1 when any stack failed (the others still run).
--changed-since REF plans only the stacks a change since REF touches (the others are rows "unchanged since
REF"), and warns about each stack root removed since: its live resources stay unmanaged.

The checksum printed under a plan approves it without a file: \`edgeops apply infra/ --checksum sha256:...\`
applies only if a fresh plan has exactly that checksum.`)
    // A failure is also written to --json-out, with the manifest problems' positions (json-error.ts).
    .action(async (paths: string[], flags: PlanFlags) => withJsonError(ctx, flags.jsonOut, async () => {
      if (flags.changedSince !== undefined) {
        const changed = changedTargets(paths, process.cwd(), flags.changedSince, flags.stack, ctx.env);
        const removed = await removedStackNotes(ctx, changed.removed, flags);
        const since = { ref: flags.changedSince, unchanged: changed.unchanged, removed };
        done(await planStacks(ctx, changed.targets, flags, (sub, from, f, hooks) => planned(sub, from, f, hooks), since));
        return;
      }
      const targets = stackTargets(paths, process.cwd(), flags.stack, ctx.env);
      if (targets) {
        done(await planStacks(ctx, targets, flags, (sub, from, f, hooks) => planned(sub, from, f, hooks)));
        return;
      }
      const { plan: made } = await planned(ctx, paths, flags);
      done(flags.detailedExitcode && made.actions.length > 0 ? 2 : 0);
    }));
}
