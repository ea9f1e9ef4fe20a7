// The built CLI's first module (dist/main.cjs, which bin/edgeops.js requires): it runs the CLI's CommonJS chunks
// (dist/cli/) with the code V8 compiled for this command in an earlier run. It is CommonJS, as the bin is: on
// Node 20 an ES module entry loads Node's whole ES module loader first (about 7 ms, a twentieth of a `validate`).
import { dirname, join } from 'node:path';
import { firstOperand } from '../cli/first-operand.ts';
import { cacheRoot, CodeCache, commandCacheDir } from './code-cache.ts';

/** Identifies the build's chunks (a digest of them, written in by scripts/build.ts): a rebuild caches afresh. */
declare const EDGEOPS_BUILD_ID: string;
/** The CLI's entry chunk beside this file (`cli/main-HASH.cjs`), named by its content as every chunk is. */
declare const EDGEOPS_CLI_MAIN: string;

async function launch(): Promise<void> {
  const command = firstOperand(process.argv.slice(2));
  const main = join(__dirname, EDGEOPS_CLI_MAIN);
  const root = cacheRoot(process.env);
  const cache = new CodeCache(root && commandCacheDir(root, EDGEOPS_BUILD_ID, dirname(main), command), root);
  const cli = cache.require(main) as { main(): Promise<void> };
  await cli.main();
  // Only a run that did its work (0, or 2: changes found) leaves the code it compiled for the next.
  if (process.exitCode === undefined || [0, 2].includes(Number(process.exitCode))) cache.save();
}

// cli.main() reports every failure itself; what escapes it is a bug, and ends the process as an uncaught error.
void launch();
