// `edgeops apply [PATH...]`: plan, confirm, execute with progress, then the summary. Exit 1 on any failure.
// Approval comes from the prompt, --auto-approve, a checksum (`--checksum`: only a fresh plan with exactly that
// checksum runs) or a saved plan (`--plan FILE`: exactly its actions run, unless what they act on changed).
// Every way refuses a plan over the delete limits without --allow-deletes, and a plan deleting every resource
// of the stack (a destroy) without --destroy.
import { Option, type Command } from 'commander';
import { AbortedError, ApplyFailedError, ConfigError, StalePlanError } from '../../errors.ts';
import { savedFileKey } from '../../engine/fingerprint.ts';
import { sameChecksum } from '../../engine/plan-meaning.ts';
import { assertDeletesAllowed, deleteStatusLine, markDestroy } from '../../engine/safety.ts';
import { checkSavedPlan } from '../../engine/saved-plan-check.ts';
import { liveNames } from '../../engine/plan-names.ts';
import { KINDS } from '../../kinds/index.ts';
import { computePlan, executeAndCheck, loadDesired, startFetch } from '../../pipeline.ts';
import type { PlanContext } from '../../pipeline.ts';
import { createApplyProgress } from '../../render/apply-progress.ts';
import { applySummary } from '../../render/apply-report.ts';
import { renderFooterText, renderPlanText } from '../../render/text.ts';
import { LockLostError, withStackLock } from '../../lock/stack-lock.ts';
import { confirmApply } from '../confirm.ts';
import { withConnection } from '../connect.ts';
import type { CliContext } from '../context.ts';
import { learnSecrets } from '../learn-secrets.ts';
import { trapInterrupts } from '../interrupt.ts';
import { checksumOf, keyMaterial, readSavedPlan } from '../saved-plans.ts';
import { addAdoptOptions, addSharedOptions, resolveSettings, type SharedFlags } from '../settings.ts';
import { applyLockOptions, lockTimeoutOption } from '../apply-lock.ts';
import { settingsBeforeManifests } from '../settings-ahead.ts';

interface ApplyFlags extends SharedFlags {
  autoApprove?: boolean;
  plan?: string;
  checksum?: string;
  allowDeletes?: boolean;
  destroy?: boolean;
  lockTimeout?: string;
}

export function registerApply(program: Command, ctx: CliContext, done: (code: number) => void): void {
  const cmd = program
    .command('apply')
    .description('make live state match the manifests: plan, confirm, then create, update, replace and delete')
    .argument('[paths...]', 'manifest files or directories (with --plan: those the plan was made from, by default)')
    .addOption(new Option('--auto-approve', 'apply without asking (required when stdin is not a terminal)'))
    .addOption(new Option('--plan <file>', 'apply a plan saved by `plan --out`, exactly; refused if what it acts on changed since'))
    .addOption(new Option('--checksum <checksum>', 'apply only if a fresh plan has this checksum (as printed by `plan`); no prompt'))
    .addOption(new Option('--allow-deletes', 'apply a plan that deletes more than max_deletes (or a max_deletes_per_kind limit)'))
    .addOption(new Option('--destroy', 'apply a plan that deletes every resource of the stack (paths without documents are then allowed)'))
    .addOption(lockTimeoutOption());
  addSharedOptions(addAdoptOptions(cmd))
    .addHelpText('after', `
A plan that deletes every resource of the stack is a destroy: it runs only with --destroy, whatever the
delete limits (and then without them). To delete a stack on purpose, apply a directory holding only its
edgeops.yaml with --destroy; any other path without documents is an error.

Exit codes: 0 applied (or nothing to do), 1 error, refusal (stale saved plan, checksum mismatch, too many
deletes, a destroy without --destroy) or partial failure (every failure is listed; the actions that did not depend on it ran, and running
the command again converges).

Examples:
  $ edgeops apply examples/basic --local --auto-approve
  $ edgeops apply infra/ --api-url http://127.0.0.1:4010 --api-key dev
  $ EDGEOPS_STACK=staging edgeops apply infra/ --auto-approve --concurrency 4
  $ edgeops apply --plan plan.json                       # the plan saved by: edgeops plan infra/ --out plan.json
  $ edgeops apply infra/ --checksum sha256:4f1c...        # the checksum a reviewer approved
  $ edgeops apply infra/ --auto-approve --allow-deletes
  $ edgeops apply retired/ --destroy                      # retired/ holds only edgeops.yaml: delete the whole stack`)
    .action(async (args: string[], flags: ApplyFlags) => {
      if (flags.plan && flags.checksum) throw new ConfigError('--plan and --checksum cannot be combined: a saved plan is applied as saved');
      if (flags.plan && flags.adopt !== undefined) throw new ConfigError('--adopt and --no-adopt cannot be combined with --plan: the saved plan says whether it adopts');
      const saved = flags.plan ? readSavedPlan(flags.plan) : undefined;
      const paths = args.length > 0 ? args : saved?.paths ?? [];
      if (paths.length === 0) throw new ConfigError('no manifest paths given: apply PATH... (or --plan FILE, which records them)');
      // A saved destroy re-reads its empty paths, so that the refusal without --destroy names the real reason.
      const allowEmpty = flags.destroy === true || saved?.plan.destroy !== undefined;
      const isTTY = ctx.stdout.isTTY === true;
      // With the settings known before the manifests (settingsBeforeManifests), the manifests load while the
      // lock is taken and the lists are fetched; otherwise they are read first, as the settings need them.
      let ahead = settingsBeforeManifests(paths, flags, ctx);
      if (saved && ahead && saved.stack !== ahead.stack) ahead = undefined;
      const loading = loadDesired(paths, ctx.env, { stack: flags.stack ?? saved?.stack, allowEmpty });
      loading.catch(() => undefined); // awaited below, before anything is printed
      const loadedFirst = ahead ? undefined : await loading;
      if (loadedFirst) learnSecrets(ctx, loadedFirst);
      const settings = ahead ?? resolveSettings(flags, ctx.env, loadedFirst!.config, isTTY);
      if (saved && saved.stack !== settings.stack) {
        throw new ConfigError(`${flags.plan} is a plan for stack "${saved.stack}", but this run is for stack "${settings.stack}"`);
      }
      const lockOptions = applyLockOptions(ctx, settings.stack, flags.lockTimeout);
      // Ctrl-C (or SIGTERM) at any point from here on ends the run with exit 1 and the lock released: while
      // the lock is taken or the plan made, at once; during the apply, once the actions in flight have finished.
      const interrupt = trapInterrupts(ctx);
      // Invalid manifests stop a wait for the lock: their problems are the run's outcome.
      const invalid = new AbortController();
      loading.catch(() => invalid.abort());
      const signal = AbortSignal.any([interrupt.signal, invalid.signal, ...(lockOptions.signal ? [lockOptions.signal] : [])]);
      // The lock is held from before the plan until the apply has finished: two applies of one stack never
      // both plan a create of the same resource (README "Reliability"). So the lists start once it is held:
      // a list read before could miss what the previous holder was still writing.
      await withConnection(settings, paths, async ({ api }) => withStackLock(api, settings.stack, { ...lockOptions, signal }, async (lock) => {
        interrupt.onForcedExit(() => lock.release());
        const material = keyMaterial(settings, ctx.env);
        const adopt = saved?.adopt ?? settings.adopt;
        const live = startFetch(api, { stack: settings.stack });
        const fresh = await unlessInterrupted(interrupt.signal, 'while planning', async () => {
          const loaded = await loading;
          learnSecrets(ctx, loaded);
          return computePlan(loaded, api, { stack: settings.stack, adopt, live });
        });
        const { desired } = fresh;
        let planned: PlanContext = fresh;
        let approved = flags.autoApprove === true;
        if (saved) {
          planned = { ...fresh, plan: checkSavedPlan(saved, fresh, KINDS, savedFileKey(saved.secret_fingerprints, material)) };
          ctx.out(`Applying the saved plan ${flags.plan} (checksum ${saved.checksum}).\n\n`);
          approved = true;
        }
        const plan = markDestroy(planned.plan, planned.live, KINDS, desired.config);
        planned = { ...planned, plan };
        ctx.out(renderPlanText(plan, { color: settings.color }) + renderFooterText({ deletes: deleteStatusLine(plan, desired.config) }));
        if (flags.checksum) {
          const actual = checksumOf(plan, material);
          if (!sameChecksum(flags.checksum, actual)) {
            throw new StalePlanError(`this plan is not the approved one: its checksum is ${actual}, not ${flags.checksum} (the manifests or live state changed since); review it and approve the new checksum`);
          }
          approved = true;
        }
        if (interrupt.signal.aborted) throw interruptedBefore('before any action started');
        if (plan.actions.length === 0) return;
        assertDeletesAllowed(plan, desired.config, { deletes: flags.allowDeletes === true, destroy: flags.destroy === true });
        if (!approved) await confirmApply(ctx);
        if (interrupt.signal.aborted) throw interruptedBefore('before any action started');
        interrupt.actionsStarting();
        ctx.out('\n');

        // A failure may mention any live resource (the one in the way, a referrer): each is named if managed.
        const names = { ...Object.fromEntries(liveNames(planned.live, KINDS, settings.stack)), ...plan.names };
        const progress = createApplyProgress({
          // DESIGN 2: NO_COLOR and --no-color turn the live display off as well, not only the colours.
          live: settings.color,
          color: settings.color,
          total: plan.actions.length,
          names,
          write: (text) => ctx.out(text),
          columns: ctx.stdout.columns,
        });
        let outcome;
        try {
          outcome = await executeAndCheck(planned, api, {
            stack: settings.stack,
            concurrency: settings.concurrency,
            onEvent: (event) => progress.onEvent(event),
            signal: AbortSignal.any([interrupt.signal, lock.lost]),
          });
        } finally {
          progress.stop();
        }
        // What was written is always reported first; then the self-check's failure (a perpetual diff is a bug
        // in edgeops, named by field), which fails the apply even when every action succeeded.
        const { result, selfCheck } = outcome;
        ctx.out(`\n${applySummary(plan, result, names)}`);
        if (lock.lost.aborted) throw new LockLostError(settings.stack, lock.id);
        if (result.interrupted) throw new AbortedError('apply interrupted; run it again to converge');
        if (selfCheck) throw selfCheck;
        if (!result.ok) throw new ApplyFailedError('apply failed (see the failures above)');
      })).catch(async (err: unknown) => {
        // The manifests' problems come first, whatever the service said meanwhile (a refused lock, a 401).
        await loading;
        throw err;
      }).finally(() => interrupt.dispose());
      done(0);
    });
}

const interruptedBefore = (when: string): AbortedError =>
  new AbortedError(`apply interrupted ${when}: nothing was changed; run it again to apply`);

/**
 * `start()`'s work, unless an interrupt comes first: then an AbortedError saying when, and the work is
 * abandoned (it only reads; the lock is released as the error unwinds, and the closed client ends it).
 */
function unlessInterrupted<T>(signal: AbortSignal, when: string, start: () => Promise<T>): Promise<T> {
  if (signal.aborted) return Promise.reject(interruptedBefore(when));
  const work = start();
  return new Promise<T>((resolve, reject) => {
    const onAbort = (): void => reject(interruptedBefore(when));
    signal.addEventListener('abort', onAbort, { once: true });
    work.then(resolve, reject).finally(() => signal.removeEventListener('abort', onAbort));
  });
}
