// The last gate before anything is printed. The renderers never receive secret values (the engine marks
// secret changes `sensitive` and drops their values), so this is defence in depth: if a secret reached an
// output by any other road (an error message echoing a body, a value abbreviated wrongly), it is cut here.
import type { DesiredState } from '../manifest/document.ts';

export const REDACTED = '(sensitive)';

/** Shorter whole values are not redacted: replacing every "abc" in an output would garble it and protect nothing. */
const MIN_WHOLE = 8;
/** A PEM body line (base64, 64 characters except the last) is cut on its own, so no piece of a key survives. */
const MIN_LINE = 16;

/** The values of every field a kind declares secret, taken from the desired state. */
export function secretValues(desired: DesiredState, secretFieldsOf: (kind: string) => readonly string[]): string[] {
  const values: string[] = [];
  for (const resource of desired.resources) {
    for (const field of secretFieldsOf(resource.kind)) {
      const value = resource.spec[field];
      if (typeof value === 'string') values.push(value);
    }
  }
  return values;
}

function fragmentsOf(secret: string): string[] {
  const fragments = new Set<string>();
  for (const whole of [secret, secret.trim()]) if (whole.length >= MIN_WHOLE) fragments.add(whole);
  for (const raw of secret.split(/\r?\n/)) {
    const line = raw.trim();
    if (line.length >= MIN_LINE && !/^-----(BEGIN|END) /.test(line)) fragments.add(line);
  }
  // The same text as it appears inside a JSON string (newlines and quotes escaped).
  for (const fragment of [...fragments]) fragments.add(JSON.stringify(fragment).slice(1, -1));
  return [...fragments];
}

export type Redactor = (text: string) => string;

/** A function replacing every known secret (whole, and each PEM body line) with `(sensitive)`. */
export function createRedactor(secrets: readonly string[]): Redactor {
  // Longest first, so a whole value goes before the lines inside it.
  const fragments = [...new Set(secrets.flatMap(fragmentsOf))].sort((a, b) => b.length - a.length);
  if (fragments.length === 0) return (text) => text;
  return (text) => {
    let out = text;
    for (const fragment of fragments) if (out.includes(fragment)) out = out.split(fragment).join(REDACTED);
    return out;
  };
}
