// `edgeops unlock --stack S LOCK_ID`: release a stack's lock by hand, when its holder is gone for good (a CI
// runner torn down mid-apply, on another machine: only the TTL would tell). The id, printed by every apply
// refused or kept waiting by the lock, works as a nonce, as with `terraform force-unlock`: a mistyped or
// stale id releases nothing. On a terminal it asks first; elsewhere --force (or --auto-approve) is required.
import { existsSync } from 'node:fs';
import { resolve } from 'node:path';
import { Option, type Command } from 'commander';
import { EdgeopsError, ManifestError } from '../../errors.ts';
import { currentHolder, holderState } from '../../lock/holder.ts';
import type { LockRecord } from '../../lock/lock-record.ts';
import { deleteLockRecord, listLockRecords } from '../../lock/records.ts';
import type { ProjectConfig } from '../../manifest/document.ts';
import { readProjectFiles } from '../../manifest/discover.ts';
import { PROJECT_FILE_NAMES } from '../../manifest/schema/project.ts';
import { confirm } from '../confirm.ts';
import { withConnection } from '../connect.ts';
import type { CliContext } from '../context.ts';
import { addSharedOptions, resolveSettings, type SharedFlags } from '../settings.ts';

interface UnlockFlags extends SharedFlags {
  force?: boolean;
  autoApprove?: boolean;
}

const lockDetails = (r: LockRecord): string => `holder ${r.holder}, since ${r.acquired}, expires ${r.expires}`;

/** What the current directory's edgeops.yaml says (stack, api_url), as for the other commands. */
function projectConfig(): ProjectConfig {
  const files = PROJECT_FILE_NAMES.filter((name) => existsSync(name)).map((name) => ({ abs: resolve(name), rel: name }));
  const { config, issues } = readProjectFiles(files);
  if (issues.length > 0) throw new ManifestError(issues);
  return config;
}

export function registerUnlock(program: Command, ctx: CliContext, done: (code: number) => void): void {
  const cmd = program
    .command('unlock')
    .description("release a stack's lock by its id, when the apply holding it is gone for good")
    .argument('<lock-id>', 'the id of the lock record, as printed by an apply waiting for it or refused by it (ipp_...)')
    .addOption(new Option('--force', 'release without asking (required when stdin is not a terminal)'))
    .addOption(new Option('--auto-approve', 'the same as --force'));
  addSharedOptions(cmd)
    .addHelpText('after', `
An apply holds its stack's lock from before it plans until it has finished, renewing it every 15 s; a lock not
renewed for 60 s is taken over by the next apply, and on the same host an apply whose holder's process is gone
takes it at once. Release a lock by hand only when its holder is gone for good: if it still runs, it finds its
lock gone at its next renewal and starts no new action.

Exit codes: 0 released, 1 error (no such lock on the stack, not confirmed).

Examples:
  $ edgeops unlock --stack prod ipp_2rcCvYaCz4tUbWiCRVTCu2Rsx02
  $ edgeops unlock --stack prod ipp_2rcCvYaCz4tUbWiCRVTCu2Rsx02 --force --api-url http://127.0.0.1:4010`)
    .action(async (id: string, flags: UnlockFlags) => {
      const settings = resolveSettings(flags, ctx.env, projectConfig(), ctx.stdout.isTTY === true);
      const stack = settings.stack;
      await withConnection(settings, ['.'], async ({ api }) => {
        const records = await listLockRecords(api, stack);
        const record = records.find((r) => r.id === id);
        if (!record) {
          const held = records.length === 0
            ? `stack "${stack}" is not locked`
            : `its lock records: ${records.map((r) => `${r.id} (${lockDetails(r)})`).join('; ')}`;
          throw new EdgeopsError('E_LOCK_NOT_FOUND', `no lock ${JSON.stringify(id.slice(0, 64))} on stack "${stack}": ${held}`);
        }
        const running = holderState(record, currentHolder(ctx.env)) === 'running';
        const warning = running ? `Its holder (pid ${record.pid}) is still running on this host: it will start no new action once it finds the lock gone.\n` : '';
        if (!flags.force && !flags.autoApprove) {
          ctx.out(`Lock ${record.id} of stack "${stack}": ${lockDetails(record)}.\n${warning}`);
          await confirm(ctx, "Do you want to release this lock? Another apply of the stack may then start. Only 'yes' will be accepted.", {
            noTerminal: `refusing to release the lock without confirmation: stdin is not a terminal, so nobody can answer the prompt; pass --force`,
            cancelled: 'Unlock cancelled',
          });
        } else if (warning) {
          ctx.err(`Warning: ${warning}`);
        }
        const deleted = await deleteLockRecord(api, record.id);
        ctx.out(deleted
          ? `Released lock ${record.id} of stack "${stack}" (${lockDetails(record)}).\n`
          : `Lock ${record.id} of stack "${stack}" was released meanwhile (${lockDetails(record)}).\n`);
      });
      done(0);
    });
}
