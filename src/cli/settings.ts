// The options every manifest command shares, as commander flags. Commander gets no defaults for these: how each
// value is resolved (flag > environment > edgeops.yaml > default) lives in src/operations/settings.ts, which the
// GitHub Action shares.
import { Command, Option } from 'commander';
import { DEFAULT_CONCURRENCY, DEFAULT_RETRY_BUDGET, DEFAULT_STACK, DEFAULT_TIMEOUT_SECONDS } from '../operations/settings.ts';

export * from '../operations/settings.ts';

export function addSharedOptions(cmd: Command): Command {
  return cmd
    .addOption(new Option('--api-url <url>', 'service URL [env EDGEOPS_API_URL, edgeops.yaml api_url]'))
    .addOption(new Option('--api-key <key>', 'service API key [env EDGEOPS_API_KEY]'))
    .addOption(new Option('--stack <name>', `stack whose resources this run manages [env EDGEOPS_STACK, edgeops.yaml stack, default "${DEFAULT_STACK}"]`))
    .addOption(new Option('--concurrency <n>', `actions run in parallel [env EDGEOPS_CONCURRENCY, edgeops.yaml concurrency, default ${DEFAULT_CONCURRENCY}]`))
    .addOption(new Option('--retry-budget <seconds>', `keep retrying this long while the service is unreachable (refused or reset connections, 502, 503), e.g. during a restart; 0 fails fast [env EDGEOPS_RETRY_BUDGET, edgeops.yaml retry_budget, default ${DEFAULT_RETRY_BUDGET}]`))
    .addOption(new Option('--timeout <seconds>', `seconds one request waits for the service's answer [env EDGEOPS_TIMEOUT, default ${DEFAULT_TIMEOUT_SECONDS}]`))
    .addOption(new Option('--local', 'use the embedded service on .edgeops/local.db next to the manifests'))
    .addOption(new Option('--no-color', 'no colour in the output (also NO_COLOR)'));
}

/** `--adopt` and `--no-adopt` for the commands that plan (plan, apply, drift); neither given: env, then file. */
export function addAdoptOptions(cmd: Command): Command {
  return cmd
    .addOption(new Option('--adopt', 'match resources without an ownership marker to documents by natural key and adopt them instead of creating copies [env EDGEOPS_ADOPT, edgeops.yaml adopt, default false]'))
    .addOption(new Option('--no-adopt', 'do not adopt, even if EDGEOPS_ADOPT or edgeops.yaml says so'));
}
