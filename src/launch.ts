// The built CLI's first module (dist/main.js, which bin/edgeops.js imports): V8's flags for the command first,
// then the CLI's CommonJS chunks (dist/cli/) with the code V8 compiled for this command in an earlier run.
import { dirname } from 'node:path';
import { fileURLToPath } from 'node:url';
import { firstOperand, tuneForShortRun } from './cli/short-run.ts';
import { cacheRoot, CodeCache, commandCacheDir } from './launch/code-cache.ts';

/** Identifies the build's chunks (a digest of them, written in by scripts/build.ts): a rebuild caches afresh. */
declare const EDGEOPS_BUILD_ID: string;
/** The CLI's entry chunk beside this file (`cli/main-HASH.cjs`), named by its content as every chunk is. */
declare const EDGEOPS_CLI_MAIN: string;

const command = firstOperand(process.argv.slice(2));
tuneForShortRun(command);
const main = fileURLToPath(new URL(`./${EDGEOPS_CLI_MAIN}`, import.meta.url));
const root = cacheRoot(process.env);
const cache = new CodeCache(root && commandCacheDir(root, EDGEOPS_BUILD_ID, dirname(main), command), root);
const cli = cache.require(main) as { main(): Promise<void> };
await cli.main();
// Only a run that did its work (0, or 2: changes found) leaves the code it compiled for the next.
if (process.exitCode === undefined || [0, 2].includes(Number(process.exitCode))) cache.save();
