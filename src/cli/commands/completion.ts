// `edgeops completion bash|zsh|fish`: a completion script for the shell, generated from this program's own
// commands and options (every command registered in program.ts), so it never lags behind the CLI.
import { Argument, type Command } from 'commander';
import { SHELLS, type Shell } from '../completion/scripts.ts';
import { completionSpec } from '../completion/spec.ts';
import type { CliContext } from '../context.ts';

export function registerCompletion(program: Command, ctx: CliContext, done: (code: number) => void, whole: () => Promise<Command>): void {
  program
    .command('completion')
    .description('print a shell completion script: commands, options, --format values, Kind/name after --target')
    .addArgument(new Argument('<shell>', 'the shell').choices(Object.keys(SHELLS)))
    .addHelpText('after', `
The script completes the command names, each command's options, the values of --format, and after --target
the Kind/name of every document under the command line's PATH (the current directory when none is given yet),
which it asks of edgeops itself.

Examples:
  $ source <(edgeops completion bash)                          # this shell; add it to ~/.bashrc to keep it
  $ edgeops completion zsh > "\${fpath[1]}/_edgeops"            # then restart zsh
  $ edgeops completion fish > ~/.config/fish/completions/edgeops.fish`)
    .action(async (shell: string) => {
      // Every command, whichever one this run loaded: the script covers them all.
      const full = await whole();
      ctx.out(SHELLS[shell as Shell](completionSpec(full)));
      done(0);
    });
}
