// Following a list's next_page_uri. The service gives absolute URLs; they are requested on the API's own
// origin (so a service behind a proxy that reports another host still pages correctly).
import { isObj } from '../contract/json.ts';
import type { Obj } from '../kinds/resource-kind.ts';
import { invalidResponse } from './api-error.ts';

/** The path and query of a next_page_uri, to request against our origin. */
function nextPagePath(nextPageUri: string, origin: string): string {
  const url = new URL(nextPageUri, origin);
  return url.pathname + url.search;
}

/**
 * Every item under `listKey` of every page. `getFirst` requests the first page by its API path; `getNext`
 * requests a follow-up page by its absolute path (from nextPagePath).
 */
export async function listAll(
  getFirst: () => Promise<Obj>,
  getNext: (pathAndQuery: string) => Promise<Obj>,
  opts: { path: string; listKey: string; origin: string; onPage?: (items: Obj[]) => void },
): Promise<Obj[]> {
  const items: Obj[] = [];
  const seen = new Set<string>();
  let page = await getFirst();
  for (;;) {
    const list = page[opts.listKey];
    if (!Array.isArray(list)) {
      throw invalidResponse(200, `GET ${opts.path}`, `list response has no "${opts.listKey}" array`);
    }
    const pageItems = list.filter(isObj);
    items.push(...pageItems);
    const next = page.next_page_uri;
    if (typeof next !== 'string' || next === '') {
      opts.onPage?.(pageItems);
      return items;
    }
    const nextPath = nextPagePath(next, opts.origin);
    // A service that hands back a page already seen would otherwise loop forever.
    if (seen.has(nextPath)) throw invalidResponse(200, `GET ${nextPath}`, 'next_page_uri repeats a page already read');
    seen.add(nextPath);
    // The next page is requested before this one is handed to onPage, so the caller's work overlaps the wait.
    const pending = getNext(nextPath);
    pending.catch(() => undefined); // awaited below; never an unhandled rejection while onPage runs
    opts.onPage?.(pageItems);
    page = await pending;
  }
}
