// The service a run talks to, named by its settings (--api-url/--api-key, EDGEOPS_*, edgeops.yaml), and what its
// checksums are keyed with. The CLI (src/cli/connect.ts, which adds the embedded service of --local) and the
// GitHub Action connect through here; `say` takes the run's notices (an outage, a slow answer).
import { createApi, type ApiOptions } from '../client/http.ts';
import type { OutageEvent } from '../client/retry.ts';
import { ConfigError } from '../errors.ts';
import type { Api } from '../kinds/resource-kind.ts';
import type { KeyMaterial } from './saved-plans.ts';
import type { Settings } from './settings.ts';

/** The embedded service's only key. It guards nothing (the service listens on 127.0.0.1 for this run only). */
export const LOCAL_API_KEY = 'edgeops-local';

/** What a run keys its checksums and saved plans' secret fingerprints with: EDGEOPS_PLAN_KEY when set, else its API key. */
export function keyMaterial(settings: Settings, env: NodeJS.ProcessEnv): KeyMaterial | undefined {
  if (env.EDGEOPS_PLAN_KEY) return { source: 'plan-key', secret: env.EDGEOPS_PLAN_KEY };
  const apiKey = settings.local ? LOCAL_API_KEY : settings.apiKey;
  return apiKey ? { source: 'api-key', secret: apiKey } : undefined;
}

export interface Connection {
  api: Api;
  /** Where the run goes, for messages: the URL, or the local database file. */
  target: string;
  close(): Promise<void>;
}

/**
 * One line when the service becomes unreachable, and one when it answers again: once per outage. The first
 * says the budget as given (`--retry-budget 3`: 3 s), counted from the outage's first failure.
 */
function outageLine(e: OutageEvent): string {
  const cause = e.type === 'unreachable' ? (e.cause.status === 0 ? e.cause.errorCode : String(e.cause.status)) : '';
  return e.type === 'unreachable'
    ? `service unreachable (${cause}), retrying for up to ${Math.round(e.budgetMs / 1000)} s from the first failure (--retry-budget)\n`
    : `service reachable again after ${Math.max(1, Math.round(e.downMs / 1000))} s\n`;
}

/** How long the client rides out an outage of the service, and who hears about it (`say` gets whole lines). */
export const outageOptions = (settings: Settings, say: (text: string) => void): Pick<ApiOptions, 'retry' | 'onOutage'> =>
  ({ retry: { outageBudgetMs: settings.retryBudgetMs }, onOutage: (e) => say(outageLine(e)) });

/** The first slow-request notice of a run (the next ones would say the same). */
function once(say: (text: string) => void): (line: string) => void {
  let said = false;
  return (line) => {
    if (said) return;
    said = true;
    say(`edgeops: ${line}\n`);
  };
}

/** The service the settings name; a clear error when they name none, or give it no key. */
export function connectRemote(settings: Settings, say: (text: string) => void): Connection {
  if (!settings.apiUrl) {
    throw new ConfigError('no service URL: pass --api-url or set EDGEOPS_API_URL (or api_url in edgeops.yaml); or use --local for the embedded service');
  }
  if (!settings.apiKey && settings.apiKeyMissing) throw new ConfigError(settings.apiKeyMissing);
  if (!settings.apiKey) {
    throw new ConfigError('no API key: pass --api-key or set EDGEOPS_API_KEY; or use --local for the embedded service');
  }
  const api = createApi({
    url: settings.apiUrl, apiKey: settings.apiKey, concurrency: settings.concurrency, timeoutMs: settings.timeoutMs, onSlow: once(say),
    ...outageOptions(settings, say),
  });
  return { api, target: settings.apiUrl, close: () => api.close() };
}
