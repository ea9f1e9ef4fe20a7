// `edgeops export`, the pure half: live state -> one YAML file per kind (plus edgeops.yaml naming the stack, and
// with unmanaged resources exported, `adopt: true`), the placeholders the user must fill, and warnings. Writing
// the files is write.ts's job.
import type { LiveState } from '../engine/live.ts';
import { KINDS } from '../kinds/index.ts';
import type { ResourceKind } from '../kinds/resource-kind.ts';
import { NAME_PATTERN } from '../manifest/schema/parts.ts';
import { naturalCompare } from '../natural-order.ts';
import { keepAdoptable, type LeftOut } from './adoptable.ts';
import { toDocument, type ExportedDoc, type Placeholder } from './documents.ts';
import { kindFileName } from './names.ts';
import { onlyIds } from './by-id.ts';
import { selectForExport } from './select.ts';
import { fileYaml } from './yaml.ts';

export const PROJECT_FILE = 'edgeops.yaml';

interface ExportFile {
  /** File name inside the output directory. */
  file: string;
  kind: string;
  docs: ExportedDoc[];
  text: string;
}

export interface ExportResult {
  stack: string;
  files: ExportFile[];
  /**
   * edgeops.yaml naming the stack, and `adopt: true` when unmanaged resources were exported (so plan and apply
   * adopt them instead of creating copies); absent when the stack name is not valid there (then pass --stack).
   */
  projectFile?: string;
  /** Unmanaged resources `--all` left out: adoption could not match them to their documents. */
  leftOut: LeftOut[];
  placeholders: Placeholder[];
  managed: number;
  unmanaged: number;
  /** Resources left out because another stack's marker is on them (or on their parent). */
  otherStacks: number;
  /** With `ids`: the stack's resources not picked (a plan of the export alone would delete them). */
  notPicked?: number;
  warnings: string[];
}

interface ExportOptions {
  stack: string;
  /** Also every resource without a marker (for adoption). */
  all: boolean;
  /** Only these live resources (by id), with or without a marker, and their natural-key items (by-id.ts). */
  ids?: readonly string[];
  kinds?: readonly ResourceKind[];
  /** For the header comment; a fixed value keeps test output stable. */
  now?: Date;
}

/** Every file name an export may write: a re-export replaces exactly these. */
export function exportFileNames(kinds: readonly ResourceKind[] = KINDS): string[] {
  return [PROJECT_FILE, ...kinds.map((k) => kindFileName(k.kind))];
}

function projectFile(stack: string, adopt: boolean): string {
  const lines = ['# written by edgeops export: the stack these manifests manage', `stack: ${stack}`];
  if (adopt) {
    lines.push(
      '# Resources without an ownership marker were exported: plan and apply adopt each of them (match it by natural',
      '# key and write the marker) instead of creating a copy. Once apply has adopted them, this may go.',
      'adopt: true',
    );
  }
  return `${lines.join('\n')}\n`;
}

export function buildExport(live: LiveState, opts: ExportOptions): ExportResult {
  const kinds = opts.kinds ?? KINDS;
  const picked = opts.ids ? onlyIds(kinds, live, selectForExport(kinds, live, { stack: opts.stack, all: true }), opts.ids, opts.stack) : undefined;
  const selected = picked?.selection ?? selectForExport(kinds, live, opts);
  const { selection, leftOut } = opts.all || opts.ids ? keepAdoptable(kinds, live, selected, opts.stack) : { selection: selected, leftOut: [] };
  const exported = selection.entries.map((e) => toDocument(e, selection));
  const when = (opts.now ?? new Date()).toISOString().replace(/\.\d{3}Z$/, 'Z');
  const files: ExportFile[] = [];
  for (const kind of kinds) {
    const docs = exported
      .filter((d) => d.entry.kind.kind === kind.kind)
      .sort((a, b) => naturalCompare(a.doc.name, b.doc.name));
    if (docs.length === 0) continue;
    const header = [
      `${kind.kind} resources of stack "${opts.stack}", written by \`edgeops export${opts.all ? ' --all' : ''}${opts.ids ? ' --id ...' : ''}\` at ${when}.`,
      'Managed resources keep the names of their ownership markers (renaming one makes apply delete and recreate it).',
      ...(docs.some((d) => !d.entry.managed) ? [`Unmanaged resources are named from what they are; rename them freely before adopting (${PROJECT_FILE} sets adopt: true).`] : []),
    ];
    files.push({ file: kindFileName(kind.kind), kind: kind.kind, docs, text: fileYaml(header, docs) });
  }
  const validStack = new RegExp(NAME_PATTERN).test(opts.stack);
  const warnings = [...selection.warnings, ...exported.flatMap((d) => d.warnings)];
  if (!validStack) warnings.push(`the stack name "${opts.stack}" cannot be written to ${PROJECT_FILE}; pass --stack ${opts.stack} when planning the export`);
  const unmanaged = exported.filter((d) => !d.entry.managed).length;
  return {
    stack: opts.stack,
    files,
    ...(validStack ? { projectFile: projectFile(opts.stack, unmanaged > 0) } : {}),
    leftOut,
    placeholders: exported.flatMap((d) => d.placeholders),
    managed: exported.filter((d) => d.entry.managed).length,
    unmanaged,
    otherStacks: selection.otherStacks,
    ...(picked ? { notPicked: picked.notPicked } : {}),
    warnings,
  };
}
