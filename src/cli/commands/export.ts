// `edgeops export [PATH] [--out DIR] [--all] [--snapshot FILE]`: live resources -> manifests that `plan` shows
// as "No changes." for the managed ones; and/or the live state as a snapshot for `plan --against`. Read-only.
// PATH (default: the current directory) is the manifests' directory: its edgeops.yaml (or the nearest above)
// gives the stack and service, and --local reads its .edgeops/local.db, never creating one.
import { Option, type Command } from 'commander';
import { ManifestError } from '../../errors.ts';
import type { ProjectConfig } from '../../manifest/document.ts';
import { readProjectConfig } from '../../manifest/discover.ts';
import * as exporting from '../../operations/export.ts';
import { exportReport } from '../../render/export-report.ts';
import { withConnection } from '../connect.ts';
import type { CliContext } from '../context.ts';
import { addSharedOptions, resolveSettings, type SharedFlags } from '../settings.ts';

const DEFAULT_EXPORT_DIR = 'edgeops-export';

interface ExportFlags extends SharedFlags {
  out?: string;
  all?: boolean;
  id?: string[];
  snapshot?: string;
}

/** The edgeops.yaml PATH uses, if any: `export` of a project exports that project's stack. */
function projectConfig(path: string): ProjectConfig {
  const { config, issues } = readProjectConfig([path], process.cwd());
  if (issues.length > 0) throw new ManifestError(issues);
  return config;
}

export function registerExport(program: Command, ctx: CliContext, done: (code: number) => void): void {
  const cmd = program
    .command('export')
    .description('write manifests for live resources (managed ones by default), and/or a snapshot of live state')
    .argument('[path]', "the manifests' directory, whose edgeops.yaml and --local database are used", '.')
    .addOption(new Option('--out <dir>', `directory for the manifests, one file per kind [default "${DEFAULT_EXPORT_DIR}" unless only --snapshot is given]`))
    .addOption(new Option('--all', 'also every resource without an ownership marker; the written edgeops.yaml then sets adopt: true'))
    .addOption(new Option('--id <ids...>', "only these live resources, by id (repeatable), managed by this stack or by none; refused for another stack's").conflicts('all'))
    .addOption(new Option('--snapshot <file>', 'write the live state as JSON, for `plan --against FILE` (no credentials needed there)'));
  addSharedOptions(cmd)
    .addHelpText('after', `
Managed resources are named by their ownership marker; with --all, unmanaged ones get names generated from
their description, hostport, path, CIDR or labels, and the edgeops.yaml written with them sets adopt: true, so
plan and apply on the directory adopt them instead of creating copies (a resource adoption could not match,
having no natural key or sharing it with another, is left out and named). References point at exported
resources by name. With --id, only the resources named are exported (with their route response headers or
event sources), by this stack's names or, unmanaged, to adopt; references to the others stay ids. An id no
live resource has, or one another stack manages (the stack is named), is refused and nothing is written.
Private keys are never exported: each certificate reads its key from an EDGEOPS_KEY_<NAME> variable, listed
in the output. The stack and the service come from the flags, the environment or the edgeops.yaml PATH uses
(its own or the nearest above it); with --local, PATH's embedded service database (PATH/.edgeops/local.db) is
read, and must exist.

Exit codes: 0 written, 1 error.

Examples:
  $ edgeops export --out infra/                  # then: edgeops plan infra/  -> "No changes."
  $ edgeops export infra/ --local                # the stack and local database of infra/
  $ edgeops export --all --out adopt/            # every resource; then: edgeops apply adopt/ (adopts them)
  $ edgeops export infra/ --out picked/ --id edgtcp_2rcC... --id bkdtg_2rcD...   # just these two
  $ edgeops export --snapshot live.json          # then: edgeops plan infra/ --against live.json`)
    .action(async (path: string, flags: ExportFlags) => {
      const settings = resolveSettings(flags, ctx.env, projectConfig(path), ctx.stdout.isTTY === true);
      const request: exporting.ExportRequest = {
        stack: settings.stack,
        all: flags.all === true,
        ids: flags.id,
        // --id asks for documents: they are written even beside --snapshot.
        dir: flags.out ?? (flags.snapshot === undefined || flags.id ? DEFAULT_EXPORT_DIR : undefined),
        snapshot: flags.snapshot,
      };
      const view: exporting.ExportView = { exported: (outcome) => ctx.out(exportReport(outcome)) };
      await withConnection(settings, [path], ({ api }) => exporting.run(request, { api, view }), { readOnly: true });
      done(0);
    });
}
