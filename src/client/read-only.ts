// A read-only view of an Api: reads pass through, every write throws before any byte is sent. `drift` and
// `plan --against` run on such a view, so being read-only is a property of the object they hold, not a promise
// kept by the code that happens to run today.
import { EdgeopsError } from '../errors.ts';
import type { Api } from '../kinds/resource-kind.ts';

/** A write was attempted through a read-only Api: a bug in the caller, never a service failure. */
class ReadOnlyError extends EdgeopsError {
  readonly method: string;
  readonly path: string;
  constructor(method: string, path: string, why: string) {
    super('E_READ_ONLY', `${method} ${path} refused: ${why} is read-only`);
    this.method = method;
    this.path = path;
  }
}

/** `why` names the reader in the error, e.g. "drift" or "the snapshot snap.json". */
export function readOnlyApi(api: Pick<Api, 'get' | 'list'>, why: string): Api {
  const refuse = (method: string) => async (path: string): Promise<never> => {
    throw new ReadOnlyError(method, path, why);
  };
  return {
    get: (path) => api.get(path),
    list: (path, listKey, onPage) => api.list(path, listKey, onPage),
    post: refuse('POST'),
    patch: refuse('PATCH'),
    put: refuse('PUT'),
    delete: refuse('DELETE'),
  };
}
