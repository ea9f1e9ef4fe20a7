// `edgeops __complete-targets [PATH]` (hidden): the `Kind/name` of every document under PATH, one per line,
// sorted, for the completion scripts to offer after --target. The files are only read and parsed: no secret is
// read (a key's variable is seldom set in an interactive shell), and a half-edited file still offers the
// documents that parse.
import type { Command } from 'commander';
import { addressOf } from '../../manifest/document.ts';
import { loadManifests } from '../../manifest/read-desired.ts';
import type { CliContext } from '../context.ts';
import { TARGETS_COMMAND } from '../completion/spec.ts';

export function registerCompleteTargets(program: Command, ctx: CliContext, done: (code: number) => void): void {
  program
    .command(TARGETS_COMMAND, { hidden: true })
    .description('print the Kind/name of every document under PATH (for shell completion)')
    .argument('[path]', 'manifest file or directory', '.')
    .action((path: string) => {
      const { docs } = loadManifests([path]);
      const addresses = [...new Set(docs.filter((d) => d.name !== '').map(addressOf))].sort();
      ctx.out(addresses.map((a) => `${a}\n`).join(''));
      done(0);
    });
}
