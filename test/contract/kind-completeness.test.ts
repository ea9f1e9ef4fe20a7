// Every kind of the API is declared once, in the contract, and every table that serves a kind has it: the
// contract's CONTRACT_KINDS, and the service's RESOURCES (with a route per body the contract declares).
import { describe, expect, it } from 'vitest';
import { compileBody } from '../../src/contract/body-check.ts';
import { CONTRACT_KINDS, type BodySchema, type ContractCode } from '../../src/contract/index.ts';
import { RULE_NAMES } from '../../src/contract/schema.ts';
import { ERROR_CATALOG } from '../../src/service/errors.ts';
import { MODULE_DEFS, modulesOf } from '../../src/service/resources/edge-kinds.ts';
import { RESOURCES } from '../../src/service/routes.ts';

/** Every subschema of a body schema, with its path. */
function subschemas(schema: BodySchema, path = ''): [string, BodySchema][] {
  const inner: [string, BodySchema][] = [
    ...Object.entries(schema.properties ?? {}).flatMap(([k, s]) => subschemas(s, `${path}.${k}`)),
    ...(schema.items ? subschemas(schema.items, `${path}[]`) : []),
    ...(typeof schema.additionalProperties === 'object' ? subschemas(schema.additionalProperties, `${path}.*`) : []),
  ];
  return [[path, schema], ...inner];
}

const bodies = CONTRACT_KINDS.flatMap((k) => [
  [`${k.kind} create`, k.create],
  [`${k.kind} update`, k.update],
  ...k.modules.map((m) => [`${k.kind} ${m.name} PUT`, m.schema]),
  ...Object.entries(k.subresources ?? {}).flatMap(([name, s]) => [[`${k.kind} ${name} create`, s.create], [`${k.kind} ${name} update`, s.update]]),
] as [string, BodySchema][]);

const served = RESOURCES.flatMap((r) => r.kinds);
const routes = new Set(RESOURCES.flatMap((r) => r.routes.map((route) => `${route.method} ${route.path}`)));

describe('the contract', () => {
  it('declares each kind once, with distinct prefixes and paths', () => {
    const names = CONTRACT_KINDS.map((k) => k.kind);
    expect(new Set(names).size).toBe(names.length);
    expect(new Set(CONTRACT_KINDS.map((k) => k.prefix)).size).toBe(names.length);
    expect(new Set(CONTRACT_KINDS.map((k) => k.path)).size).toBe(names.length);
  });

  it.each(bodies)('%s: the schema compiles', (_name, schema) => {
    expect(() => compileBody(schema)).not.toThrow();
    expect(schema.type).toBe('object');
    expect(schema.additionalProperties).toBe(false);
  });

  it('names only error codes the service has, and only rules it defines', () => {
    const codes = new Set<string>();
    for (const [, schema] of bodies) {
      for (const [, s] of subschemas(schema)) {
        if (s.errorCode) codes.add(s.errorCode);
        if (s.distinct) codes.add(s.distinct.code);
        if (s.rule) expect(RULE_NAMES).toContain(s.rule);
      }
    }
    for (const k of CONTRACT_KINDS) codes.add(k.notFound);
    const catalog: Record<ContractCode, unknown> = ERROR_CATALOG;
    for (const code of codes) expect(catalog, code).toHaveProperty(code);
  });

  it('every immutable field is a create field missing from the PATCH body', () => {
    for (const k of CONTRACT_KINDS) {
      for (const field of k.immutable) {
        expect(k.create.properties, `${k.kind}.${field}`).toHaveProperty(field);
        expect(Object.keys(k.update.properties ?? {}), `${k.kind}.${field}`).not.toContain(field);
      }
    }
  });

  it('every reference field is a field of the create body, naming declared kinds', () => {
    const names = new Set(CONTRACT_KINDS.map((k) => k.kind));
    for (const k of CONTRACT_KINDS) {
      const paths = new Set(subschemas(k.create).map(([p]) => p));
      for (const ref of k.refs) {
        expect(paths, `${k.kind} ${ref.field}`).toContain(`.${ref.field}`);
        for (const target of ref.kinds) expect(names).toContain(target);
      }
    }
  });
});

describe('the service serves exactly the contract kinds', () => {
  it('each resource module kind is a contract kind with the same names, and the reverse', () => {
    expect(served.map((k) => k.kind).sort()).toEqual(CONTRACT_KINDS.map((k) => k.kind).sort());
    for (const def of served) {
      const contract = CONTRACT_KINDS.find((k) => k.kind === def.kind)!;
      expect({ prefix: def.prefix, label: def.label, path: def.path, notFound: def.notFound })
        .toEqual({ prefix: contract.prefix, label: contract.label, path: contract.path, notFound: contract.notFound });
    }
  });

  it('has the create, PATCH and module PUT route of every contract body', () => {
    for (const k of CONTRACT_KINDS) {
      expect(routes, k.kind).toContain(`POST ${k.path}`);
      expect(routes, k.kind).toContain(`PATCH ${k.path}/:id`);
      for (const m of k.modules) expect(routes, `${k.kind} ${m.name}`).toContain(`PUT ${k.path}/:id/${m.name}`);
      for (const s of Object.values(k.subresources ?? {})) {
        expect(routes).toContain(`POST ${s.path}`);
        expect(routes).toContain(`PATCH ${s.path}/:type`);
      }
    }
  });

  it('stores every module of the contract, and no other', () => {
    const used = new Set(CONTRACT_KINDS.flatMap((k) => modulesOf(k)));
    expect([...used].sort((a, b) => a.name.localeCompare(b.name))).toEqual([...MODULE_DEFS].sort((a, b) => a.name.localeCompare(b.name)));
    for (const k of CONTRACT_KINDS) expect(modulesOf(k).map((m) => m.contract)).toEqual(k.modules);
  });

  it('has no module route the contract does not declare', () => {
    const modulePuts = [...routes].filter((r) => r.startsWith('PUT '));
    const declared = CONTRACT_KINDS.flatMap((k) => k.modules.map((m) => `PUT ${k.path}/:id/${m.name}`));
    expect(modulePuts.sort()).toEqual(declared.sort());
  });
});
