// Finding secrets in captured bytes: a private key whole or in part (any 16-character run of its PEM body at
// any offset, or of its secret numbers as base64url or hex), and an API key (whole, or any 16-character run).
// Runs are looked up in a set while sliding over the text once, so megabytes of output are scanned quickly.
// Findings name the secret and the place, never the matching text, so a failing test prints no secret either.
import { createPrivateKey } from 'node:crypto';
import { readdirSync, readFileSync, statSync } from 'node:fs';
import { join, relative } from 'node:path';

export const RUN = 16;

export interface Secret {
  /** What to call it in a finding, e.g. `private key (file)`. */
  label: string;
  /** Every RUN-character window of every form of the secret's material. */
  windows: Set<string>;
}

function windowsOf(material: string, into: Set<string>): void {
  for (let i = 0; i + RUN <= material.length; i++) into.add(material.slice(i, i + RUN));
}

const pemBody = (pem: string): string => pem.replace(/-----[^-]+-----/g, '').replace(/\s+/g, '');

/**
 * A PEM private key: its base64 body and, where JWK has a form, its secret numbers in base64url and hex.
 * `decoyPem`, another key of the same type, takes out the runs every such key shares (the PKCS#8 header).
 */
export function privateKeySecret(label: string, keyPem: string, decoyPem?: string): Secret {
  const windows = new Set<string>();
  windowsOf(pemBody(keyPem), windows);
  const jwk = createPrivateKey(keyPem).export({ format: 'jwk' }) as Record<string, unknown>;
  for (const field of ['d', 'p', 'q', 'dp', 'dq', 'qi']) {
    const v = jwk[field];
    if (typeof v !== 'string') continue;
    windowsOf(v, windows);
    windowsOf(Buffer.from(v, 'base64url').toString('hex'), windows);
    windowsOf(Buffer.from(v, 'base64url').toString('base64'), windows);
  }
  if (decoyPem !== undefined) {
    const common = new Set<string>();
    windowsOf(pemBody(decoyPem), common);
    for (const w of common) windows.delete(w);
  }
  return { label, windows };
}

export function tokenSecret(label: string, token: string): Secret {
  const windows = new Set<string>();
  windowsOf(token, windows);
  return { label, windows };
}

/**
 * The forms of a text to scan: as is, and with whitespace and JSON/YAML escapes taken out, so a PEM body that
 * was re-wrapped, indented or written into a JSON string is still found. Certificate blocks are cut first:
 * they are public, and an EC certificate carries the same public point as its key's PKCS#8 encoding.
 */
function formsOf(text: string): string[] {
  const cut = text.replace(/-----BEGIN CERTIFICATE-----[\s\S]*?-----END CERTIFICATE-----/g, '');
  return [cut, cut.replace(/\\[nrt]/g, '').replace(/\s+/g, '')];
}

/** The labels of the secrets found in `text` (empty when clean). */
export function secretsIn(text: string, secrets: readonly Secret[]): string[] {
  const found = new Set<string>();
  for (const form of formsOf(text)) {
    for (let i = 0; i + RUN <= form.length; i++) {
      const window = form.slice(i, i + RUN);
      for (const s of secrets) if (s.windows.has(window)) found.add(s.label);
      if (found.size === secrets.length) return [...found];
    }
  }
  return [...found].sort();
}

/** Every file under `dir` (dot directories such as .edgeops/ included), as paths relative to it. */
export function walkFiles(dir: string): string[] {
  const out: string[] = [];
  const visit = (d: string): void => {
    for (const entry of readdirSync(d)) {
      const abs = join(d, entry);
      if (statSync(abs).isDirectory()) visit(abs);
      else out.push(relative(dir, abs));
    }
  };
  visit(dir);
  return out.sort();
}

/** A file's bytes as text: latin1 keeps every byte (SQLite pages, binary files) one character. */
export function fileText(abs: string): string {
  return readFileSync(abs).toString('latin1');
}
