// A `docs` row as both stores select it, and the document it holds. The data column is the JSON text as it was
// written, parsed here and nowhere else, so both stores answer the same bytes.
import type { StoredDoc } from '../store.ts';

export const DOC_COLUMNS = 'seq, id, kind, parent_id, created_at, data';

export interface DocRow {
  /** A number from SQLite, a string from PostgreSQL (bigint). */
  seq: number | string;
  id: string;
  kind: string;
  parent_id: string | null;
  created_at: string;
  data: string;
}

export function docOfRow<D>(row: DocRow): StoredDoc<D> {
  return { seq: Number(row.seq), id: row.id, kind: row.kind, parentId: row.parent_id, createdAt: row.created_at, data: JSON.parse(row.data) as D };
}
