// The line over a run's output that names where it goes, for a stack that is an environment: a reviewer of
// `stack edge-prod (environment prod) at https://api.example.com` cannot mistake production for staging.
import { statSync } from 'node:fs';
import { dirname, resolve } from 'node:path';
import { nearestProjectFiles } from '../manifest/discover.ts';
import { parseFile } from '../manifest/parse.ts';
import type { Settings } from './settings.ts';

/** The environment label of the edgeops.yaml the first path uses (its own file only: no manifest is walked). */
function environmentOf(path: string, cwd: string): string | undefined {
  const abs = resolve(cwd, path);
  const file = nearestProjectFiles(statSync(abs, { throwIfNoEntry: false })?.isDirectory() ? abs : dirname(abs))[0];
  const label = file ? parseFile({ abs: file, rel: file }).docs[0]?.value.environment : undefined;
  return typeof label === 'string' ? label : undefined;
}

/** `stack S (environment E) at URL` (`against FILE` for a snapshot), or undefined for a stack without an environment label. */
export function stackHeading(paths: string[], settings: Settings, against?: string, cwd = process.cwd()): string | undefined {
  const environment = paths[0] === undefined ? undefined : environmentOf(paths[0], cwd);
  if (!environment) return undefined;
  const at = against !== undefined ? `against ${against}` : `at ${settings.local ? 'the embedded service (--local)' : settings.apiUrl ?? 'no service URL'}`;
  return `stack ${settings.stack} (environment ${environment}) ${at}`;
}
