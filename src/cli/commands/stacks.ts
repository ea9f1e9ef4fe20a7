// `edgeops stacks [PATH...] [--changed-since REF]`: the stack roots under the paths and the files each is made
// of; with a ref, which of them a change since its merge base touches, and which were removed. No network.
import { Option, type Command } from 'commander';
import { assertPathsExist } from '../../manifest/missing-paths.ts';
import { listStacks } from '../../operations/stacks.ts';
import { renderStacks } from '../../render/stacks.ts';
import type { CliContext } from '../context.ts';
import { pathsArgument } from '../paths-argument.ts';

export function registerStacks(program: Command, ctx: CliContext, done: (code: number) => void): void {
  program
    .command('stacks')
    .description('list the stack roots (directories with an edgeops.yaml) and the files each is made of (no network)')
    .addArgument(pathsArgument('directories or files; each stack root at, above or below them'))
    .addOption(new Option('--changed-since <ref>', 'mark each stack changed when a file it is made of differs between git merge-base REF HEAD and the working tree (untracked files included); list removed stack roots'))
    .addOption(new Option('--format <format>', 'output format').choices(['text', 'json']).default('text'))
    .addHelpText('after', `
A stack root is a directory with an edgeops.yaml; its stack is the file's stack: ("default" when it names none).
JSON: {"stacks": [{"dir", "stack", "environment", "after", "inputs", "changed", "removed"}]}, sorted by dir;
dir and inputs are relative to the repository root; changed is null without --changed-since.

Examples:
  $ edgeops stacks infra
  $ edgeops stacks --changed-since origin/main --format json`)
    .action((paths: string[], flags: { changedSince?: string; format: 'text' | 'json' }) => {
      assertPathsExist(paths, process.cwd());
      const listing = listStacks(paths, process.cwd(), { changedSince: flags.changedSince });
      ctx.out(renderStacks(listing.stacks, flags.format, flags.changedSince !== undefined));
      done(0);
    });
}
