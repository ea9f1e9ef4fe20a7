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
PATH holds a whole stack, as for plan: a file or directory inside a stack's root alone is refused.

Exit codes: 0 listed, 1 error.

Examples:
  $ edgeops list infra/ --format json
  $ edgeops list --local`)
    .action(async (path: string, flags: ListFlags) => {
      // Whole stacks only, as for plan: a document outside the part given would read as gone.
      const desired = await loadDesired([path], ctx.env, { stack: flags.stack, wholeStacks: 'list' });
      learnSecrets(ctx, desired);
      const settings = resolveSettings(flags, ctx.env, desired.config, ctx.stdout.isTTY === true);
      const view: listing.ListView = { listed: (outcome) => ctx.out(LIST_FORMATS[flags.format](outcome)) };
      await withConnection(settings, [path], ({ api }) => listing.run({ stack: settings.stack, desired }, { api, view }), { readOnly: true });
      done(0);
    });
}
