// String formats the schemas name (`cidr`, `hostport`, `uri`), and the one check on resolved values: no PEM
// private key outside a secret field. `cidr` and `hostport` are the contract's value rules (src/contract/values.ts),
// the very ones the service applies; messages.ts words their errors with the rule's own message.
import { VALUE_FORMATS } from '../../contract/values.ts';
import type { Json } from '../../kinds/resource-kind.ts';
import { joinPointer } from '../../contract/field-path.ts';

/** An absolute http(s) URL (the project file's api_url). */
function isHttpUrl(value: string): boolean {
  if (!URL.canParse(value)) return false;
  const url = new URL(value);
  return url.protocol === 'http:' || url.protocol === 'https:';
}

/** The BEGIN line of a PEM private key of any type (PKCS#8, RSA, EC, ENCRYPTED, OPENSSH). */
const PRIVATE_KEY_BEGIN = /-----BEGIN [A-Z0-9 ]*PRIVATE KEY-----/;

/**
 * Pointers of the string values in `fields` that hold a PEM private key, outside the top-level fields named
 * in `secretFields`. Only secret fields are kept out of plans and saved plans; a key anywhere else (a
 * certificate field, alone or appended to a chain; a description) would be printed whole.
 */
export function misplacedPrivateKeys(fields: Json, secretFields: readonly string[]): string[] {
  // A BEGIN line in any value shows in the document's JSON text too (JSON escapes none of its characters): one
  // native pass tells most documents clean, and only the others are walked value by value.
  if (!PRIVATE_KEY_BEGIN.test(JSON.stringify(fields))) return [];
  const found: string[] = [];
  // The path to the value at hand: its pointer is built only for a value that holds a key (almost never).
  const path: (string | number)[] = [];
  const visit = (value: Json): void => {
    if (typeof value === 'string') {
      if (PRIVATE_KEY_BEGIN.test(value)) found.push(joinPointer(path));
    } else if (Array.isArray(value)) {
      for (let i = 0; i < value.length; i++) {
        path.push(i);
        visit(value[i]!);
        path.pop();
      }
    } else if (value !== null && typeof value === 'object') {
      // for-in: no key list for every object of every document (cloneJson says why).
      for (const key in value) {
        if (path.length === 0 && secretFields.includes(key)) continue;
        path.push(key);
        visit(value[key]!);
        path.pop();
      }
    }
  };
  visit(fields);
  return found;
}

/** The error for a private key found by misplacedPrivateKeys (reported at the field); never any of the key. */
export function misplacedPrivateKeyMessage(): string {
  return `holds a PEM private key, which is not allowed here: this field is not secret, so plans ` +
    'and saved plans would print it (the key is not shown). Give only certificates here; a private key belongs in ' +
    "a TLSCertificate's private_key_pem";
}

/** The formats the schemas name, as ajv checks them (compile.ts, and the build's precompiled validators). */
export const AJV_FORMATS = {
  cidr: VALUE_FORMATS.cidr.check,
  hostport: VALUE_FORMATS.hostport.check,
  uri: isHttpUrl,
};
