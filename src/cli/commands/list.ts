// `edgeops list [PATH]`: the resources of the stack PATH's manifests manage, as the service holds them, each with
// its id and the file:line of its document (or `not in the manifests`). Read-only.
import { Option, type Command } from 'commander';
import * as listing from '../../operations/list.ts';
import { loadDesired } from '../../pipeline.ts';
import { LIST_FORMATS } from '../../render/list.ts';
import { withConnection } from '../connect.ts';
import type { CliContext } from '../context.ts';
import { learnSecrets } from '../learn-secrets.ts';
import { addSharedOptions, resolveSettings, type SharedFlags } from '../settings.ts';
import { listStacks } from '../stack-checks.ts';
import { stackTargets } from '../stack-runs.ts';

interface ListFlags extends SharedFlags {
  format: keyof typeof LIST_FORMATS;
}

export function registerList(program: Command, ctx: CliContext, done: (code: number) => void): void {
  const cmd = program
    .command('list')
    .description("list the stack's managed resources on the service: Kind/name, id and the document's file:line")
    .argument('[path]', 'manifest file or directory: its documents, and the stack its edgeops.yaml names', '.')
    .addOption(new Option('--format <format>', 'output format').choices(Object.keys(LIST_FORMATS)).default('text'));
  addSharedOptions(cmd)
    .addHelpText('after', `
A managed resource is one carrying the stack's ownership marker; one whose document is gone shows as
"not in the manifests" (a plan of PATH deletes it). Natural-key items (an HTTPS route's response headers, an
event subscription's sources) belong to their parent and are not listed. Names sort naturally: bulk-2 before bulk-10.
PATH holds a whole stack, as for plan: a file or directory inside a stack's root alone is refused. A PATH
holding several stack roots lists each stack under its name and directory (--format json: {format_version,
stacks: [{stack, dir, environment, list}]}).

Exit codes: 0 listed, 1 error.

Examples:
  $ edgeops list infra/ --format json
  $ edgeops list --local`)
    .action(async (path: string, flags: ListFlags) => {
      const list = async (sub: CliContext, from: string, ownStackFiles?: boolean): Promise<void> => {
        // Whole stacks only, as for plan: a document outside the part given would read as gone.
        const desired = await loadDesired([from], sub.env, { stack: flags.stack, wholeStacks: 'list', ownStackFiles });
        learnSecrets(sub, desired);
        const settings = resolveSettings(flags, sub.env, desired.config, sub.stdout.isTTY === true);
        const view: listing.ListView = { listed: (outcome) => sub.out(LIST_FORMATS[flags.format](outcome)) };
        await withConnection(settings, [from], ({ api }) => listing.run({ stack: settings.stack, desired }, { api, view }), { readOnly: true });
      };
      const targets = stackTargets([path], process.cwd(), flags.stack, ctx.env);
      if (targets) {
        done(await listStacks(ctx, targets, flags.format === 'json' ? 'json' : 'text', (sub, from) => list(sub, from, true)));
        return;
      }
      await list(ctx, path);
      done(0);
    });
}
