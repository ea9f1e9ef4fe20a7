// Stage 1, load: paths -> manifest documents with positions, and the project configuration. Every problem is
// returned as an issue; nothing throws for bad input, so later stages still check what did load.
import type { ManifestIssue } from '../errors.ts';
import { dirname } from 'node:path';
import type { FoundFile, LoadedManifests, ManifestDoc } from './document.ts';
import { discover, type DiscoveredRoot, readProjectFiles } from './discover.ts';
import { parseFile, type ParsedDoc } from './parse.ts';
import { rememberKeyPositions } from './pointer.ts';

export interface LoadResult extends LoadedManifests {
  issues: ManifestIssue[];
  /** Paths that yielded no document although nothing went wrong reading them (read-desired.ts refuses them). */
  empty: DiscoveredRoot[];
}

export interface LoadOptions {
  /** Base of relative paths and of the file names in messages (default: process.cwd()). */
  cwd?: string;
}

/** A document -> ManifestDoc, or an issue when it has no usable kind (nothing else can be checked then). */
function toManifestDoc(parsed: ParsedDoc, dir: string, issues: ManifestIssue[]): ManifestDoc | undefined {
  const { kind, name, ...fields } = parsed.value;
  if (kind === undefined) {
    issues.push({ pos: parsed.pos, message: 'missing field "kind"' });
    return undefined;
  }
  if (typeof kind !== 'string') {
    issues.push({ pos: parsed.positions.get('/kind') ?? parsed.pos, message: 'kind: must be a string' });
    return undefined;
  }
  let docName = '';
  if (typeof name === 'string') docName = name;
  else if (name !== undefined) {
    const scalar = typeof name === 'number' || typeof name === 'boolean';
    if (scalar) docName = String(name);
    issues.push({
      pos: parsed.positions.get('/name') ?? parsed.pos,
      address: scalar ? `${kind}/${docName}` : undefined,
      message: `name: must be a string${scalar ? ' (put it in quotes)' : ''}`,
    });
  }
  const doc: ManifestDoc = { kind, name: docName, fields, pos: parsed.pos, positions: parsed.positions, dir };
  rememberKeyPositions(doc, parsed.keys);
  return doc;
}

export const yieldToEventLoop = (): Promise<void> => new Promise((resolve) => setImmediate(resolve));

/** The manifests of `paths`, read in one go (no await). */
export function loadManifests(paths: string[], opts: LoadOptions = {}): LoadResult {
  const loading = startLoading(paths, opts);
  for (const file of loading.files) loading.read(file);
  return loading.result();
}

/**
 * The same, yielding to the event loop between files: requests started before the manifests are read (the
 * live state's lists) are sent and their answers parsed while the files are still being read.
 */
export async function loadManifestsYielding(paths: string[], opts: LoadOptions = {}): Promise<LoadResult> {
  const loading = startLoading(paths, opts);
  for (const file of loading.files) {
    await yieldToEventLoop();
    loading.read(file);
  }
  return loading.result();
}

function startLoading(paths: string[], opts: LoadOptions): { files: FoundFile[]; read(file: FoundFile): void; result(): LoadResult } {
  const found = discover(paths, opts.cwd ?? process.cwd());
  const issues = [...found.issues];
  const project = readProjectFiles(found.projectFiles, found.roots);
  issues.push(...project.issues);
  const docs: ManifestDoc[] = [];
  const yielded = new Map<string, number>(); // file -> documents and problems in it
  return {
    files: found.manifests,
    read(file) {
      const parsed = parseFile(file);
      issues.push(...parsed.issues);
      const dir = dirname(file.abs);
      for (const p of parsed.docs) {
        const doc = toManifestDoc(p, dir, issues);
        if (doc) docs.push(doc);
      }
      yielded.set(file.abs, parsed.docs.length + parsed.issues.length);
    },
    result() {
      // A project file named alone yields settings, not documents: it counts as empty only when nothing else yields any.
      const empty = found.roots.filter((r) => !r.unreadable && (!r.projectOnly || docs.length === 0) && r.manifests.every((f) => !yielded.get(f.abs)));
      return { docs, config: project.config, issues, empty };
    },
  };
}
