// `edgeops apply [PATH...]`: plan, confirm, execute with progress, then the summary. Exit 1 on any failure.
// Approval comes from the prompt, --auto-approve, a checksum (`--checksum`: only a fresh plan with exactly that
// checksum runs) or a saved plan (`--plan FILE`: exactly its actions run, unless what they act on changed).
// Every way refuses a plan over the delete limits without --allow-deletes, and a plan deleting every resource
// of the stack (a destroy) without --destroy.
import { Option, type Command } from 'commander';
import { ConfigError } from '../../errors.ts';
import * as apply from '../../operations/apply.ts';
import { readSavedPlan } from '../../operations/saved-plans.ts';
import { loadDesired } from '../../pipeline.ts';
import { createApplyView } from '../../render/apply-progress.ts';
import { confirmApply } from '../confirm.ts';
import { keyMaterial, withConnection } from '../connect.ts';
import type { CliContext } from '../context.ts';
import { learnSecrets } from '../learn-secrets.ts';
import { sayManifestWarnings } from '../manifest-warnings.ts';
import { trapInterrupts } from '../../interrupt.ts';
import { addAdoptOptions, addSharedOptions, resolveSettings, type SharedFlags } from '../settings.ts';
import { applyLockOptions, lockTimeoutOption } from '../apply-lock.ts';
import { settingsBeforeManifests } from '../settings-ahead.ts';
import { stackHeading } from '../stack-heading.ts';
import { DEFAULT_PATHS } from '../paths-argument.ts';
import { checksumForStack, checksumOption, targetOption } from '../plan-options.ts';
import { applyStacks, type ApplyStackFlags, type StackApproval } from '../stack-applies.ts';
import { stackTargets } from '../stack-runs.ts';
import { fromSavedPaths } from '../saved-plan-paths.ts';
import { runTargets } from '../../operations/plan-selection.ts';

interface ApplyFlags extends SharedFlags, ApplyStackFlags {
  plan?: string;
  allowDeletes?: boolean;
  destroy?: boolean;
  lockTimeout?: string;
}

/** One apply: the paths' stack, planned under its lock, approved, executed, reported. */
async function applied(ctx: CliContext, args: string[], flags: ApplyFlags, opts: StackApproval = {}): Promise<apply.ApplyOutcome> {
  if (flags.plan && flags.checksum) throw new ConfigError('--plan and --checksum cannot be combined: a saved plan is applied as saved');
  if (flags.plan && flags.adopt !== undefined) throw new ConfigError('--adopt and --no-adopt cannot be combined with --plan: the saved plan says whether it adopts');
  const saved = flags.plan ? readSavedPlan(flags.plan) : undefined;
  const paths = args.length > 0 ? args : saved?.paths ?? [...DEFAULT_PATHS];
  // Paths read from the saved plan: a failure to read them says so.
  const pathFailure = (err: unknown): unknown => (saved && args.length === 0 ? fromSavedPaths(err, flags.plan!, paths, process.cwd()) : err);
  const targets = runTargets(flags.target, saved && flags.plan ? { file: flags.plan, contents: saved } : undefined);
  // A saved destroy re-reads its empty paths, so that the refusal without --destroy names the real reason.
  const allowEmpty = flags.destroy === true || saved?.plan.destroy !== undefined;
  const isTTY = ctx.stdout.isTTY === true;
  // With the settings known before the manifests (settingsBeforeManifests), the manifests load while the
  // lock is taken and the lists are fetched; otherwise they are read first, as the settings need them.
  let ahead;
  try {
    ahead = settingsBeforeManifests(paths, flags, ctx, 'apply');
  } catch (err) {
    throw pathFailure(err);
  }
  if (saved && ahead && saved.stack !== ahead.stack) ahead = undefined;
  // settingsBeforeManifests has refused part of a stack: the paths are not walked for it again.
  const loading = loadDesired(paths, ctx.env, { stack: flags.stack ?? saved?.stack, allowEmpty, ownStackFiles: flags.ownStackFiles }).then((desired) => {
    learnSecrets(ctx, desired);
    sayManifestWarnings(ctx, desired);
    return desired;
  }, (err: unknown) => {
    throw pathFailure(err);
  });
  loading.catch(() => undefined); // awaited by the operation, before anything is printed
  const settings = ahead ?? resolveSettings(flags, ctx.env, (await loading).config, isTTY);
  if (saved && saved.stack !== settings.stack) {
    throw new ConfigError(`${flags.plan} is a plan for stack "${saved.stack}", but this run is for stack "${settings.stack}"`);
  }
  const lock = applyLockOptions(ctx, settings.stack, flags.lockTimeout);
  // Ctrl-C (or SIGTERM) at any point from here on ends the run with exit 1 and the lock released: while
  // the lock is taken or the plan made, at once; during the apply, once the actions in flight have finished.
  const interrupt = trapInterrupts((text) => ctx.err(text));
  const request: apply.ApplyRequest = {
    stack: settings.stack,
    adopt: settings.adopt,
    desired: loading,
    saved: saved && flags.plan ? { file: flags.plan, contents: saved } : undefined,
    checksum: opts.checksum ?? checksumForStack(flags.checksum, settings.stack),
    targets,
    approved: flags.autoApprove === true,
    allowDeletes: flags.allowDeletes === true,
    destroy: flags.destroy === true,
    concurrency: settings.concurrency,
    material: keyMaterial(settings, ctx.env),
    lock,
  };
  const heading = stackHeading(paths, settings);
  if (heading) ctx.out(`${heading}\n\n`);
  // design: CLI: NO_COLOR and --no-color turn the live display off as well, not only the colours.
  const view = createApplyView({ write: (text) => ctx.out(text), color: settings.color, live: settings.color && opts.live !== false, columns: ctx.stdout.columns });
  return apply.manifestsFirst(loading, withConnection(settings, paths, ({ api }) =>
    apply.run(request, { api, view, approve: opts.approve ?? (() => confirmApply(ctx)), signal: interrupt.signal, interrupt })))
    .finally(() => interrupt.dispose());
}

export function registerApply(program: Command, ctx: CliContext, done: (code: number) => void): void {
  const cmd = program
    .command('apply')
    .description('make live state match the manifests: plan, confirm, then create, update, replace and delete')
    .argument('[paths...]', 'manifest files or directories (default: those the plan was made from with --plan, else the current directory)')
    .addOption(new Option('--auto-approve', 'apply without asking (required when stdin is not a terminal)'))
    .addOption(new Option('--plan <file>', 'apply a plan saved by `plan --out`, exactly; refused if what it acts on changed since'))
    .addOption(checksumOption())
    .addOption(targetOption())
    .addOption(new Option('--allow-deletes', 'apply a plan that deletes more than max_deletes (or a max_deletes_per_kind limit)'))
    .addOption(new Option('--destroy', 'apply a plan that deletes every resource of the stack (paths without documents are then allowed)'))
    .addOption(lockTimeoutOption())
    .addOption(new Option('--parallel <n>', 'paths holding several stacks: apply this many independent stacks at once (default 4)'));
  addSharedOptions(addAdoptOptions(cmd))
    .addHelpText('after', `
A plan that deletes every resource of the stack is a destroy: it runs only with --destroy, whatever the
delete limits (and then without them). To delete a stack on purpose, apply a directory holding only its
edgeops.yaml with --destroy; any other path without documents is an error.

Paths holding several stack roots apply each stack on its own, under its own lock, each approved by itself: at
a terminal a confirmation per stack (its name typed for a stack whose edgeops.yaml says protect: true),
--auto-approve, or --checksum STACK=sha256:... repeated (a stack without one is not applied). A stack whose
edgeops.yaml says after: [DIR...] applies once those stacks applied in the same run; a failed or refused stack
skips every stack after it. Independent stacks apply --parallel N at once.

Exit codes: 0 applied (or nothing to do), 1 error, refusal (stale saved plan, checksum mismatch, too many
deletes, a destroy without --destroy) or partial failure (every failure is listed; the actions that did not depend on it ran, and running
the command again converges).

Examples:
  $ edgeops apply --local --auto-approve
  $ edgeops apply infra/ --api-url http://127.0.0.1:4010 --api-key dev
  $ EDGEOPS_STACK=staging edgeops apply infra/ --auto-approve --concurrency 4
  $ edgeops apply --plan plan.json                       # the plan saved by: edgeops plan infra/ --out plan.json
  $ edgeops apply infra/ --checksum sha256:4f1c...        # the checksum a reviewer approved
  $ edgeops apply infra/ --target TCPEdge/ssh             # only the edge and what it references
  $ edgeops apply infra/ --auto-approve --allow-deletes
  $ edgeops apply retired/ --destroy                      # retired/ holds only edgeops.yaml: delete the whole stack
  $ edgeops apply infra/ --checksum edge-staging=sha256:4f1c... --checksum edge-prod=sha256:9a0b...`)
    .action(async (args: string[], flags: ApplyFlags) => {
      const targets = flags.plan ? undefined : stackTargets(args.length > 0 ? args : [...DEFAULT_PATHS], process.cwd(), flags.stack, ctx.env);
      if (targets) {
        done(await applyStacks(ctx, targets, flags, (sub, paths, f, opts) => applied(sub, paths, f, opts)));
        return;
      }
      await applied(ctx, args, flags);
      done(0);
    });
}
