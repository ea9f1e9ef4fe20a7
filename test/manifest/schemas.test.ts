// The published schemas: generated from the contract's request-body schemas, one per kind, consistent with the
// kinds' declared references and secrets, strict everywhere, and a union schema that validates as the per-kind
// ones do.
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { Ajv } from 'ajv';
import { describe, expect, it } from 'vitest';
import { CONTRACT_KINDS, type BodySchema } from '../../src/contract/index.ts';
import { KINDS } from '../../src/kinds/index.ts';
import { SCHEMA_DIR, schemaFiles, schemaText } from '../../scripts/write-schemas.ts';
import { kindValidation } from '../../src/manifest/schema.ts';
import { AJV_FORMATS } from '../../src/manifest/schema/formats.ts';
import { isObj } from '../../src/contract/json.ts';

type Schema = Record<string, unknown>;
const files = schemaFiles();
/** A published kind schema without the typed-value alternatives: the kind's own schema, node for node. */
function withoutTypedValues(node: unknown): unknown {
  if (Array.isArray(node)) return node.map(withoutTypedValues);
  if (!isObj(node)) return node;
  const anyOf = node.anyOf;
  if (Array.isArray(anyOf) && anyOf.length >= 2 && isObj(anyOf[1]) && anyOf[1].$ref === '#/definitions/var') return withoutTypedValues(anyOf[0]);
  const out: Schema = {};
  for (const [key, value] of Object.entries(node)) if (key !== 'definitions' || !isObj(value)) out[key] = withoutTypedValues(value);
  if (isObj(node.definitions)) {
    const { var: _var, template: _template, ...rest } = node.definitions;
    if (Object.keys(rest).length > 0) out.definitions = withoutTypedValues(rest);
  }
  return out;
}

/** The kind schemas as the contract makes them, without the {var}/{template} alternatives published for environments. */
const plain = new Map([...files].map(([file, schema]) => [file, withoutTypedValues(schema) as Schema]));

describe('schemas/', () => {
  it.each([...files.keys()])('%s is what a fresh generation from the contract makes (regenerate: npm run schemas)', (file) => {
    expect(readFileSync(join(SCHEMA_DIR, file), 'utf8')).toBe(schemaText(files.get(file)!));
  });

  it('has one schema per kind, titled and bound to its kind', () => {
    for (const kind of KINDS) {
      const schema = files.get(`${kind.kind}.schema.json`);
      expect(schema, kind.kind).toBeDefined();
      expect((schema!.properties as Schema).kind).toMatchObject({ const: kind.kind });
      expect(schema!.required).toEqual(expect.arrayContaining(['kind', 'name']));
    }
  });

  it('describes each reference field with the kinds the kind descriptor allows', () => {
    const tls = plain.get('TLSEdge.schema.json')!;
    const backend = ((tls.properties as Schema).backend as Schema).properties as Schema;
    expect((backend.backend_id as Schema).description).toBe(
      'The name of a resource of kind TunnelGroupBackend or HTTPResponseBackend in these manifests, or a literal id (bkdtg_..., bkdhr_...).',
    );
  });

  it('refuses unknown fields in every object that lists its fields', () => {
    const loose: string[] = [];
    const walk = (node: unknown, path: string): void => {
      if (Array.isArray(node)) return node.forEach((n, i) => walk(n, `${path}/${i}`));
      if (!node || typeof node !== 'object') return;
      const s = node as Schema;
      if (s.properties && s.type === 'object' && s.additionalProperties !== false) loose.push(path);
      // if/then hold conditions on objects defined elsewhere, not object definitions.
      for (const [k, v] of Object.entries(s)) if (k !== 'if' && k !== 'then') walk(v, `${path}/${k}`);
    };
    for (const [file, schema] of files) if (file !== 'manifest.schema.json') walk(schema, file);
    expect(loose).toEqual([]);
  });

  it('lets every secret field of a kind come from {file} or {env}', () => {
    for (const kind of KINDS) {
      const secretFields = kindValidation(kind.kind)!.secretPointers;
      for (const field of kind.secrets) expect(secretFields, `${kind.kind}.${field}`).toContain(`/${field}`);
    }
    expect(kindValidation('TLSCertificate')!.secretPointers).toEqual(['/certificate_pem', '/private_key_pem']);
    expect(kindValidation('CertificateAuthority')!.secretPointers).toEqual(['/ca_pem']);
    expect(kindValidation('HTTPResponseBackend')!.secretPointers).toEqual(['/body']);
  });

  it('manifest.schema.json validates like the kind schemas (as an editor would use it)', () => {
    const ajv = new Ajv({ allowUnionTypes: true });
    ajv.addKeyword({ keyword: 'errorMessage' });
    for (const [name, check] of Object.entries(AJV_FORMATS)) ajv.addFormat(name, check);
    for (const [file, schema] of files) if (file !== 'manifest.schema.json' && file !== 'edgeops.schema.json') ajv.addSchema(schema, file);
    const union = ajv.compile(files.get('manifest.schema.json')!);
    const docs: [unknown, boolean][] = [
      [{ kind: 'IPPolicy', name: 'a' }, true],
      [{ kind: 'IPPolicy', name: 'a', cidr: '10.0.0.0/8' }, false],
      [{ kind: 'IPPolicyRule', name: 'r', cidr: '10.0.0.0/8', ip_policy_id: 'office', action: 'deny' }, true],
      [{ kind: 'IPPolicyRule', name: 'r', cidr: '10.0.0.1/8', ip_policy_id: 'office', action: 'deny' }, false],
      [{ kind: 'TCPEdge', name: 'e', hostports: ['a.example.com:1'], backend: { backend_id: 'web' } }, true],
      [{ kind: 'TLSEdge', name: 'e', tls_termination: { terminate_at: 'upstream', min_version: '1.2' } }, false],
      [{ kind: 'TLSCertificate', name: 'c', certificate_pem: { file: 'a.pem' }, private_key_pem: { env: 'KEY' } }, true],
      [{ kind: 'Gateway', name: 'g' }, false],
      [{ name: 'g' }, false],
    ];
    for (const [doc, valid] of docs) {
      expect(union(doc), JSON.stringify(doc)).toBe(valid);
      const kind = (doc as { kind?: string }).kind;
      const own = kind ? kindValidation(kind) : undefined;
      if (own) expect(own.validate(doc), JSON.stringify(doc)).toBe(valid);
    }
  });
});

describe('generated from the contract', () => {
  /** Every node of a contract body schema with a value rule, by its path in the manifest (`*` = items). */
  function limits(schema: BodySchema, path = ''): [string, BodySchema][] {
    const own: [string, BodySchema][] = schema.enum || schema.maxBytes !== undefined || schema.minimum !== undefined || schema.minItems !== undefined ? [[path, schema]] : [];
    return [
      ...own,
      ...Object.entries(schema.properties ?? {}).flatMap(([k, s]) => limits(s, `${path}/${k}`)),
      ...(schema.items ? limits(schema.items, `${path}/*`) : []),
    ];
  }

  function nodeAt(schema: Schema, pointer: string): Schema | undefined {
    return pointer.split('/').slice(1).reduce<Schema | undefined>((node, seg) =>
      (seg === '*' ? node?.items : (node?.properties as Schema | undefined)?.[seg]) as Schema | undefined, schema);
  }

  it.each(CONTRACT_KINDS.map((c) => [c.kind, c] as const))('%s: every enum, limit and minimum is the contract\'s', (_name, contract) => {
    const kind = KINDS.find((k) => k.idPrefix === `${contract.prefix}_`)!;
    const schema = plain.get(`${kind.kind}.schema.json`)!;
    const checked = limits(contract.create).filter(([path]) => nodeAt(schema, path)?.then === undefined && !path.startsWith('/metadata'));
    expect(checked.length).toBeGreaterThan(0);
    for (const [path, rule] of checked) {
      const node = nodeAt(schema, path);
      if (node === undefined) continue; // a field the manifest leaves to another document kind
      if (rule.enum) expect((node.enum as unknown[]).filter((v) => v !== null), path).toEqual([...rule.enum]);
      if (rule.maxBytes !== undefined) expect(node.maxLength, path).toBe(rule.maxBytes);
      if (rule.minimum !== undefined) expect([node.minimum, node.maximum], path).toEqual([rule.minimum, rule.maximum]);
      if (rule.minItems !== undefined) expect(node.minItems, path).toBe(rule.minItems);
    }
  });
});
