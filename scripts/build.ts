// The builds, with esbuild. `npm run build` writes dist/: the CLI the package ships (bin/edgeops.js runs it), one
// chunk per lazily imported command, the dependencies bundled but pg (see NPM_LOADED).
// `npm run build:action` writes action/dist/: the GitHub Action's committed bundle, self-contained (nothing to
// install), without the embedded service.
// Both swap src/manifest/schema/compile.ts and src/contract/body-compile.ts for ajv's standalone code of every
// manifest and contract body schema, so no run compiles one, and src/service/resource-modules.ts, which reads
// a directory, for static imports of the files it would find.
//   node --import tsx scripts/build.ts [cli|action]... [--outdir DIR]
import { createHash } from 'node:crypto';
import { existsSync, mkdirSync, readdirSync, readFileSync, renameSync, rmSync, writeFileSync } from 'node:fs';
import { dirname, join, relative, resolve, sep } from 'node:path';
import { pathToFileURL } from 'node:url';
import { build, transformSync, type BuildOptions, type Plugin } from 'esbuild';
import standalone from 'ajv/dist/standalone/index.js';
import { _ } from 'ajv';
import { newContractAjv } from '../src/contract/body-compile.ts';
import { contractBodies, type BodySchema } from '../src/contract/index.ts';
import { newAjv } from '../src/manifest/schema/compile.ts';
import { schemaFacts } from '../src/manifest/schema/facts.ts';
import { kindSchemas } from '../src/manifest/schema/kinds.ts';
import { projectSchema } from '../src/manifest/schema/project.ts';
import { PROJECT_KEY } from '../src/manifest/schema.ts';
import { policySchemas } from '../src/policy/schemas.ts';
import { resourceModuleNames } from '../src/service/resource-def.ts';

// The module is CommonJS with a `default` too; Node hands over module.exports, TypeScript sees the namespace.
const standaloneCode = standalone.default;

export const ROOT = resolve(import.meta.dirname, '..');
export const CLI_OUT = join(ROOT, 'dist');
export const ACTION_OUT = join(ROOT, 'action/dist');

const version = (JSON.parse(readFileSync(join(ROOT, 'package.json'), 'utf8')) as { version: string }).version;

/** schema/compile.ts as ajv's standalone code: each schema's validator by its key, compiled here once. */
export function precompiledValidators(): string {
  const ajv = newAjv({ code: { source: true, esm: true, formats: _`AJV_FORMATS` } });
  const keys: string[] = [];
  for (const [kind, schema] of kindSchemas()) {
    ajv.addSchema(schema, kind);
    keys.push(kind);
  }
  ajv.addSchema(projectSchema(), PROJECT_KEY);
  keys.push(PROJECT_KEY);
  for (const [kind, schema] of policySchemas()) {
    ajv.addSchema(schema, kind);
    keys.push(kind);
  }
  const refs = Object.fromEntries(keys.map((key) => [key, key]));
  return [
    "import { AJV_FORMATS } from './formats.ts';",
    standaloneCode(ajv, refs),
    `const VALIDATORS = { ${keys.map((key) => `${JSON.stringify(key)}: ${key}`).join(', ')} };`,
    'export function compileSchema(key) {',
    '  const validate = VALIDATORS[key];',
    '  if (!validate) throw new Error(`no precompiled validator for ${key}`);',
    '  return validate;',
    '}',
    '',
  ].join('\n');
}

/** schema/facts.ts with every kind's facts written out: the built CLI reads them, and never builds a schema. */
export function precomputedSchemaFacts(): string {
  const facts = Object.fromEntries([...kindSchemas()].map(([kind, schema]) => [kind, schemaFacts(schema)]));
  return [
    `const FACTS = ${JSON.stringify(facts)};`,
    'export function kindFacts(kind) {',
    '  return Object.hasOwn(FACTS, kind) ? FACTS[kind] : undefined;',
    '}',
    '',
  ].join('\n');
}

/**
 * body-compile.ts as ajv's standalone code: the validator of each contract body schema, found by the schema
 * object itself (contractBodies lists the same objects when the bundle loads). A schema shared by two bodies
 * is compiled once.
 */
export function precompiledBodyValidators(): string {
  const ajv = newContractAjv({ code: { source: true, esm: true } });
  const names = new Map<BodySchema, string>();
  for (const [, schema] of contractBodies()) {
    if (names.has(schema)) continue;
    const name = `body${names.size}`;
    ajv.addSchema(schema, name);
    names.set(schema, name);
  }
  const refs = Object.fromEntries([...names.values()].map((name) => [name, name]));
  return [
    "import { CONTRACT_KEYWORD_FNS } from './keyword-checks.ts';",
    "import { contractBodies } from './index.ts';",
    standaloneCode(ajv, refs),
    `const VALIDATORS = [${[...names.values()].join(', ')}];`,
    'const BY_SCHEMA = new Map();',
    'for (const [, schema] of contractBodies()) if (!BY_SCHEMA.has(schema)) BY_SCHEMA.set(schema, VALIDATORS[BY_SCHEMA.size]);',
    'export function compileBody(schema) {',
    '  const validate = BY_SCHEMA.get(schema);',
    "  if (!validate) throw new Error('no precompiled validator for this body schema');",
    '  return validate;',
    '}',
    '',
  ].join('\n');
}

/** service/resource-modules.ts as static imports of the files it finds in service/resources/ when it runs. */
export function staticResourceModules(): string {
  const names = resourceModuleNames(readdirSync(join(ROOT, 'src/service/resources')));
  return [
    ...names.map((name, i) => `import m${i} from './resources/${name}.ts';`),
    `export const RESOURCE_MODULES = [${names.map((_, i) => `m${i}`).join(', ')}];`,
    '',
  ].join('\n');
}

/**
 * Generated code with its local names shortened: ajv's validators are most of the bytes a command that reads
 * manifests loads, and their long local names most of theirs. No stack trace names a validator's locals.
 */
function minified(code: string): string {
  return transformSync(code, { loader: 'js', format: 'esm', minify: true }).code;
}

export const precompile: Plugin = {
  name: 'precompiled-validators',
  setup(b) {
    b.onLoad({ filter: /[/\\]src[/\\]manifest[/\\]schema[/\\]compile\.ts$/ }, () => ({
      contents: minified(precompiledValidators()),
      loader: 'js',
      resolveDir: join(ROOT, 'src/manifest/schema'),
    }));
    b.onLoad({ filter: /[/\\]src[/\\]manifest[/\\]schema[/\\]facts\.ts$/ }, () => ({
      contents: precomputedSchemaFacts(),
      loader: 'js',
      resolveDir: join(ROOT, 'src/manifest/schema'),
    }));
    b.onLoad({ filter: /[/\\]src[/\\]contract[/\\]body-compile\.ts$/ }, () => ({
      contents: minified(precompiledBodyValidators()),
      loader: 'js',
      resolveDir: join(ROOT, 'src/contract'),
    }));
    b.onLoad({ filter: /[/\\]src[/\\]service[/\\]resource-modules\.ts$/ }, () => ({
      contents: staticResourceModules(),
      loader: 'js',
      resolveDir: join(ROOT, 'src/service'),
    }));
  },
};

// Bundled CommonJS dependencies call require(); an ES module has none unless it makes one.
const REQUIRE_BANNER = "import { createRequire as __edgeopsRequire } from 'node:module'; const require = __edgeopsRequire(import.meta.url);";

const common: BuildOptions = {
  absWorkingDir: ROOT,
  bundle: true,
  platform: 'node',
  target: 'node20',
  format: 'esm',
  banner: { js: REQUIRE_BANNER },
  define: { EDGEOPS_BUILD_VERSION: JSON.stringify(version) },
  external: ['better-sqlite3'],
  legalComments: 'eof',
  logLevel: 'warning',
};

// The dependencies the CLI leaves to npm: pg, which only a service on PostgreSQL loads. The rest are bundled:
// Node resolving and reading their many small CommonJS files (yaml's ~80 on every run that reads a manifest,
// undici's ~40 on every run that talks to the service) costs more than running them.
const NPM_LOADED = ['pg'];
const npmLoaded = NPM_LOADED.flatMap((name) => [name, `${name}/*`]);

/**
 * A chunk of the ES module build as CommonJS, for src/launch/code-cache.ts to compile with vm.Script (which
 * caches a script's code, unlike a module's): imports become require() calls, dynamic ones too, and
 * import.meta.url the chunk's own URL. The build's part of the compiled-code cache (design: Start-up).
 */
function asCommonJs(code: string): string {
  const meta = code.includes('import.meta') ? 'var __edgeopsImportMetaUrl=require("node:url").pathToFileURL(__filename).href;' : '';
  return transformSync(code, {
    loader: 'js',
    format: 'cjs',
    target: 'node20',
    supported: { 'dynamic-import': false },
    define: { 'import.meta.url': '__edgeopsImportMetaUrl' },
    banner: meta,
    minifyWhitespace: true,
    logLevel: 'error',
  }).code;
}

/**
 * dist/: the CLI, split so a command loads only its own code; dependencies come from node_modules. dist/main.cjs
 * (src/launch/launcher.ts) starts it: the CLI itself is CommonJS chunks under dist/cli/, whose compiled code a run keeps
 * for the next (src/launch/code-cache.ts). Written beside and swapped in, so a CLI running from dist/ meanwhile
 * (a test, while `npm pack` builds) never sees it half-made.
 */
export async function buildCli(outdir = CLI_OUT): Promise<void> {
  const fresh = `${outdir}.new-${process.pid}`;
  const old = `${outdir}.old-${process.pid}`;
  rmSync(fresh, { recursive: true, force: true });
  const cli = await build({
    ...common,
    banner: {},
    entryPoints: { main: 'src/cli/main.ts' },
    outdir: join(fresh, 'cli'),
    outExtension: { '.js': '.cjs' },
    splitting: true,
    // Every file is named by its content, the entry too: the cache of a file's compiled code is named after
    // it, and V8 checks no more of the source than its length.
    entryNames: '[name]-[hash]',
    chunkNames: 'chunks/[name]-[hash]',
    write: false,
    metafile: true,
    // V8 reads every byte of a module it loads, and a run without cached code compiles what it calls: without
    // whitespace and with shorter syntax (names kept, so stack traces still name functions) a command starts
    // faster. The action's committed bundle stays readable, but for its generated validators.
    minifyWhitespace: true,
    minifySyntax: true,
    external: [...common.external!, ...npmLoaded],
    plugins: [precompile],
  });
  const digest = createHash('sha256');
  for (const file of cli.outputFiles) {
    const code = file.path.endsWith('.cjs') ? asCommonJs(file.text) : file.text;
    mkdirSync(dirname(file.path), { recursive: true });
    writeFileSync(file.path, code);
    digest.update(file.path.slice(fresh.length)).update(code);
  }
  const entry = Object.entries(cli.metafile.outputs).find(([, output]) => output.entryPoint === 'src/cli/main.ts')![0];
  await build({
    ...common,
    // CommonJS, as the bin that requires it (src/launch/launcher.ts says why).
    format: 'cjs',
    banner: {},
    entryPoints: { main: 'src/launch/launcher.ts' },
    outdir: fresh,
    outExtension: { '.js': '.cjs' },
    define: {
      ...common.define,
      EDGEOPS_BUILD_ID: JSON.stringify(digest.digest('hex').slice(0, 16)),
      EDGEOPS_CLI_MAIN: JSON.stringify(relative(fresh, resolve(ROOT, entry)).split(sep).join('/')),
    },
    minifyWhitespace: true,
  });
  if (existsSync(outdir)) renameSync(outdir, old);
  try {
    renameSync(fresh, outdir);
  } catch (err) {
    // Another build (bin/edgeops.js rebuilding a stale checkout's dist/, `npm pack`) swapped its own in between.
    const code = (err as { code?: unknown }).code;
    if (code !== 'ENOTEMPTY' && code !== 'EEXIST') throw err;
    renameSync(outdir, `${old}-2`);
    renameSync(fresh, outdir);
    rmSync(`${old}-2`, { recursive: true, force: true });
  }
  rmSync(old, { recursive: true, force: true });
}

/**
 * action/dist/: the Action, one self-contained file. It runs the operations in its own process and never
 * reaches the embedded service (only src/cli imports it, lazily), so neither it nor SQLite is in the bundle.
 */
export async function buildAction(outdir = ACTION_OUT): Promise<void> {
  rmSync(outdir, { recursive: true, force: true });
  mkdirSync(outdir, { recursive: true });
  await build({
    ...common,
    entryPoints: { index: 'src/action/main.ts' },
    outdir,
    outExtension: { '.js': '.mjs' },
    plugins: [precompile],
  });
}

if (process.argv[1] && import.meta.url === pathToFileURL(process.argv[1]).href) {
  const args = process.argv.slice(2);
  const at = args.indexOf('--outdir');
  const outdir = at >= 0 ? resolve(args.splice(at, 2)[1]!) : undefined;
  const targets = args.length > 0 ? args : ['cli'];
  for (const target of targets) {
    if (target === 'cli') await buildCli(outdir);
    else if (target === 'action') await buildAction(outdir);
    else throw new Error(`unknown build target ${target}: cli or action`);
  }
}
