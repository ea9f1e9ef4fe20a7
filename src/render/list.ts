// What `edgeops list` prints: one line per managed resource (`Kind/name`, id, the document's file:line), or the
// same as JSON for scripts. The JSON is a contract like the plan's: fields are only ever added.
export interface ListedResource {
  /** `Kind/name`, from the resource's ownership marker. */
  address: string;
  kind: string;
  name: string;
  id: string;
  /** The document's `file:line`; undefined when no document describes the resource any more. */
  source?: string;
  /** A document renamed with moved_from keeps this resource: its new address. */
  movedTo?: string;
}

export interface ListOutcome {
  stack: string;
  /** Sorted by kind, then name, naturally (bulk-2 before bulk-10). */
  resources: ListedResource[];
}

const NOT_IN_MANIFESTS = 'not in the manifests';

const where = (r: ListedResource): string =>
  r.source === undefined ? NOT_IN_MANIFESTS : r.movedTo ? `${r.source} (renamed to ${r.movedTo})` : r.source;

function listText(outcome: ListOutcome): string {
  const { stack, resources } = outcome;
  const n = resources.length;
  if (n === 0) return `Stack "${stack}" manages no resources.\n`;
  const widths = [Math.max(...resources.map((r) => r.address.length)), Math.max(...resources.map((r) => r.id.length))];
  const lines = resources.map((r) => `  ${r.address.padEnd(widths[0]!)}  ${r.id.padEnd(widths[1]!)}  ${where(r)}`);
  const gone = resources.filter((r) => r.source === undefined).length;
  const footer = gone === 0 ? [] : ['', `${gone} ${gone === 1 ? 'resource is' : 'resources are'} ${NOT_IN_MANIFESTS}: a plan of these manifests deletes ${gone === 1 ? 'it' : 'them'}.`];
  return `${[`Stack "${stack}" manages ${n} resource${n === 1 ? '' : 's'}:`, '', ...lines, ...footer].join('\n')}\n`;
}

const JSON_LIST_VERSION = 1;

function listJson(outcome: ListOutcome): string {
  const resources = outcome.resources.map((r) => ({
    address: r.address, kind: r.kind, name: r.name, id: r.id, source: r.source ?? null, ...(r.movedTo ? { moved_to: r.movedTo } : {}),
  }));
  return `${JSON.stringify({ format_version: JSON_LIST_VERSION, stack: outcome.stack, resources }, null, 2)}\n`;
}

export const LIST_FORMATS = { text: listText, json: listJson } as const;
