// The settings of a run, and how each value is resolved: flag > environment > edgeops.yaml > default (stack,
// api_url, concurrency, adopt, retry_budget). Given flags stay undefined when absent, so "not given" stays
// distinguishable from "given as the default" and the file can sit between the environment and the default.
// The CLI (src/cli/settings.ts declares the flags) and the GitHub Action resolve their runs' settings here.
import { ConfigError } from '../errors.ts';
import type { ProjectConfig } from '../manifest/document.ts';
import { NAME_PATTERN } from '../manifest/schema/parts.ts';

export const DEFAULT_STACK = 'default';
// Every kind's list (ten endpoints) has its first page in flight at once.
export const DEFAULT_CONCURRENCY = 10;
/** Seconds a run rides out the service being unreachable (a restart) before failing. */
export const DEFAULT_RETRY_BUDGET = 60;
export const DEFAULT_TIMEOUT_SECONDS = 30;

/** The raw values of the shared options (commander parses them for the CLI; the Action builds them from its inputs). */
export interface SharedFlags {
  apiUrl?: string;
  apiKey?: string;
  stack?: string;
  concurrency?: string;
  retryBudget?: string;
  timeout?: string;
  local?: boolean;
  color: boolean;
  /** `--adopt` / `--no-adopt`, on the commands that plan (adoptOptions). */
  adopt?: boolean;
}

export interface Settings {
  stack: string;
  concurrency: number;
  /** How long an outage of the service is retried, in ms (0: refused connections fail after the usual retries). */
  retryBudgetMs: number;
  /** How long one request waits for the service's answer. */
  timeoutMs: number;
  local: boolean;
  /** Unset when neither flag, environment nor file gives one; required only when not --local. */
  apiUrl?: string;
  apiKey?: string;
  /**
   * Why there is no API key, when the stack's edgeops.yaml names the one variable to read it from
   * (`api_key_env`) and it is unset: connecting refuses with this, before any request.
   */
  apiKeyMissing?: string;
  color: boolean;
  /** Adopt unmanaged live resources that match a document by natural key, instead of planning copies. */
  adopt: boolean;
}

interface Source<T> {
  value: T;
  from: string;
}

function pick<T>(...candidates: [T | undefined, string][]): Source<T> | undefined {
  for (const [value, from] of candidates) if (value !== undefined && value !== '') return { value, from };
  return undefined;
}

/** Values this long are not echoed in errors: a mistyped command line may have put an API key in any option. */
const ECHO_MAX = 15;

/** A bad value for an error message: quoted when short, else only its length (it may be a secret). */
export function shownValue(value: string | number): string {
  const text = String(value);
  return text.length <= ECHO_MAX ? JSON.stringify(value) : `a value of ${text.length} characters (not shown: it may be a secret)`;
}

/** An integer option from a flag, the environment or the file; `from` names where it came from. */
export function integerSetting(value: string | number, from: string, what: string, min: number, max: number): number {
  const n = typeof value === 'number' ? value : /^\d+$/.test(value) ? Number(value) : NaN;
  if (!Number.isInteger(n) || n < min || n > max) {
    throw new ConfigError(`${from}: ${what} must be an integer from ${min} to ${max}, got ${shownValue(value)}`);
  }
  return n;
}

function parseConcurrency(source: Source<string | number> | undefined): number {
  return source ? integerSetting(source.value, source.from, 'concurrency', 1, 256) : DEFAULT_CONCURRENCY;
}

function parseTimeout(source: Source<string> | undefined): number {
  if (!source) return DEFAULT_TIMEOUT_SECONDS * 1000;
  const seconds = /^\d+(\.\d+)?$/.test(source.value.trim()) ? Number(source.value) : NaN;
  if (!(seconds > 0 && seconds <= 3600)) {
    throw new ConfigError(`${source.from}: timeout must be a number of seconds above 0 and at most 3600, got ${shownValue(source.value)}`);
  }
  return Math.round(seconds * 1000);
}

function parseStack(source: Source<string> | undefined): string {
  if (!source) return DEFAULT_STACK;
  // The same rule as edgeops.yaml's `stack` (and resource names): the stack is written into every marker.
  if (!new RegExp(NAME_PATTERN).test(source.value)) {
    throw new ConfigError(`${source.from}: stack must be lower-case letters, digits and "-", at most 64 characters, got ${shownValue(source.value)}`);
  }
  return source.value;
}

function parseUrl(source: Source<string> | undefined): string | undefined {
  if (!source) return undefined;
  // Something written as a URL is echoed (a typo is easiest to see), unless it holds credentials (`user:key@`);
  // anything else may be a key given to the wrong option, and is not.
  const looksLikeUrl = /^[a-z][a-z0-9+.-]*:\/\//i.test(source.value) && !source.value.includes('@');
  const shown = looksLikeUrl ? JSON.stringify(source.value) : shownValue(source.value);
  let url: URL;
  try {
    url = new URL(source.value);
  } catch {
    throw new ConfigError(`${source.from}: not a URL: ${shown}`);
  }
  if (url.protocol !== 'http:' && url.protocol !== 'https:') {
    throw new ConfigError(`${source.from}: the API URL must be http or https, got ${shown}`);
  }
  return source.value.replace(/\/+$/, '');
}

/**
 * A key with whitespace or a control character in it (a trailing newline from a secrets file, most often)
 * cannot go into an Authorization header; said here, without the key, before any request is attempted.
 */
function parseApiKey(source: Source<string> | undefined): string | undefined {
  if (!source) return undefined;
  if (!/^[\x21-\x7e]+$/.test(source.value)) {
    throw new ConfigError(`${source.from}: the API key has whitespace, a control character or a non-ASCII character in it (a trailing newline?); the key is not shown`);
  }
  return source.value;
}

function parseAdopt(source: Source<string | boolean> | undefined): boolean {
  if (!source) return false;
  if (typeof source.value === 'boolean') return source.value;
  const value = source.value.trim().toLowerCase();
  if (value === 'true' || value === '1') return true;
  if (value === 'false' || value === '0') return false;
  throw new ConfigError(`${source.from}: must be true or false, got ${shownValue(source.value)}`);
}

function pickRetryBudget(flags: SharedFlags, env: NodeJS.ProcessEnv, config: ProjectConfig, file: string): number {
  const source = pick<string | number>([flags.retryBudget, '--retry-budget'], [env.EDGEOPS_RETRY_BUDGET, 'EDGEOPS_RETRY_BUDGET'], [config.retry_budget, `${file}: retry_budget`]);
  return source ? integerSetting(source.value, source.from, 'retry budget (seconds)', 0, 3600) : DEFAULT_RETRY_BUDGET;
}

/** Whether colour is on: not --no-color, NO_COLOR unset or empty (no-color.org), and the output is a terminal. */
export function colorEnabled(flag: boolean, env: NodeJS.ProcessEnv, isTTY: boolean): boolean {
  return flag && isTTY && !env.NO_COLOR;
}

/**
 * The stack a run manages: --stack > EDGEOPS_STACK > edgeops.yaml's stack > "default". Exported for the
 * GitHub Action, which must name the stack of a run that failed before it could say.
 */
export function resolveStack(flag: string | undefined, env: NodeJS.ProcessEnv, config: ProjectConfig): string {
  const file = config.file ?? 'edgeops.yaml';
  return parseStack(pick([flag, '--stack'], [env.EDGEOPS_STACK, 'EDGEOPS_STACK'], [config.stack, `${file}: stack`]));
}

/**
 * The API key: --api-key, else the variable the stack's edgeops.yaml names (`api_key_env`) and only it, else
 * EDGEOPS_API_KEY. A stack that names its variable never takes another environment's key from EDGEOPS_API_KEY.
 */
function apiKeySettings(flags: SharedFlags, env: NodeJS.ProcessEnv, config: ProjectConfig, file: string): Pick<Settings, 'apiKey' | 'apiKeyMissing'> {
  const name = config.api_key_env;
  if (!name) return { apiKey: parseApiKey(pick([flags.apiKey, '--api-key'], [env.EDGEOPS_API_KEY, 'EDGEOPS_API_KEY'])) };
  const apiKey = parseApiKey(pick([flags.apiKey, '--api-key'], [env[name], name]));
  if (apiKey) return { apiKey };
  const other = env.EDGEOPS_API_KEY ? ` (EDGEOPS_API_KEY is set, but a stack with api_key_env never reads it)` : '';
  return { apiKeyMissing: `no API key: ${file} says api_key_env: ${name}, so this stack's key is read from ${name} only, and it is not set${other}; set ${name} or pass --api-key` };
}

export function resolveSettings(flags: SharedFlags, env: NodeJS.ProcessEnv, config: ProjectConfig, stdoutIsTTY: boolean): Settings {
  const file = config.file ?? 'edgeops.yaml';
  if (flags.local && (flags.apiUrl !== undefined || flags.apiKey !== undefined)) {
    throw new ConfigError('--local runs the embedded service: it cannot be combined with --api-url or --api-key');
  }
  const local = flags.local === true;
  return {
    stack: resolveStack(flags.stack, env, config),
    concurrency: parseConcurrency(pick<string | number>(
      [flags.concurrency, '--concurrency'],
      [env.EDGEOPS_CONCURRENCY, 'EDGEOPS_CONCURRENCY'],
      [config.concurrency, `${file}: concurrency`],
    )),
    retryBudgetMs: 1000 * (pickRetryBudget(flags, env, config, file)),
    timeoutMs: parseTimeout(pick([flags.timeout, '--timeout'], [env.EDGEOPS_TIMEOUT, 'EDGEOPS_TIMEOUT'])),
    local,
    // With --local the environment's and the file's service are ignored: the run is against the embedded one.
    apiUrl: local ? undefined : parseUrl(pick([flags.apiUrl, '--api-url'], [env.EDGEOPS_API_URL, 'EDGEOPS_API_URL'], [config.api_url, `${file}: api_url`])),
    ...(local ? {} : apiKeySettings(flags, env, config, file)),
    color: colorEnabled(flags.color, env, stdoutIsTTY),
    adopt: parseAdopt(pick<string | boolean>([flags.adopt, flags.adopt ? '--adopt' : '--no-adopt'], [env.EDGEOPS_ADOPT, 'EDGEOPS_ADOPT'], [config.adopt, `${file}: adopt`])),
  };
}
