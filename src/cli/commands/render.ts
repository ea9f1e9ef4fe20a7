// `edgeops render DIR [--format yaml|json]` and `edgeops render DIR1 DIR2 --diff`: what a stack's environment
// resolves to (bases, Patches, variables and templates applied), as plain manifests; or only how two
// environments differ. No network, no settings: nothing is sent anywhere.
import { Option, type Command } from 'commander';
import { ConfigError } from '../../errors.ts';
import { renderStack } from '../../operations/render.ts';
import { environmentDiff } from '../../render/environment-diff.ts';
import { renderedJson, renderedYaml } from '../../render/rendered.ts';
import type { CliContext } from '../context.ts';

interface RenderFlags {
  format: 'yaml' | 'json';
  diff?: boolean;
}

export function registerRender(program: Command, ctx: CliContext, done: (code: number) => void): void {
  program
    .command('render')
    .description("print a stack's documents as its environment resolves them; with --diff, how two environments differ")
    .argument('[dirs...]', 'stack directories (one; two with --diff)', ['.'])
    .addOption(new Option('--format <format>', 'output format').choices(['yaml', 'json']).default('yaml'))
    .addOption(new Option('--diff', 'print only what differs between the two stacks: fields by Kind/name (~ + -) and documents only one has'))
    .addHelpText('after', `
Each document is preceded by a comment naming its sources: the document, then every Patch that changed it.
A secret written inline shows as (sensitive). No request is made.

Exit codes: 0 printed, 1 error (a problem resolving the stack, printed as file:line:col).

Examples:
  $ edgeops render infra/edge/prod
  $ edgeops render infra/edge/prod --format json
  $ edgeops render infra/edge/staging infra/edge/prod --diff`)
    .action((dirs: string[], flags: RenderFlags) => {
      const cwd = process.cwd();
      if (flags.diff) {
        if (dirs.length !== 2) throw new ConfigError(`render --diff compares two stack directories, got ${dirs.length}`);
        ctx.out(environmentDiff(renderStack(dirs[0]!, cwd), renderStack(dirs[1]!, cwd)));
      } else {
        if (dirs.length !== 1) throw new ConfigError(`render prints one stack directory, got ${dirs.length} (compare two with --diff)`);
        const stack = renderStack(dirs[0]!, cwd);
        ctx.out(ctx.redact(flags.format === 'json' ? renderedJson(stack) : renderedYaml(stack)));
      }
      done(0);
    });
}
