// `edgeops fmt [PATH...] [--check]`: rewrite manifests in the canonical layout (src/format/); no network.
// `--check` writes nothing and fails listing the files that are not formatted, for CI.
import type { Command } from 'commander';
import { EdgeopsError } from '../../errors.ts';
import * as fmt from '../../operations/fmt.ts';
import type { CliContext } from '../context.ts';
import { pathsArgument } from '../paths-argument.ts';

const files = (n: number): string => `${n} file${n === 1 ? '' : 's'}`;

export function registerFmt(program: Command, ctx: CliContext, done: (code: number) => void): void {
  program
    .command('fmt')
    .description('rewrite manifests in one canonical layout, keeping comments, anchors and aliases (no network)')
    .addArgument(pathsArgument('manifest files or directories (every *.yaml/*.yml under them, and an edgeops.yaml inside them)'))
    .option('--check', 'change nothing; list the files that are not formatted and exit 1 if there are any')
    .addHelpText('after', `
The layout: keys in the order of the kind's schema (kind, name, then the fields as the service reference lists
them), 2-space indentation, short mappings and lists kept in flow style ({backend_id: web}), and the editor
modeline of a file's first document (# yaml-language-server: $schema=...) repeated at the head of every
document. Comments, the order of the documents, anchors, aliases and merge keys stay as written, and the files
plan exactly as before. A file that is not valid YAML is reported with file:line:col, and nothing is written.

Exit codes: 0 formatted (or already formatted), 1 --check found files to format, or an error.

Examples:
  $ edgeops fmt                      # every manifest under the current directory
  $ edgeops fmt infra/ --check       # in CI: fails listing the files fmt would change`)
    .action((paths: string[], flags: { check?: boolean }) => {
      const result = fmt.run({ paths, cwd: process.cwd(), check: flags.check === true });
      if (flags.check) {
        for (const file of result.changed) ctx.out(`${file}\n`);
        if (result.changed.length > 0) {
          throw new EdgeopsError('E_NOT_FORMATTED', `${files(result.changed.length)} not formatted; \`edgeops fmt\` rewrites ${result.changed.length === 1 ? 'it' : 'them'}`);
        }
        ctx.out(`${files(result.files.length)} already formatted\n`);
      } else {
        for (const file of result.changed) ctx.out(`formatted ${file}\n`);
        ctx.out(`${files(result.changed.length)} rewritten, ${result.files.length - result.changed.length} already formatted\n`);
      }
      done(0);
    });
}
