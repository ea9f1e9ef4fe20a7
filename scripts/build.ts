// The builds, with esbuild. `npm run build` writes dist/: the CLI the package ships (bin/edgeops.js runs it), one
// chunk per lazily imported command, the dependencies left to npm. `npm run build:action` writes action/dist/:
// the GitHub Action's committed bundle, self-contained (nothing to install), without the embedded service.
// Both swap src/manifest/schema/compile.ts for ajv's standalone code of every schema, so no run compiles one.
//   node --import tsx scripts/build.ts [cli|action]... [--outdir DIR]
import { existsSync, mkdirSync, readFileSync, renameSync, rmSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { pathToFileURL } from 'node:url';
import { build, type BuildOptions, type Plugin } from 'esbuild';
import standalone from 'ajv/dist/standalone/index.js';
import { _ } from 'ajv';
import { newAjv } from '../src/manifest/schema/compile.ts';
import { kindSchemas } from '../src/manifest/schema/kinds.ts';
import { projectSchema } from '../src/manifest/schema/project.ts';
import { PROJECT_KEY } from '../src/manifest/schema.ts';

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

const precompile: Plugin = {
  name: 'precompiled-validators',
  setup(b) {
    b.onLoad({ filter: /[/\\]src[/\\]manifest[/\\]schema[/\\]compile\.ts$/ }, () => ({
      contents: precompiledValidators(),
      loader: 'js',
      resolveDir: join(ROOT, 'src/manifest/schema'),
    }));
  },
};

// The Action runs plan, apply and drift against a service it is given; `serve` and `--local` need the
// embedded service and its native SQLite module, which the bundle leaves out (they fail with a clear message).
const withoutService: Plugin = {
  name: 'without-service',
  setup(b) {
    b.onResolve({ filter: /[/\\]service[/\\][\w-]+\.ts$/ }, (args) => (args.importer.includes(`${join('src', 'cli')}`) ? { path: args.path, namespace: 'no-service' } : undefined));
    b.onLoad({ filter: /.*/, namespace: 'no-service' }, () => ({
      contents: "throw new Error('the embedded service (serve, --local) is not part of the GitHub Action');",
      loader: 'js',
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

/**
 * dist/: the CLI, split so a command loads only its own code; dependencies come from node_modules. Written beside
 * and swapped in, so a CLI running from dist/ meanwhile (a test, while `npm pack` builds) never sees it half-made.
 */
export async function buildCli(outdir = CLI_OUT): Promise<void> {
  const fresh = `${outdir}.new-${process.pid}`;
  const old = `${outdir}.old-${process.pid}`;
  rmSync(fresh, { recursive: true, force: true });
  await build({
    ...common,
    entryPoints: { main: 'src/main.ts' },
    outdir: fresh,
    splitting: true,
    chunkNames: 'chunks/[name]-[hash]',
    packages: 'external',
    plugins: [precompile],
  });
  if (existsSync(outdir)) renameSync(outdir, old);
  renameSync(fresh, outdir);
  rmSync(old, { recursive: true, force: true });
}

/** action/dist/: the Action's entry and the CLI it runs, each one self-contained file. */
export async function buildAction(outdir = ACTION_OUT): Promise<void> {
  rmSync(outdir, { recursive: true, force: true });
  mkdirSync(outdir, { recursive: true });
  await build({
    ...common,
    entryPoints: { index: 'src/action/main.ts', edgeops: 'src/main.ts' },
    outdir,
    outExtension: { '.js': '.mjs' },
    define: { ...common.define, EDGEOPS_ACTION_BUNDLE: 'true' },
    plugins: [precompile, withoutService],
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
