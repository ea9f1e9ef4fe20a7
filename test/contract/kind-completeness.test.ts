// Every kind of the API is declared once, in the contract, and every table that serves a kind has it: the
// contract's CONTRACT_KINDS, the service's RESOURCES (with a route per body the contract declares) and its error
// catalog (a not-found code per kind), the reconciler's KINDS, and the manifest schemas (src/manifest, schemas/).
import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { compileBody } from '../../src/contract/body-compile.ts';
import { contractBodies, CONTRACT_KINDS, notFoundCode, type BodySchema, type ContractCode, type ContractKind } from '../../src/contract/index.ts';
import { RULES } from '../../src/contract/rules.ts';
import { ERROR_CATALOG } from '../../src/service/errors.ts';
import { modulesOf } from '../../src/service/modules/modules-by-kind.ts';
import type { ModuleDef } from '../../src/service/modules/stored-modules.ts';
import { RESOURCES } from '../../src/service/routes.ts';
import { contractRefs } from '../../src/kinds/contract-kind.ts';
import { KINDS, kindByName } from '../../src/kinds/index.ts';
import { kindSchemas } from '../../src/manifest/schema/kinds.ts';
import { unionSchema } from '../../src/manifest/schema/project.ts';
import { POLICY_KINDS } from '../../src/policy/schemas.ts';
import { SCHEMA_DIR } from '../../scripts/write-schemas.ts';

/** Every subschema of a body schema, with its path. */
function subschemas(schema: BodySchema, path = ''): [string, BodySchema][] {
  const inner: [string, BodySchema][] = [
    ...Object.entries(schema.properties ?? {}).flatMap(([k, s]) => subschemas(s, `${path}.${k}`)),
    ...(schema.items ? subschemas(schema.items, `${path}[]`) : []),
    ...(typeof schema.additionalProperties === 'object' ? subschemas(schema.additionalProperties, `${path}.*`) : []),
  ];
  return [[path, schema], ...inner];
}

/** The manifest's name of a contract kind, as the reconciler's reference fields spell it (contractRefs). */
function manifestName(contract: ContractKind): string {
  return contractRefs({ ...contract, refs: [{ field: 'ref', kinds: [contract.kind] }] }).at(-1)!.kinds[0]!;
}

/** Every stored form of a module the service's module and resource files export (the ones modulesOf picks from). */
async function storedModuleForms(): Promise<ModuleDef<unknown>[]> {
  const isModuleDef = (v: unknown): v is ModuleDef<unknown> =>
    typeof v === 'object' && v !== null && 'contract' in v && typeof (v as ModuleDef<unknown>).store === 'function' && typeof (v as ModuleDef<unknown>).render === 'function';
  const found = new Set<ModuleDef<unknown>>();
  for (const dir of ['modules', 'resources']) {
    const path = join(import.meta.dirname, '../../src/service', dir);
    for (const file of readdirSync(path).filter((f) => f.endsWith('.ts'))) {
      for (const value of Object.values(await import(join(path, file)) as Record<string, unknown>)) if (isModuleDef(value)) found.add(value);
    }
  }
  return [...found];
}

const bodies = contractBodies();

const served = RESOURCES.flatMap((r) => r.kinds);
const routes = new Set(RESOURCES.flatMap((r) => r.routes.map((route) => `${route.method} ${route.path}`)));

describe('the contract', () => {
  it('declares each kind once, with distinct prefixes and paths', () => {
    const names = CONTRACT_KINDS.map((k) => k.kind);
    expect(new Set(names).size).toBe(names.length);
    expect(new Set(CONTRACT_KINDS.map((k) => k.prefix)).size).toBe(names.length);
    expect(new Set(CONTRACT_KINDS.map((k) => k.path)).size).toBe(names.length);
  });

  it('types as KindName exactly the names of CONTRACT_KINDS (each kind file declares its own into KindNames)', () => {
    const dir = join(import.meta.dirname, '../../src/contract/kinds');
    const declared = readdirSync(dir).flatMap((file) => {
      const block = /declare module '\.\.\/kind\.ts' \{\s*interface KindNames \{([^}]*)\}/.exec(readFileSync(join(dir, file), 'utf8'));
      return block ? [...block[1]!.matchAll(/^\s*(\w+): true;/gm)].map((m) => m[1]!) : [];
    });
    expect(declared.sort()).toEqual(CONTRACT_KINDS.map((k) => k.kind).sort());
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
        if (s.rule) expect(Object.keys(RULES)).toContain(s.rule);
      }
    }
    for (const k of CONTRACT_KINDS) codes.add(notFoundCode(k.kind));
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
    const servedNames = served.map((k) => k.kind);
    const contractNames = CONTRACT_KINDS.map((k) => k.kind);
    expect(contractNames.filter((k) => !servedNames.includes(k)), 'contract kinds missing from RESOURCES (src/service/routes.ts)').toEqual([]);
    expect(servedNames.filter((k) => !contractNames.includes(k)), 'kinds served but not in CONTRACT_KINDS (src/contract/index.ts)').toEqual([]);
    expect(new Set(servedNames).size, 'a kind served twice').toBe(servedNames.length);
    for (const def of served) {
      const contract = CONTRACT_KINDS.find((k) => k.kind === def.kind)!;
      expect({ prefix: def.prefix, label: def.label, path: def.path }).toEqual({ prefix: contract.prefix, label: contract.label, path: contract.path });
    }
  });

  it('has the create, PATCH and module PUT route of every contract body', () => {
    for (const k of CONTRACT_KINDS) {
      expect(routes, `${k.kind}: no POST route in RESOURCES (src/service/routes.ts)`).toContain(`POST ${k.path}`);
      expect(routes, `${k.kind}: no PATCH route in RESOURCES (src/service/routes.ts)`).toContain(`PATCH ${k.path}/:id`);
      // Modules and sub-resources are served by the kind's resource module, a file in src/service/resources/.
      const needsModule = `${k.kind}: no resource module in src/service/resources/ serves`;
      for (const m of k.modules) expect(routes, `${needsModule} its ${m.name} module`).toContain(`PUT ${k.path}/:id/${m.name}`);
      for (const [name, s] of Object.entries(k.subresources ?? {})) {
        expect(routes, `${needsModule} its ${name}`).toContain(`POST ${s.path}`);
        expect(routes, `${needsModule} its ${name}`).toContain(`PATCH ${s.path}/:type`);
      }
    }
  });

  it('stores every module of the contract, and no other', async () => {
    const used = new Set(CONTRACT_KINDS.flatMap((k) => modulesOf(k)));
    const defined = await storedModuleForms();
    expect(defined.length).toBeGreaterThan(0);
    expect([...used].sort((a, b) => a.name.localeCompare(b.name))).toEqual(defined.sort((a, b) => a.name.localeCompare(b.name)));
    for (const k of CONTRACT_KINDS) expect(modulesOf(k).map((m) => m.contract)).toEqual(k.modules);
  });

  it('has no module route the contract does not declare', () => {
    const modulePuts = [...routes].filter((r) => r.startsWith('PUT '));
    const declared = CONTRACT_KINDS.flatMap((k) => k.modules.map((m) => `PUT ${k.path}/:id/${m.name}`));
    expect(modulePuts.sort()).toEqual(declared.sort());
  });
});

describe('the reconciler and the manifests have every contract kind', () => {
  // Built in each test: a kind missing from KINDS makes kindSchemas throw (an overlay for an unknown kind).
  const schemas = (): Map<string, unknown> => kindSchemas();
  const published = new Set(readdirSync(SCHEMA_DIR));

  it.each(CONTRACT_KINDS.map((c) => [c.kind, c] as const))('%s: a reconciler kind with its names and references, and a manifest schema', (_name, contract) => {
    const kind = kindByName(manifestName(contract));
    expect(kind, `no ${manifestName(contract)} in KINDS (src/kinds/index.ts)`).toBeDefined();
    expect(kind!.idPrefix).toBe(`${contract.prefix}_`);
    expect(kind!.refs.map(({ pointer, kinds, inPath }) => ({ pointer, kinds, ...(inPath ? { inPath } : {}) }))).toEqual(contractRefs(contract));
    expect(kind!.immutable).toEqual(expect.arrayContaining([...contract.immutable]));
    expect(schemas().has(kind!.kind), `no manifest schema for ${kind!.kind} (src/manifest/schema/kinds.ts)`).toBe(true);
  });

  it('every reconciler kind is a contract kind, or a module or sub-resource of one', () => {
    const modules = CONTRACT_KINDS.flatMap((c) => c.modules.map((m) => m.name));
    const subresources = CONTRACT_KINDS.flatMap((c) => Object.keys(c.subresources ?? {}));
    for (const kind of KINDS) {
      if (kind.idPrefix !== undefined) {
        expect(CONTRACT_KINDS.map((c) => `${c.prefix}_`), kind.kind).toContain(kind.idPrefix);
        continue;
      }
      // A kind without ids (natural key) manages a part of its parent: RouteResponseHeaders a module,
      // EventSources a sub-resource. Its name says which.
      const part = kind.kind.replace(/^Route|^Event/, '').replace(/[A-Z]/g, (c, i: number) => `${i ? '_' : ''}${c.toLowerCase()}`);
      expect([...modules, ...subresources], kind.kind).toContain(part);
    }
  });

  it('every reconciler kind has its manifest schema, published in schemas/ and named by the union schema', () => {
    expect([...schemas().keys()].sort()).toEqual(KINDS.map((k) => k.kind).sort());
    for (const kind of KINDS) expect(published, `${kind.kind}: not in schemas/ (npm run schemas)`).toContain(`${kind.kind}.schema.json`);
    const union = unionSchema() as { properties: { kind: { enum: string[] } } };
    // The union names the policy documents too (they may sit among the manifests); each resource kind is there.
    expect([...union.properties.kind.enum].sort()).toEqual([...KINDS.map((k) => k.kind), ...POLICY_KINDS].sort());
  });

  it('every kind has its own not-found error code in the service catalog', () => {
    const codes = CONTRACT_KINDS.map((c) => notFoundCode(c.kind));
    expect(new Set(codes).size).toBe(codes.length);
    for (const code of codes) expect(ERROR_CATALOG, `${code}: not in ERROR_CATALOG (src/service/errors.ts)`).toHaveProperty(code);
  });
});
