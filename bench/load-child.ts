// One cold read of a directory of manifests, in a fresh process: `yaml` = the files read by yaml's document
// API (the loader before the common-subset reader, still its reader for everything outside the subset),
// `common` = the files read as the loader reads them now. Prints {"ms","docs"} for the reading alone (imports
// done before the clock starts).
import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { parseText, parseYamlText } from '../src/manifest/parse.ts';

const [mode, dir] = process.argv.slice(2);
const read = mode === 'yaml' ? parseYamlText : parseText;
const started = performance.now();
let docs = 0;
for (const name of readdirSync(dir!).sort()) {
  const parsed = read(readFileSync(join(dir!, name), 'utf8'), name);
  if (parsed.issues.length) throw new Error(`${name}: ${parsed.issues[0]!.message}`);
  docs += parsed.docs.length;
}
process.stdout.write(`${JSON.stringify({ ms: performance.now() - started, docs })}\n`);
