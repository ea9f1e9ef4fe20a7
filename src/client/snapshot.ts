// A snapshot of the live state (`edgeops export --snapshot FILE`) read back as an Api, so `plan --against FILE`
// plans with no service URL, no API key and no network: a pull request from a fork gets a plan from a snapshot
// a trusted job took. Lists are answered from the file; every write throws (through readOnlyApi).
import { readFileSync } from 'node:fs';
import { isObj } from '../contract/json.ts';
import { ApiError, EdgeopsError } from '../errors.ts';
import type { Api, Obj } from '../kinds/resource-kind.ts';
import { readOnlyApi } from './read-only.ts';

export const SNAPSHOT_FORMAT = 'edgeops-snapshot';
export const SNAPSHOT_VERSION = 1;

/** One list endpoint as fetched: the items of every page, in order. */
export interface SnapshotList {
  path: string;
  list_key: string;
  items: Obj[];
}

/** The file's structure (documented in docs/drift-and-export.md). */
export interface Snapshot {
  format: typeof SNAPSHOT_FORMAT;
  format_version: typeof SNAPSHOT_VERSION;
  /** ISO 8601; when the lists were read. */
  taken_at: string;
  lists: SnapshotList[];
}

/** The snapshot file is missing, unreadable, or not a snapshot this edgeops understands. */
class SnapshotError extends EdgeopsError {
  constructor(message: string) {
    super('E_SNAPSHOT', message);
  }
}


/** Checks the structure of parsed JSON; `source` names the file in errors. */
function parseSnapshot(data: unknown, source: string): Snapshot {
  if (!isObj(data) || data.format !== SNAPSHOT_FORMAT) {
    throw new SnapshotError(`${source}: not an edgeops snapshot (write one with \`edgeops export --snapshot FILE\`)`);
  }
  if (data.format_version !== SNAPSHOT_VERSION) {
    throw new SnapshotError(`${source}: snapshot format_version ${JSON.stringify(data.format_version)} is not supported (this edgeops reads ${SNAPSHOT_VERSION})`);
  }
  if (!Array.isArray(data.lists)) throw new SnapshotError(`${source}: "lists" must be an array`);
  const lists: SnapshotList[] = data.lists.map((l, i) => {
    if (!isObj(l) || typeof l.path !== 'string' || typeof l.list_key !== 'string' || !Array.isArray(l.items) || !l.items.every(isObj)) {
      throw new SnapshotError(`${source}: lists[${i}] must be {path, list_key, items: [objects]}`);
    }
    return { path: l.path, list_key: l.list_key, items: l.items as Obj[] };
  });
  return { format: SNAPSHOT_FORMAT, format_version: SNAPSHOT_VERSION, taken_at: String(data.taken_at ?? ''), lists };
}

function readSnapshotFile(file: string): Snapshot {
  let text: string;
  try {
    text = readFileSync(file, 'utf8');
  } catch (err) {
    const code = (err as NodeJS.ErrnoException).code;
    throw new SnapshotError(`${file}: cannot read the snapshot: ${code === 'ENOENT' ? 'no such file' : code ?? 'unreadable'}`);
  }
  let data: unknown;
  try {
    data = JSON.parse(text);
  } catch {
    throw new SnapshotError(`${file}: the snapshot is not valid JSON`);
  }
  return parseSnapshot(data, file);
}

const notFound = (path: string): ApiError =>
  new ApiError({ status: 404, errorCode: 'ERR_NOT_IN_SNAPSHOT', message: 'not in the snapshot', operation: `GET ${path}` });

/**
 * The snapshot as an Api: `list` answers the lists it holds (a path it lacks is an error, not an empty list:
 * planning on it would delete nothing and create everything), `get` finds `${listPath}/${id}` by id, writes throw.
 */
function snapshotApi(snapshot: Snapshot, source = 'the snapshot'): Api {
  const byPath = new Map(snapshot.lists.map((l) => [l.path, l]));
  const reader: Pick<Api, 'get' | 'list'> = {
    async list(path, listKey) {
      const list = byPath.get(path);
      if (!list) throw new SnapshotError(`${source} has no list ${path} (take a new snapshot with this edgeops version)`);
      if (list.list_key !== listKey) throw new SnapshotError(`${source}: list ${path} is under "${list.list_key}", expected "${listKey}"`);
      return structuredClone(list.items);
    },
    async get(path) {
      const cut = path.lastIndexOf('/');
      const item = byPath.get(path.slice(0, cut))?.items.find((i) => i.id === path.slice(cut + 1));
      if (!item) throw notFound(path);
      return structuredClone(item);
    },
  };
  return readOnlyApi(reader, source);
}

/** `plan --against FILE`: the file read, checked and wrapped; no network is ever opened. */
export function openSnapshotApi(file: string): Api {
  return snapshotApi(readSnapshotFile(file), `the snapshot ${file}`);
}
