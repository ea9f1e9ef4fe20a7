// Plan and drift, run through the operations with the Action's views: Markdown for the comment and the job
// summary (the run's report, echoed to the log), and the same plan in the JSON plan format, which the action
// reads (the checksum, the counts, the delta since the last push) and publishes as the `plan-json` output. One
// reading of live state gives both, so the outputs, the comment and the job summary show the same plan.
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { openSnapshotApi } from '../client/snapshot.ts';
import type { Api } from '../kinds/resource-kind.ts';
import { keyMaterial } from '../operations/connection.ts';
import * as drift from '../operations/drift.ts';
import type { ResourceGraph } from '../operations/graph.ts';
import * as plan from '../operations/plan.ts';
import type { JsonProblem } from '../render/error-text.ts';
import { VIEWS } from '../render/views.ts';
import { commandLine, loadManifests, runEdgeops, runSettings, withService, type EdgeopsRun, type RunOutput } from './edgeops.ts';
import { parseJsonPlan, type JsonPlan } from './plan-state.ts';
import { exceptionApproval } from './policy-approval.ts';
import { blockingResults, isDriftFinding, type PolicyResult } from '../policy/results.ts';
import type { Session } from './session.ts';

type PlannedRun =
  /** `graph`: the plan's dependency graph (plan only), for the comment's diagram. */
  /** `denied`: a policy denies the plan (the plan is shown and posted all the same; the check fails). */
  /** `liveFindings` (drift): the policy results on live state that count as drift. */
  | { ok: true; run: EdgeopsRun; plan: JsonPlan; file: string; graph?: ResourceGraph; denied: boolean; liveFindings: PolicyResult[] }
  | { ok: false; run: EdgeopsRun; problems: JsonProblem[] };

const markdown = VIEWS.markdown({ color: false });
const json = VIEWS.json({ color: false });

/** The snapshot of the `against` input, or the service; either is closed after `fn`. */
function against<T>(s: Session, settings: Parameters<typeof withService>[0], o: RunOutput, fn: (api: Api) => Promise<T>): Promise<T> {
  return s.inputs.against ? fn(openSnapshotApi(s.inputs.against)) : withService(settings, o, fn);
}

/**
 * `plan` (exit 0, or 2 with changes) or `drift` (0 in sync, 2 drifted), the report in Markdown; the JSON plan
 * is published as the `plan-json` output, under a name with the stack of the run.
 */
export async function runPlanned(s: Session, command: 'plan' | 'drift', opts: { echo?: boolean } = {}): Promise<PlannedRun> {
  let planJson: string | undefined;
  let graph: ResourceGraph | undefined;
  let denied = false;
  let liveFindings: PolicyResult[] = [];
  const line = commandLine(s, command, [...(s.inputs.against ? ['--against', s.inputs.against] : []), '--format', 'markdown']);
  const run = await runEdgeops(s, line, opts.echo === true, async (o) => {
    const desired = await loadManifests(s);
    const settings = runSettings(s, desired);
    const { stack, adopt } = settings;
    if (command === 'drift') {
      const view: drift.DriftView = {
        drift(report, restoring) {
          o.out(markdown.drift(report));
          liveFindings = (report.policy?.results ?? []).filter(isDriftFinding);
          planJson = json.plan(restoring);
        },
      };
      const report = await against(s, settings, o, (api) => drift.run({ stack, adopt, desired }, { api, view }));
      return report.inSync ? 0 : 2;
    }
    const view: plan.PlanView = {
      plan(p, footer) {
        o.out(markdown.plan(p, footer));
        planJson = json.plan(p, footer);
        denied = blockingResults(p.policy?.results).length > 0;
      },
      saved: () => undefined,
      notSaved: () => undefined,
      graph: (g) => {
        graph = g;
      },
    };
    const approval = await exceptionApproval(s, desired);
    const request: plan.PlanRequest = { stack, adopt, desired: async () => desired, material: keyMaterial(settings, s.edgeopsEnv), paths: s.inputs.paths, policy: { approval } };
    const made = await against(s, settings, o, (api) => plan.run(request, { api, view, redact: s.redact }));
    return made.plan.actions.length > 0 ? 2 : 0;
  });
  // A plan a policy denies is still the plan to show: the comment carries it with the policy results.
  if (run.code !== 0 && run.code !== 2 && !(denied && planJson)) return { ok: false, run, problems: run.problems };
  const text = s.redact(planJson ?? '');
  const made = parseJsonPlan(text);
  // The stack is lower-case letters, digits and `-` (the settings check it), so it is safe in a file name.
  const file = join(s.tempDir, `edgeops-plan-${made.stack}.json`);
  writeFileSync(file, s.runner.scrub(text));
  s.runner.setOutput('plan-json', file);
  return { ok: true, run, plan: made, file, graph, denied, liveFindings };
}

export function planSummaryLine(p: JsonPlan): string {
  if (p.resources.length === 0) return `No changes on stack ${p.stack}: live state matches the manifests.`;
  const s = p.summary;
  return `Plan for stack ${p.stack}: ${s.create} to create, ${s.update} to update, ${s.replace} to replace, ${s.delete} to delete.`;
}
