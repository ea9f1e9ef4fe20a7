// The options every manifest command shares, and how each value is resolved: flag > environment >
// edgeops.yaml > default. Commander gets no defaults for these, so "not given" stays distinguishable from
// "given as the default" and the file can sit between the environment and the default.
import { Command, Option } from 'commander';
import { ConfigError } from '../errors.ts';
import type { ProjectConfig } from '../manifest/document.ts';
import { NAME_PATTERN } from '../manifest/schema-parts.ts';

export const DEFAULT_STACK = 'default';
export const DEFAULT_CONCURRENCY = 8;

/** The raw values commander parsed for the shared options. */
export interface SharedFlags {
  apiUrl?: string;
  apiKey?: string;
  stack?: string;
  concurrency?: string;
  local?: boolean;
  color: boolean;
}

export interface Settings {
  stack: string;
  concurrency: number;
  local: boolean;
  /** Unset when neither flag, environment nor file gives one; required only when not --local. */
  apiUrl?: string;
  apiKey?: string;
  color: boolean;
}

export function addSharedOptions(cmd: Command): Command {
  return cmd
    .addOption(new Option('--api-url <url>', 'service URL [env EDGEOPS_API_URL, edgeops.yaml api_url]'))
    .addOption(new Option('--api-key <key>', 'service API key [env EDGEOPS_API_KEY]'))
    .addOption(new Option('--stack <name>', `stack whose resources this run manages [env EDGEOPS_STACK, edgeops.yaml stack, default "${DEFAULT_STACK}"]`))
    .addOption(new Option('--concurrency <n>', `actions run in parallel [env EDGEOPS_CONCURRENCY, edgeops.yaml concurrency, default ${DEFAULT_CONCURRENCY}]`))
    .addOption(new Option('--local', 'use the embedded service on .edgeops/local.db next to the manifests'))
    .addOption(new Option('--no-color', 'no colour in the output (also NO_COLOR)'));
}

interface Source<T> {
  value: T;
  from: string;
}

function pick<T>(...candidates: [T | undefined, string][]): Source<T> | undefined {
  for (const [value, from] of candidates) if (value !== undefined && value !== '') return { value, from };
  return undefined;
}

/** An integer option from a flag, the environment or the file; `from` names where it came from. */
export function integerSetting(value: string | number, from: string, what: string, min: number, max: number): number {
  const n = typeof value === 'number' ? value : /^\d+$/.test(value) ? Number(value) : NaN;
  if (!Number.isInteger(n) || n < min || n > max) {
    throw new ConfigError(`${from}: ${what} must be an integer from ${min} to ${max}, got ${JSON.stringify(value)}`);
  }
  return n;
}

function parseConcurrency(source: Source<string | number> | undefined): number {
  return source ? integerSetting(source.value, source.from, 'concurrency', 1, 256) : DEFAULT_CONCURRENCY;
}

function parseStack(source: Source<string> | undefined): string {
  if (!source) return DEFAULT_STACK;
  // The same rule as edgeops.yaml's `stack` (and resource names): the stack is written into every marker.
  if (!new RegExp(NAME_PATTERN).test(source.value)) {
    throw new ConfigError(`${source.from}: stack must be lower-case letters, digits and "-", at most 64 characters, got ${JSON.stringify(source.value)}`);
  }
  return source.value;
}

function parseUrl(source: Source<string> | undefined): string | undefined {
  if (!source) return undefined;
  let url: URL;
  try {
    url = new URL(source.value);
  } catch {
    throw new ConfigError(`${source.from}: not a URL: ${JSON.stringify(source.value)}`);
  }
  if (url.protocol !== 'http:' && url.protocol !== 'https:') {
    throw new ConfigError(`${source.from}: the API URL must be http or https, got ${JSON.stringify(source.value)}`);
  }
  return source.value.replace(/\/+$/, '');
}

/** Whether colour is on: not --no-color, NO_COLOR unset or empty (no-color.org), and the output is a terminal. */
export function colorEnabled(flag: boolean, env: NodeJS.ProcessEnv, isTTY: boolean): boolean {
  return flag && isTTY && !env.NO_COLOR;
}

export function resolveSettings(flags: SharedFlags, env: NodeJS.ProcessEnv, config: ProjectConfig, stdoutIsTTY: boolean): Settings {
  const file = config.file ?? 'edgeops.yaml';
  if (flags.local && (flags.apiUrl !== undefined || flags.apiKey !== undefined)) {
    throw new ConfigError('--local runs the embedded service: it cannot be combined with --api-url or --api-key');
  }
  const local = flags.local === true;
  return {
    stack: parseStack(pick([flags.stack, '--stack'], [env.EDGEOPS_STACK, 'EDGEOPS_STACK'], [config.stack, `${file}: stack`])),
    concurrency: parseConcurrency(pick<string | number>(
      [flags.concurrency, '--concurrency'],
      [env.EDGEOPS_CONCURRENCY, 'EDGEOPS_CONCURRENCY'],
      [config.concurrency, `${file}: concurrency`],
    )),
    local,
    // With --local the environment's and the file's service are ignored: the run is against the embedded one.
    apiUrl: local ? undefined : parseUrl(pick([flags.apiUrl, '--api-url'], [env.EDGEOPS_API_URL, 'EDGEOPS_API_URL'], [config.api_url, `${file}: api_url`])),
    apiKey: local ? undefined : pick([flags.apiKey, '--api-key'], [env.EDGEOPS_API_KEY, 'EDGEOPS_API_KEY'])?.value,
    color: colorEnabled(flags.color, env, stdoutIsTTY),
  };
}
