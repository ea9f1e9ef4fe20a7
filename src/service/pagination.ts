// List query parameters (`limit` 1..100, default 100; `before_id`) and the links of a page. The official
// TypeScript client sends its paging object unconverted, so `beforeId` is taken as another spelling of before_id.
import { ServiceError } from './errors.ts';
import type { Ctx } from './resource-def.ts';

const MAX_PAGE = 100;
const ALLOWED = new Set(['limit', 'before_id', 'beforeId']);

interface PageQuery {
  limit: number;
  beforeSeq?: number;
}

/** Validates the query of a list request; before_id must be an id (live or deleted) of this kind. */
export async function pageQuery(ctx: Ctx, kind: string): Promise<PageQuery> {
  checkQuery(ctx.query, ALLOWED);
  const rawLimit = ctx.query.get('limit');
  let limit = MAX_PAGE;
  if (rawLimit !== null) {
    if (!/^[0-9]{1,3}$/.test(rawLimit) || Number(rawLimit) < 1 || Number(rawLimit) > MAX_PAGE) {
      throw new ServiceError('ERR_LIMIT_INVALID', `limit: must be an integer from 1 to ${MAX_PAGE}`);
    }
    limit = Number(rawLimit);
  }
  if (ctx.query.has('before_id') && ctx.query.has('beforeId')) {
    throw new ServiceError('ERR_QUERY_REPEATED_PARAM', 'query parameter before_id given more than once (as before_id and beforeId)');
  }
  const beforeId = ctx.query.get('before_id') ?? ctx.query.get('beforeId');
  if (beforeId === null) return { limit };
  const beforeSeq = await ctx.tx.seqOf(beforeId, kind);
  if (beforeSeq === undefined) throw new ServiceError('ERR_BEFORE_ID_INVALID', `before_id: ${JSON.stringify(beforeId.slice(0, 80))} is not an id of this list`);
  return { limit, beforeSeq };
}

/** Rejects unknown and repeated query parameters. */
export function checkQuery(query: URLSearchParams, allowed: ReadonlySet<string>): void {
  const seen = new Set<string>();
  for (const key of query.keys()) {
    if (!allowed.has(key)) {
      throw new ServiceError('ERR_QUERY_UNKNOWN_PARAM', `unknown query parameter ${JSON.stringify(key.slice(0, 80))}; allowed: ${[...allowed].join(', ') || 'none'}`);
    }
    if (seen.has(key)) throw new ServiceError('ERR_QUERY_REPEATED_PARAM', `query parameter ${key} given more than once`);
    seen.add(key);
  }
}

/** `uri` of the list and `next_page_uri`: absolute, non-null exactly when more items exist. */
export function pageLinks(ctx: Ctx, limit: number, lastIdWhenMore: string | null): { uri: string; next_page_uri: string | null } {
  const uri = ctx.url(ctx.path);
  const next = lastIdWhenMore === null ? null : `${uri}?before_id=${encodeURIComponent(lastIdWhenMore)}&limit=${limit}`;
  return { uri, next_page_uri: next };
}
