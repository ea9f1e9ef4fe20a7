// The last gate before anything is printed. The renderers never receive secret values (the engine marks
// secret changes `sensitive` and drops their values), so this is defence in depth: if a secret reached an
// output by any other road (an error message echoing a body, a value abbreviated wrongly), it is cut here.
// Besides the run's known secrets (its private keys, its API key), every PEM private key block is cut,
// whoever's it is: a key given in a field that is not secret (validation refuses that too) never prints.
import type { DesiredState } from '../manifest/document.ts';

const REDACTED = '(sensitive)';

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

/**
 * Whether `secret` is cut wherever it occurs in an output. The one rule for short secrets: shorter values are
 * not (an API key "dev" occurs in "TLSEdge/devices"), so no whole-text check may look for them either; they
 * are kept out of secret fields by the sanitizer, which checks fields, not text.
 */
export function redactedWhole(secret: string): boolean {
  return secret.trim().length >= MIN_WHOLE;
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

/** A line break as is, or as escaped inside a JSON string. */
const NL = String.raw`(?:\r?\n|\\r?\\n)`;
const BEGIN_KEY = String.raw`-----BEGIN [A-Z0-9 ]*PRIVATE KEY-----`;
const END_KEY = String.raw`-----END [A-Z0-9 ]*PRIVATE KEY-----`;
/** A header line (`Proc-Type: 4,ENCRYPTED`) or a base64 line of a PEM body. */
const PEM_LINE = String.raw`${NL}[ \t]*(?:[A-Za-z-]+: [^\n\\]*|[A-Za-z0-9+/=]+)`;
/**
 * A PEM private key block of any type (PKCS#8, RSA, EC, ENCRYPTED, OPENSSH): from its BEGIN line to its END
 * line, or, cut short, to where its body lines stop. Plain or inside a JSON string.
 */
const PRIVATE_KEY_BLOCK = new RegExp(String.raw`${BEGIN_KEY}(?:[\s\S]*?${END_KEY}|[ \t]*[A-Za-z0-9+/=]*(?:${PEM_LINE})*)`, 'g');

/** Every PEM private key block in `text`, whole or cut short, replaced by `(sensitive)`. */
function redactPrivateKeys(text: string): string {
  return text.includes('PRIVATE KEY-----') ? text.replace(PRIVATE_KEY_BLOCK, REDACTED) : text;
}

export type Redactor = (text: string) => string;

/**
 * A function replacing every known secret (whole, and each PEM body line) and every PEM private key block
 * with `(sensitive)`.
 */
export function createRedactor(secrets: readonly string[]): Redactor {
  // Longest first, so a whole value goes before the lines inside it.
  const fragments = [...new Set(secrets.flatMap(fragmentsOf))].sort((a, b) => b.length - a.length);
  return (text) => {
    let out = text;
    for (const fragment of fragments) if (out.includes(fragment)) out = out.split(fragment).join(REDACTED);
    return redactPrivateKeys(out);
  };
}
