// The files a stack is made of: what its resolution reads. A change to any of them can change its plan, so a
// pull request that touches one touches the stack: its own edgeops.yaml and manifests, its bases' edgeops.yaml
// and manifests (Patches are among its manifests), and the files its `{file: ...}` values read.
import { resolve } from 'node:path';
import { isObj } from '../../contract/json.ts';
import type { Json } from '../../kinds/resource-kind.ts';
import { discover } from '../discover.ts';
import { loadManifests } from '../read-desired.ts';

/** `{file: PATH}` values anywhere in `value` (a secret field of any kind), resolved against `dir`. */
export function fileRefs(value: Json, dir: string, into: Set<string>): void {
  if (Array.isArray(value)) for (const item of value) fileRefs(item, dir, into);
  else if (isObj(value)) {
    const keys = Object.keys(value);
    if (keys.length === 1 && keys[0] === 'file' && typeof value.file === 'string') into.add(resolve(dir, value.file));
    else for (const key of keys) fileRefs(value[key]!, dir, into);
  }
}

/**
 * Every file the resolution of the stack at `root` reads, absolute and sorted: its edgeops.yaml and manifests,
 * its bases' edgeops.yaml and manifests, and the `{file}` targets of its resolved documents. Files that
 * cannot be read are listed all the same (a pull request adding one changes the stack too).
 */
export function environmentInputs(root: string, cwd = process.cwd()): string[] {
  const found = discover([root], cwd);
  const files = new Set<string>([...found.projectFiles, ...found.manifests].map((f) => f.abs));
  const loaded = loadManifests([root], { cwd });
  for (const file of loaded.inputs ?? []) files.add(file);
  for (const doc of loaded.docs) fileRefs(doc.fields, doc.dir, files);
  return [...files].sort();
}
