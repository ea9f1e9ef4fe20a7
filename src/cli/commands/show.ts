// `edgeops show FILE`: a saved plan (`plan --out FILE`) as `plan` printed it, checksum included, in any of the
// plan formats. Offline by construction: it reads the file and loads neither the HTTP client nor the service.
import { Option, type Command } from 'commander';
import * as show from '../../operations/show.ts';
import { FORMATS, VIEWS, type Format } from '../../render/views.ts';
import type { CliContext } from '../context.ts';
import { colorEnabled } from '../settings.ts';

interface ShowFlags {
  format: string;
  color: boolean;
}

export function registerShow(program: Command, ctx: CliContext, done: (code: number) => void): void {
  program
    .command('show')
    .description('print a saved plan (plan --out FILE) as plan printed it, with its checksum; no network')
    .argument('<file>', 'a plan saved by `edgeops plan --out FILE`')
    .addOption(new Option('--format <format>', 'output format').choices(FORMATS).default('text'))
    .addOption(new Option('--no-color', 'no colour in the output (also NO_COLOR)'))
    .addHelpText('after', `
The file must be a saved plan as plan --out wrote it: one edited since (its digest no longer matches its
content) or any other file is refused. Nothing is fetched: the plan is shown as it was made, however the
live state has changed since; apply --plan FILE checks that before it writes anything.

Exit codes: 0 shown, 1 not a saved plan, or an edited one.

Examples:
  $ edgeops show plan.json                          # review the plan saved by: edgeops plan infra/ --out plan.json
  $ edgeops show plan.json --format markdown > plan.md`)
    .action((file: string, flags: ShowFlags) => {
      const { plan, footer } = show.run(file);
      const color = colorEnabled(flags.color, ctx.env, ctx.stdout.isTTY === true);
      ctx.out(VIEWS[flags.format as Format]({ color }).plan(plan, footer)); // commander has checked the format
      done(0);
    });
}
