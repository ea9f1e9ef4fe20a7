// `edgeops export [PATH] [--out DIR] [--all] [--snapshot FILE]`: live resources -> manifests that `plan` shows
// as "No changes." for the managed ones; and/or the live state as a snapshot for `plan --against`. Read-only.
// PATH (default: the current directory) is the manifests' directory: its edgeops.yaml (or the nearest above)
// gives the stack and service, and --local reads its .edgeops/local.db, never creating one.
import { Option, type Command } from 'commander';
import { ManifestError } from '../../errors.ts';
import type { ProjectConfig } from '../../manifest/document.ts';
import { readProjectConfig } from '../../manifest/project-file.ts';
import { readOnlyApi } from '../../client/read-only.ts';
import { buildExport, PROJECT_FILE, type ExportResult } from '../../export/build.ts';
import { takeSnapshot, writeSnapshot } from '../../export/snapshot.ts';
import { writeExport } from '../../export/write.ts';
import { withConnection } from '../connect.ts';
import type { CliContext } from '../context.ts';
import { addSharedOptions, resolveSettings, type SharedFlags } from '../settings.ts';

export const DEFAULT_EXPORT_DIR = 'edgeops-export';

interface ExportFlags extends SharedFlags {
  out?: string;
  all?: boolean;
  snapshot?: string;
}

/** The edgeops.yaml PATH uses, if any: `export` of a project exports that project's stack. */
function projectConfig(path: string): ProjectConfig {
  const { config, issues } = readProjectConfig([path], process.cwd());
  if (issues.length > 0) throw new ManifestError(issues);
  return config;
}

function report(result: ExportResult, dir: string, written: string[]): string {
  const out: string[] = [];
  const total = result.managed + result.unmanaged;
  const parts = [`${result.managed} managed`, ...(result.unmanaged > 0 ? [`${result.unmanaged} unmanaged`] : [])];
  out.push(`Exported ${total} resource${total === 1 ? '' : 's'} of stack "${result.stack}" (${parts.join(', ')}) to ${dir}:`);
  for (const file of written) {
    const docs = result.files.find((f) => f.file === file)?.docs.length;
    out.push(`  ${file}${docs === undefined ? '' : ` (${docs})`}`);
  }
  if (result.placeholders.length > 0) {
    out.push('', 'Certificates are exported without their private keys. Set these variables (each to the PEM key) before plan or apply:');
    const width = Math.max(...result.placeholders.map((p) => p.envVar.length));
    for (const p of result.placeholders) out.push(`  ${p.envVar.padEnd(width)}  ${p.address} ${p.field}`);
  }
  if (result.unmanaged > 0) {
    const n = `${result.unmanaged} unmanaged resource${result.unmanaged === 1 ? ' was' : 's were'} exported without an ownership marker.`;
    out.push('', written.includes(PROJECT_FILE)
      ? `${n} ${PROJECT_FILE} sets adopt: true, so plan and apply on ${dir} adopt them (write the marker) instead of creating copies.`
      : `${n} Plan and apply them with --adopt to bring them under management; without it, apply would create second copies.`);
  }
  if (result.leftOut.length > 0) {
    out.push('', `Left out ${result.leftOut.length} unmanaged resource${result.leftOut.length === 1 ? '' : 's'} that adoption cannot match to a document (give each a distinct description, hostport or labels, then export again):`);
    for (const r of result.leftOut) out.push(`  ${r.kind} ${r.id}: ${r.why}`);
  }
  if (result.otherStacks > 0) {
    out.push('', `Left out ${result.otherStacks} resource${result.otherStacks === 1 ? '' : 's'} managed by other stacks (--stack NAME exports another stack).`);
  }
  if (!written.includes(PROJECT_FILE)) out.push('', `No ${PROJECT_FILE} was written: pass --stack ${result.stack} when planning the export.`);
  for (const warning of result.warnings) out.push(`Warning: ${warning}`);
  return `${out.join('\n')}\n`;
}

export function registerExport(program: Command, ctx: CliContext, done: (code: number) => void): void {
  const cmd = program
    .command('export')
    .description('write manifests for live resources (managed ones by default), and/or a snapshot of live state')
    .argument('[path]', "the manifests' directory, whose edgeops.yaml and --local database are used", '.')
    .addOption(new Option('--out <dir>', `directory for the manifests, one file per kind [default "${DEFAULT_EXPORT_DIR}" unless only --snapshot is given]`))
    .addOption(new Option('--all', 'also every resource without an ownership marker; the written edgeops.yaml then sets adopt: true'))
    .addOption(new Option('--snapshot <file>', 'write the live state as JSON, for `plan --against FILE` (no credentials needed there)'));
  addSharedOptions(cmd)
    .addHelpText('after', `
Managed resources are named by their ownership marker; with --all, unmanaged ones get names generated from
their description, hostport, path, CIDR or labels, and the edgeops.yaml written with them sets adopt: true, so
plan and apply on the directory adopt them instead of creating copies (a resource adoption could not match,
having no natural key or sharing it with another, is left out and named). References point at exported
resources by name. Private keys are never exported: each certificate reads its key from an EDGEOPS_KEY_<NAME>
variable, listed in the output. The stack and the service come from the flags, the environment or the
edgeops.yaml PATH uses (its own or the nearest above it); with --local, PATH's embedded service database
(PATH/.edgeops/local.db) is read, and must exist.

Exit codes: 0 written, 1 error.

Examples:
  $ edgeops export --out infra/                  # then: edgeops plan infra/  -> "No changes."
  $ edgeops export examples/basic --local        # the stack and local database of examples/basic
  $ edgeops export --all --out adopt/            # every resource; then: edgeops apply adopt/ (adopts them)
  $ edgeops export --snapshot live.json          # then: edgeops plan infra/ --against live.json`)
    .action(async (path: string, flags: ExportFlags) => {
      const settings = resolveSettings(flags, ctx.env, projectConfig(path), ctx.stdout.isTTY === true);
      const { snapshot, live } = await withConnection(settings, [path], ({ api }) => takeSnapshot(readOnlyApi(api, 'export')), { readOnly: true });
      const text: string[] = [];
      const dir = flags.out ?? (flags.snapshot === undefined ? DEFAULT_EXPORT_DIR : undefined);
      if (dir !== undefined) {
        const result = buildExport(live, { stack: settings.stack, all: flags.all === true });
        text.push(report(result, dir, writeExport(dir, result)));
      }
      if (flags.snapshot !== undefined) {
        writeSnapshot(flags.snapshot, snapshot);
        const items = snapshot.lists.reduce((n, l) => n + l.items.length, 0);
        text.push(`Wrote the live state (${snapshot.lists.length} lists, ${items} items) to ${flags.snapshot}. Plan against it with: edgeops plan PATH --against ${flags.snapshot}\n`);
      }
      ctx.out(text.join('\n'));
      done(0);
    });
}
