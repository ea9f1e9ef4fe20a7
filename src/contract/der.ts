// Just enough DER to read a certificate's structure without an X.509 library: the elements of an X.509
// certificate in their order and types, its names, its public key (for node:crypto) and its extensions, each
// of which must decode. As lenient as a schema-driven ASN.1 reader: a non-minimal INTEGER (a serial with
// leading zero octets) is read, not refused. Throws Error on anything malformed; callers turn that into their
// own refusal.

interface Element {
  /** Where the element (its header) starts. */
  at: number;
  tag: number;
  /** Where the content starts and ends in the buffer. */
  start: number;
  end: number;
}

function element(der: Uint8Array, at: number, limit: number): Element {
  if (at + 2 > limit) throw new Error('truncated DER');
  const tag = der[at]!;
  if ((tag & 0x1f) === 0x1f) throw new Error('multi-byte DER tags are not used here');
  let length = der[at + 1]!;
  let start = at + 2;
  if (length & 0x80) {
    const n = length & 0x7f;
    if (n === 0 || n > 4 || start + n > limit) throw new Error('bad DER length');
    length = 0;
    for (let i = 0; i < n; i++) length = length * 256 + der[start + i]!;
    start += n;
  }
  const end = start + length;
  if (end > limit) throw new Error('DER element overruns its parent');
  return { at, tag, start, end };
}

function childrenOf(der: Uint8Array, parent: Element): Element[] {
  const out: Element[] = [];
  for (let at = parent.start; at < parent.end; at = out[out.length - 1]!.end) out.push(element(der, at, parent.end));
  return out;
}

const CONSTRUCTED = 0x20;

/** Every element inside a constructed one is well-formed, down to the primitives. */
function checkWellFormed(der: Uint8Array, el: Element): void {
  if (el.tag & CONSTRUCTED) for (const child of childrenOf(der, el)) checkWellFormed(der, child);
  else if (el.tag === 0x03 && (el.end === el.start || der[el.start]! > 7)) throw new Error('bad BIT STRING');
}

// The outer type of the extensions a reader decodes to show a certificate's fields, by the OID's DER content.
const EXPECTED: Record<string, number> = {
  '551d0e': 0x04, // subjectKeyIdentifier: OCTET STRING
  '551d0f': 0x03, // keyUsage: BIT STRING
  '551d11': 0x30, // subjectAltName
  '551d12': 0x30, // issuerAltName
  '551d13': 0x30, // basicConstraints
  '551d1f': 0x30, // cRLDistributionPoints
  '551d20': 0x30, // certificatePolicies
  '551d23': 0x30, // authorityKeyIdentifier
  '551d25': 0x30, // extKeyUsage
  '2b06010505070101': 0x30, // authorityInfoAccess
};

const hex = (der: Uint8Array, el: Element): string => Buffer.from(der.subarray(el.start, el.end)).toString('hex');

/**
 * Checks each extension of a DER certificate: its value is one well-formed element, of the type its OID
 * declares for the extensions above. Returns the extensions' OIDs (DER content, hex).
 */
export function readCertificateExtensions(der: Uint8Array): string[] {
  const cert = element(der, 0, der.length);
  const tbs = childrenOf(der, cert)[0];
  if (!tbs || tbs.tag !== 0x30) throw new Error('no TBSCertificate');
  const wrapper = childrenOf(der, tbs).find((el) => el.tag === 0xa3);
  if (!wrapper) return [];
  const [list] = childrenOf(der, wrapper);
  if (!list || list.tag !== 0x30) throw new Error('bad extensions');
  const oids: string[] = [];
  for (const ext of childrenOf(der, list)) {
    const parts = childrenOf(der, ext);
    const oid = parts[0];
    const value = parts[parts.length - 1];
    if (!oid || oid.tag !== 0x06 || !value || value.tag !== 0x04 || parts.length > 3) throw new Error('bad extension');
    const inner = element(der, value.start, value.end);
    if (inner.end !== value.end) throw new Error('data after an extension value');
    const id = hex(der, oid);
    const expected = EXPECTED[id];
    if (expected !== undefined && inner.tag !== expected) throw new Error('an extension of the wrong type');
    checkWellFormed(der, inner);
    oids.push(id);
  }
  return oids;
}

const TIME = new Set([0x17, 0x18]); // UTCTime, GeneralizedTime

/** A Name: a SEQUENCE of SETs of (OID, value) pairs. */
function checkName(der: Uint8Array, name: Element): void {
  for (const rdn of childrenOf(der, name)) {
    if (rdn.tag !== 0x31) throw new Error('bad name');
    for (const pair of childrenOf(der, rdn)) {
      const [type, value, extra] = pair.tag === 0x30 ? childrenOf(der, pair) : [];
      if (!type || type.tag !== 0x06 || !value || extra) throw new Error('bad name');
    }
  }
}

/**
 * An X.509 certificate's structure (RFC 5280 4.1): the TBSCertificate's fields in order and of their types, the
 * validity two times, the names well-formed, every element well-formed. Returns the SubjectPublicKeyInfo's DER.
 */
export function readCertificateStructure(der: Uint8Array): { spki: Uint8Array } {
  const cert = element(der, 0, der.length);
  const top = cert.tag === 0x30 ? childrenOf(der, cert) : [];
  const [tbs, algorithm, signature] = top;
  if (top.length !== 3 || tbs?.tag !== 0x30 || algorithm?.tag !== 0x30 || signature?.tag !== 0x03) throw new Error('not a certificate');
  const fields = childrenOf(der, tbs);
  let i = fields[0]?.tag === 0xa0 ? 1 : 0;
  const next = (tag: number): Element => {
    const el = fields[i++];
    if (!el || el.tag !== tag) throw new Error('not a TBSCertificate');
    return el;
  };
  next(0x02); // serial
  next(0x30); // signature algorithm
  const issuer = next(0x30);
  const validity = childrenOf(der, next(0x30));
  const subject = next(0x30);
  const spki = next(0x30);
  if (validity.length !== 2 || !validity.every((t) => TIME.has(t.tag))) throw new Error('bad validity');
  for (const rest of fields.slice(i)) if (![0x81, 0x82, 0xa1, 0xa2, 0xa3].includes(rest.tag)) throw new Error('not a TBSCertificate');
  checkName(der, issuer);
  checkName(der, subject);
  checkWellFormed(der, cert);
  return { spki: der.subarray(spki.at, spki.end) };
}
