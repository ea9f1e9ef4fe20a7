// Readable manifest names and file names for exported resources. A name must match the manifest rule
// (lower-case letters, digits and "-", at most 64 characters) and be unique per kind.
import { NAME_PATTERN } from '../manifest/schema/parts.ts';

const MAX_NAME = 64;
const VALID_NAME = new RegExp(NAME_PATTERN);

export function isValidName(name: string): boolean {
  return VALID_NAME.test(name);
}

/** `*.Example.com:443` -> `example-com-443`; '' when nothing usable is left. */
export function slugify(text: string, max = MAX_NAME): string {
  const slug = text
    .normalize('NFKD')
    .replace(/\p{M}/gu, '') // accents off: "Büro" -> "buro", not "bu-ro"
    .toLowerCase()
    .replace(/[^a-z0-9]+/g, '-')
    .replace(/^-+|-+$/g, '');
  return slug.slice(0, max).replace(/-+$/, '');
}

/** `HTTPSEdgeRoute` -> `https-edge-route`. */
export function kindSlug(kind: string): string {
  return kind
    .replace(/([A-Z]+)([A-Z][a-z])/g, '$1-$2')
    .replace(/([a-z0-9])([A-Z])/g, '$1-$2')
    .toLowerCase();
}

/** The file one kind's documents go to: `tcp-edges.yaml`, `ip-policies.yaml`, `route-response-headers.yaml`. */
export function kindFileName(kind: string): string {
  const slug = kindSlug(kind);
  const plural = slug.endsWith('s') ? slug : slug.endsWith('y') ? `${slug.slice(0, -1)}ies` : `${slug}s`;
  return `${plural}.yaml`;
}

/** The environment variable a placeholder for a write-only secret names: EDGEOPS_KEY_WILD for `wild`. */
export function placeholderEnvVar(tag: string, name: string): string {
  return `EDGEOPS_${tag}_${name.toUpperCase().replace(/-/g, '_')}`;
}

/** Unique names within one kind: fixed names (from markers) are reserved first, generated ones get `-2`, `-3`. */
export class NameBook {
  private readonly used = new Set<string>();

  reserve(name: string): void {
    this.used.add(name);
  }

  has(name: string): boolean {
    return this.used.has(name);
  }

  /** `base` (already a slug) made unique; the suffix is cut out of the base so the name stays within MAX_NAME. */
  unique(base: string): string {
    let candidate = base;
    for (let n = 2; this.used.has(candidate); n++) {
      const suffix = `-${n}`;
      candidate = `${base.slice(0, MAX_NAME - suffix.length).replace(/-+$/, '')}${suffix}`;
    }
    this.used.add(candidate);
    return candidate;
  }
}
