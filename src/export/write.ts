// Writing an export to disk. The directory may be new, or hold an earlier export: the files an export writes
// are replaced, and those of kinds that have no resources any more are removed, so a re-export never leaves a
// stale document behind. Any other YAML file there would be planned together with the export, so it is refused.
import { mkdirSync, readdirSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { ConfigError } from '../errors.ts';
import { exportFileNames, PROJECT_FILE, type ExportResult } from './build.ts';

export function writeExport(dir: string, result: ExportResult): string[] {
  const own = new Set(exportFileNames());
  mkdirSync(dir, { recursive: true });
  const foreign = readdirSync(dir).filter((f) => /\.ya?ml$/i.test(f) && !own.has(f)).sort();
  if (foreign.length > 0) {
    throw new ConfigError(`${dir} holds YAML files an export does not write (${foreign.join(', ')}); plan would read them with the export. Choose an empty directory for --out.`);
  }
  const written: string[] = [];
  const wanted = new Map(result.files.map((f) => [f.file, f.text]));
  if (result.projectFile !== undefined) wanted.set(PROJECT_FILE, result.projectFile);
  for (const file of own) {
    const text = wanted.get(file);
    if (text === undefined) rmSync(join(dir, file), { force: true });
    else {
      writeFileSync(join(dir, file), text);
      written.push(file);
    }
  }
  return written.sort();
}
