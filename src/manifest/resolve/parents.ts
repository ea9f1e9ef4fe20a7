// What only the references of several documents together show, checked once every reference is resolved:
// - two documents of a natural-key kind for one parent (design: Manifests: a document states the parent's whole set, so
//   two would overwrite each other on every apply; the parent is the kind's first declared reference);
// - a reference that must agree with a reference of the resource it names (`RefField.sameAs`: a route's
//   response headers live on that route's edge).
// Both are seen from names and from literal ids; a name and a literal id are never compared (whether they
// are one resource only the service knows: plan reports that case).
import { isObj } from '../../contract/json.ts';
import type { ManifestIssue, SourcePos } from '../../errors.ts';
import type { Json } from '../../kinds/resource-kind.ts';
import type { DesiredResource, ResolvedDoc } from '../document.ts';
import { slotsAt, valuePos } from '../pointer.ts';
import { showPath } from '../../contract/field-path.ts';

/** What one resolved reference names: a managed resource (`Kind/name`) or a literal id. */
interface Target {
  key: string;
  shown: string;
  /** The address, when it names a managed resource. */
  address?: string;
}

const where = (pos: SourcePos): string => `${pos.file}:${pos.line}:${pos.col}`;

function targetOf(value: Json | undefined): Target | undefined {
  if (typeof value === 'string' && value !== '') return { key: `id:${value}`, shown: value };
  if (isObj(value) && typeof value.$ref === 'string') {
    return { key: `ref:${value.$ref}`, shown: value.$ref, address: value.$ref };
  }
  return undefined;
}

/** The target of the single-valued reference at `pointer` of a resolved resource, if set. */
function refAt(resource: DesiredResource, pointer: string): Target | undefined {
  return targetOf(slotsAt(resource.spec, pointer)[0]?.value);
}

function duplicateParents(docs: readonly ResolvedDoc[]): ManifestIssue[] {
  const issues: ManifestIssue[] = [];
  const first = new Map<string, ResolvedDoc>();
  for (const entry of docs) {
    const parent = entry.kind.identity === 'natural' ? entry.kind.refs[0] : undefined;
    const target = parent && refAt(entry.resource, parent.pointer);
    if (!parent || !target) continue;
    const key = `${entry.kind.kind}\u0000${target.key}`;
    const earlier = first.get(key);
    if (!earlier) {
      first.set(key, entry);
      continue;
    }
    const at = where(valuePos(earlier.doc, parent.pointer));
    issues.push({
      pos: valuePos(entry.doc, parent.pointer),
      address: entry.resource.address,
      pointer: parent.pointer,
      message: `the ${entry.kind.kind} of ${target.shown} are already managed by ` +
        `${earlier.resource.address} (${at}); one document states them all, so merge the two`,
    });
  }
  return issues;
}

function disagreeingRefs(docs: readonly ResolvedDoc[]): ManifestIssue[] {
  const byAddress = new Map(docs.map((d) => [d.resource.address, d]));
  const issues: ManifestIssue[] = [];
  for (const entry of docs) {
    for (const ref of entry.kind.refs) {
      if (!ref.sameAs) continue;
      const mine = refAt(entry.resource, ref.pointer);
      const via = refAt(entry.resource, ref.sameAs.via);
      const other = via?.address === undefined ? undefined : byAddress.get(via.address);
      const theirs = other && refAt(other.resource, ref.sameAs.pointer);
      // Comparable only as two names or two literal ids.
      if (!mine || !theirs || mine.key.slice(0, 3) !== theirs.key.slice(0, 3) || mine.key === theirs.key) continue;
      const at = where(valuePos(other!.doc, ref.sameAs.pointer));
      issues.push({
        pos: valuePos(entry.doc, ref.pointer),
        address: entry.resource.address,
        pointer: ref.pointer,
        message: `${mine.shown} is not the ${showPath(ref.sameAs.pointer)} of ${via!.shown}, ` +
          `which is ${theirs.shown} (${at}); they must name the same resource`,
      });
    }
  }
  return issues;
}

export function checkParents(docs: readonly ResolvedDoc[]): ManifestIssue[] {
  return [...duplicateParents(docs), ...disagreeingRefs(docs)];
}
