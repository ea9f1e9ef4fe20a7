// String formats the schemas name (`cidr`, `hostport`, `uri`), and the one check on resolved values: no PEM
// private key outside a secret field. `cidr` and `hostport` are the contract's value rules (src/contract/values.ts),
// the very ones the service applies; messages.ts words their errors with the rule's own message.
import { VALUE_FORMATS } from '../../contract/values.ts';
import type { Json } from '../../kinds/resource-kind.ts';
import { childPointer } from '../pointer.ts';

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
  const found: string[] = [];
  const visit = (value: Json, pointer: string): void => {
    if (typeof value === 'string') {
      if (PRIVATE_KEY_BEGIN.test(value)) found.push(pointer);
    } else if (Array.isArray(value)) {
      value.forEach((item, i) => visit(item, childPointer(pointer, i)));
    } else if (value !== null && typeof value === 'object') {
      for (const [key, item] of Object.entries(value)) {
        if (pointer === '' && secretFields.includes(key)) continue;
        visit(item, childPointer(pointer, key));
      }
    }
  };
  visit(fields, '');
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
