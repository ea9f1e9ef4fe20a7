// `validate` and `list` over several stacks (stack-runs.ts): each stack checked or listed on its own, its output
// written whole under its name and directory, every line of a failure naming its stack; as JSON, one document
// holding each stack's single-stack JSON. Exit 1 when any stack failed; the others still ran and reported.
import { ManifestError } from '../errors.ts';
import { renderValidateJson } from '../render/validate-json.ts';
import { stackHeading, stacksJson, type ReportFormat } from '../render/stack-report.ts';
import type { CliContext } from './context.ts';
import { runEachStack, tagged, type StackTarget } from './stack-runs.ts';

const about = (t: StackTarget) => ({ stack: t.root.stack, dir: t.root.dir, environment: t.root.environment });

/** Problems in a stack's manifests are part of the JSON answer; any other failure is that stack's error. */
export async function validateStacks(ctx: CliContext, targets: readonly StackTarget[], json: boolean, check: (sub: CliContext, paths: string[]) => Promise<number>): Promise<number> {
  const results = await runEachStack(ctx, targets, { parallel: 1 }, async (sub, target) => ({ code: 0, value: await check(sub, target.paths) }));
  if (json) {
    const stacks = results.map((r) => {
      const verdict = r.value !== undefined ? renderValidateJson({ resources: r.value })
        : r.error instanceof ManifestError ? renderValidateJson({ issues: r.error.issues }) : undefined;
      const { format_version: _, ...rest } = verdict ? (JSON.parse(verdict) as Record<string, unknown>) : { format_version: 1, ok: false, problems: [] };
      return { ...about(r.target), ...rest };
    });
    for (const r of results) if (r.value === undefined && !(r.error instanceof ManifestError)) ctx.err(tagged(r.target.root.stack, r.err));
    ctx.out(`${JSON.stringify({ format_version: 1, ok: results.every((r) => r.value !== undefined), stacks }, null, 2)}\n`);
  } else {
    for (const r of results) {
      if (r.value !== undefined) ctx.out(`${r.target.root.stack} (${r.target.root.dir}): ${r.value} resource${r.value === 1 ? '' : 's'} valid\n`);
      else ctx.err(tagged(r.target.root.stack, r.err));
    }
  }
  return results.every((r) => r.value !== undefined) ? 0 : 1;
}

/** Each stack's list under its heading; as JSON, each stack's list JSON under `list`. */
export async function listStacks(ctx: CliContext, targets: readonly StackTarget[], format: 'text' | 'json', list: (sub: CliContext, path: string) => Promise<void>): Promise<number> {
  const results = await runEachStack(ctx, targets, { parallel: 1 }, async (sub, target) => {
    await list(sub, target.paths[0]!);
    return { code: 0, value: true };
  });
  const entries = results.map((r) => {
    if (r.err !== '') ctx.err(tagged(r.target.root.stack, r.err));
    if (format === 'text' && r.value) ctx.out(`${stackHeading('text' as ReportFormat, r.target.root.stack, r.target.root.dir)}${r.out}\n`);
    return { ...about(r.target), list: r.value ? (JSON.parse(r.out) as unknown) : null };
  });
  if (format === 'json') ctx.out(stacksJson(entries, 1));
  return results.every((r) => r.value) ? 0 : 1;
}
