// The line over a run's output that names where it goes, for a stack that is an environment: a reviewer of
// `stack edge-prod (environment prod) at https://api.example.com` cannot mistake production for staging.
import { readProjectConfig } from '../manifest/discover.ts';
import type { Settings } from './settings.ts';

/** `stack S (environment E) at URL`, or undefined for a stack without an environment label. */
export function stackHeading(paths: string[], settings: Settings, cwd = process.cwd()): string | undefined {
  const environment = readProjectConfig(paths, cwd).config.environment;
  if (!environment) return undefined;
  const at = settings.local ? 'the embedded service (--local)' : settings.apiUrl ?? 'no service URL';
  return `stack ${settings.stack} (environment ${environment}) at ${at}`;
}
