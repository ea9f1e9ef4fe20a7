// The built CLI's first module (dist/main.js, which bin/edgeops.js imports): V8's flags for the command first,
// then the CLI's CommonJS chunks (dist/cli/) with the code V8 compiled for this command in an earlier run.
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { firstOperand, tuneForShortRun } from './cli/short-run.ts';
import { cacheRoot, CodeCache } from './launch/code-cache.ts';

/** Identifies the build's chunks (a digest of them, written in by scripts/build.ts): a rebuild caches afresh. */
declare const EDGEOPS_BUILD_ID: string;

const command = firstOperand(process.argv.slice(2));
tuneForShortRun(command);
// A command's own cache; anything else a run may name (a typo, --help) shares one.
const key = command !== undefined && /^[a-z][a-z_-]{0,31}$/.test(command) ? command : '-';
const root = cacheRoot(process.env);
const cache = new CodeCache(root && join(root, `${EDGEOPS_BUILD_ID}-${process.version}-${process.arch}`, key), root);
const cli = cache.require(fileURLToPath(new URL('./cli/main.cjs', import.meta.url))) as { main(): Promise<void> };
await cli.main();
cache.save();
