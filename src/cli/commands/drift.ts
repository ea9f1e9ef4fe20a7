// `edgeops drift [PATH...]`: the planning half of the pipeline, reported as drift. Read-only by construction: the
// planner gets a read-only view of the Api (src/client/read-only.ts), so no code path here can write.
import { writeFileSync } from 'node:fs';
import { Option, type Command } from 'commander';
import { openSnapshotApi } from '../../client/snapshot.ts';
import type { Api } from '../../kinds/resource-kind.ts';
import * as drift from '../../operations/drift.ts';
import { loadDesired } from '../../pipeline.ts';
import { stackHeading } from '../stack-heading.ts';
import { FORMATS, VIEWS, type Format } from '../../render/views.ts';
import { withConnection } from '../connect.ts';
import type { CliContext } from '../context.ts';
import { learnSecrets } from '../learn-secrets.ts';
import { sayManifestWarnings } from '../manifest-warnings.ts';
import { withJsonError } from '../json-error.ts';
import { driftStacks } from '../stack-plans.ts';
import { stackTargets } from '../stack-runs.ts';
import { pathsArgument } from '../paths-argument.ts';
import { addAdoptOptions, addSharedOptions, resolveSettings, type SharedFlags } from '../settings.ts';

/** Exit code when live state has drifted (0 in sync, 1 error). */
const DRIFT_EXIT_CODE = 2;

interface DriftFlags extends SharedFlags {
  format: string;
  parallel?: string;
  /** Set for one stack of a run over several: deeper stack roots are theirs (not a flag). */
  ownStackFiles?: boolean;
  against?: string;
  jsonOut?: string;
}

/** One stack's drift: the report printed (and its JSON handed to `hooks`), then returned. */
async function drifted(ctx: CliContext, paths: string[], flags: DriftFlags, hooks: { json?(text: string): void; plan?(text: string): void } = {}): Promise<drift.DriftReport> {
  const format = flags.format as Format; // commander has checked it against FORMATS
  const desired = await loadDesired(paths, ctx.env, { stack: flags.stack, wholeStacks: 'drift', ownStackFiles: flags.ownStackFiles });
  learnSecrets(ctx, desired);
  sayManifestWarnings(ctx, desired);
  const settings = resolveSettings(flags, ctx.env, desired.config, ctx.stdout.isTTY === true);
  const view: drift.DriftView = {
    drift(report, plan) {
      const heading = format === 'text' ? stackHeading(paths, settings, flags.against) : undefined;
      if (heading) ctx.out(`${heading}\n\n`);
      ctx.out(VIEWS[format]({ color: settings.color }).drift(report));
      if (flags.jsonOut) writeFileSync(flags.jsonOut, ctx.redact(VIEWS.json({ color: false }).plan(plan)));
      hooks.json?.(ctx.redact(VIEWS.json({ color: false }).drift(report)));
      hooks.plan?.(ctx.redact(VIEWS.json({ color: false }).plan(plan)));
    },
  };
  const run = (api: Api) => drift.run({ stack: settings.stack, adopt: settings.adopt, desired }, { api, view });
  return flags.against ? run(openSnapshotApi(flags.against)) : withConnection(settings, paths, ({ api }) => run(api));
}

export function registerDrift(program: Command, ctx: CliContext, done: (code: number) => void): void {
  const cmd = program
    .command('drift')
    .description('report where live state differs from the manifests (changed, missing, live-only); never writes')
    .addArgument(pathsArgument())
    .addOption(new Option('--format <format>', 'output format').choices(FORMATS).default('text'))
    .addOption(new Option('--against <file>', 'compare with a snapshot from `edgeops export --snapshot` instead of the service'))
    .addOption(new Option('--json-out <file>', 'also write the plan that would restore the manifests\' state, in the JSON plan format, to FILE'))
    .addOption(new Option('--parallel <n>', 'paths holding several stacks: check this many stacks at once (default 1)'));
  addSharedOptions(addAdoptOptions(cmd))
    .addHelpText('after', `
Each finding has a direction: "changed" (live differs: edited by hand), "missing" (in the manifests, not live:
deleted out of band or never applied) or "live-only" (live, not in the manifests: a resource with this stack's
marker, a module, a response-headers module or an event source added by hand), the live and desired values, and
what apply would do about it. With adopt on (--adopt, EDGEOPS_ADOPT or edgeops.yaml \`adopt: true\`), a document
matching a live resource that has no ownership marker is "unmanaged": apply would adopt it, not create a copy.
A resource outside the stack that is part of a managed one (a rule added by hand to a managed IP policy) or
references one (an edge using a managed policy) is "unmanaged" too: apply leaves it, or deletes an unmarked part
when edgeops.yaml says \`authoritative: children\`.

Paths holding several stack roots check each stack on its own: a section per drifted or failed stack, then a
summary table; --format json prints {format_version, stacks: [{stack, dir, environment, drift}]}.

Exit codes: 0 in sync, 2 drift found (in any stack), 1 error (in any stack; the others still run).

Examples:
  $ edgeops drift infra/
  $ edgeops drift infra/ --format markdown >> "$GITHUB_STEP_SUMMARY"
  $ edgeops drift infra/ --format json --against snapshot.json`)
    // A failure is also written to --json-out, with the manifest problems' positions (json-error.ts).
    .action(async (paths: string[], flags: DriftFlags) => withJsonError(ctx, flags.jsonOut, async () => {
      const targets = stackTargets(paths, process.cwd(), flags.stack, ctx.env);
      if (targets) {
        done(await driftStacks(ctx, targets, flags, (sub, from, f, hooks) => drifted(sub, from, f, hooks)));
        return;
      }
      const report = await drifted(ctx, paths, flags);
      done(report.inSync ? 0 : DRIFT_EXIT_CODE);
    }));
}
