// JSON pointers (RFC 6901) name every value of a document: positions, ajv's instancePath and the kinds'
// declared reference fields all use them, so they must escape keys the same way.

export function escapeSegment(key: string): string {
  return key.includes('~') || key.includes('/') ? key.replace(/~/g, '~0').replace(/\//g, '~1') : key;
}

export function unescapeSegment(segment: string): string {
  return segment.includes('~') ? segment.replace(/~1/g, '/').replace(/~0/g, '~') : segment;
}

export function childPointer(parent: string, key: string | number): string {
  return `${parent}/${typeof key === 'number' ? key : escapeSegment(key)}`;
}

export function parentPointer(pointer: string): string {
  return pointer.slice(0, Math.max(0, pointer.lastIndexOf('/')));
}

export function segments(pointer: string): string[] {
  return pointer === '' ? [] : pointer.slice(1).split('/').map(unescapeSegment);
}

/** `/hostports/0` -> `hostports/0`: the field path printed before a message. */
export function fieldPath(pointer: string): string {
  return segments(pointer).join('/');
}

/** True when `pointer` is `ancestor` or lies below it. */
export function isWithin(pointer: string, ancestor: string): boolean {
  return pointer === ancestor || pointer.startsWith(`${ancestor}/`);
}
