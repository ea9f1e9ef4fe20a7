// edgeops' version, for --version and saved plans. The build writes it into the bundle (scripts/build.ts), so
// the built CLI and the Action's bundle read no package.json; the sources read the one beside them.
import { readFileSync } from 'node:fs';

declare const EDGEOPS_BUILD_VERSION: string | undefined;

let cached: string | undefined;

export function edgeopsVersion(): string {
  if (typeof EDGEOPS_BUILD_VERSION === 'string') return EDGEOPS_BUILD_VERSION;
  cached ??= (JSON.parse(readFileSync(new URL('../package.json', import.meta.url), 'utf8')) as { version: string }).version;
  return cached;
}
