// The action's inputs and the GitHub event it runs for. The runner passes every input of a JavaScript action as
// `INPUT_<NAME>` (upper case, `-` kept); the `_` spelling is accepted too, for hand-written environments.
import { readFileSync } from 'node:fs';
import { EdgeopsError } from '../errors.ts';

export type ActionCommand = 'plan' | 'apply' | 'drift';
const COMMANDS: readonly ActionCommand[] = ['plan', 'apply', 'drift'];

/** A bad input or a missing part of the runner's environment. */
export class ActionInputError extends EdgeopsError {
  constructor(message: string) {
    super('E_ACTION_INPUT', message);
  }
}

export interface ActionInputs {
  command: ActionCommand;
  /** True when the command came from the event, not from the `command` input. */
  derived: boolean;
  paths: string[];
  apiUrl?: string;
  apiKey?: string;
  stack?: string;
  comment: boolean;
  failOnDrift: boolean;
  githubToken?: string;
  workingDirectory?: string;
  /** A snapshot file (`edgeops export --snapshot`) to plan against instead of the service: no API key needed. */
  against?: string;
  /** Pass --adopt: adopt unmanaged resources matching a document (false leaves it to edgeops.yaml's `adopt`). */
  adopt: boolean;
  /** apply: pass --allow-deletes, so a plan over max_deletes (or a per-kind limit) is applied. */
  allowDeletes: boolean;
  /** apply: what to do when the plan is not the reviewed one (or there is no reviewed plan). */
  onStale: OnStale;
  /** apply: the checksum to apply (workflow_dispatch), instead of the one reviewed on the pull request. */
  checksum?: string;
  /** What a comment that could not be written does to the job. */
  commentFailure: 'fail' | 'warn';
  /** drift: keep one GitHub issue per stack open while it drifts. */
  driftIssue: boolean;
  driftIssueLabels: string[];
  /** A path of several stacks, on a pull request: plan the stacks whose inputs changed, or all of them. */
  stacks: 'changed' | 'all';
}

type OnStale = 'fail' | 'replan';

export interface GitHubContext {
  eventName: string;
  event: Record<string, unknown>;
  /** `owner/repo`. */
  repository: string;
  ref: string;
  sha: string;
  apiUrl: string;
  /** A link to this run, for "the full plan is in the job summary". */
  runUrl?: string;
  /** The pull request number on pull_request and pull_request_target events. */
  pullNumber?: number;
  /** The commit the plan is for: the pull request's head, else GITHUB_SHA. */
  headSha: string;
  /** Who opened the pull request: their own approval never counts for a policy exception. */
  pullAuthor?: string;
}

type Env = NodeJS.ProcessEnv;

/** The input as given, or undefined when the environment does not carry it at all. */
function givenInput(env: Env, name: string): string | undefined {
  const upper = name.toUpperCase();
  return env[`INPUT_${upper.replace(/-/g, '_')}`] ?? env[`INPUT_${upper}`];
}

export function readInput(env: Env, name: string): string {
  return (givenInput(env, name) ?? '').trim();
}

/** The YAML 1.2 core booleans, as the toolkit's getBooleanInput accepts them; anything else is a mistake. */
function readBoolean(env: Env, name: string, fallback: boolean): boolean {
  const raw = readInput(env, name);
  if (raw === '') return fallback;
  if (['true', 'True', 'TRUE'].includes(raw)) return true;
  if (['false', 'False', 'FALSE'].includes(raw)) return false;
  throw new ActionInputError(`input ${name} must be true or false, got ${JSON.stringify(raw)}`);
}

function readChoice<T extends string>(env: Env, name: string, choices: readonly T[]): T {
  const raw = readInput(env, name);
  if (raw === '') return choices[0]!;
  if ((choices as readonly string[]).includes(raw)) return raw as T;
  throw new ActionInputError(`input ${name} must be one of ${choices.join(', ')}, got ${JSON.stringify(raw)}`);
}

const DEFAULT_DRIFT_LABEL = 'edgeops-drift';

/** Comma or line separated; the input left out means the default label, an empty one means no label. */
function readLabels(env: Env): string[] {
  const given = givenInput(env, 'drift-issue-labels');
  if (given === undefined) return [DEFAULT_DRIFT_LABEL];
  return given.split(/[,\n]/).map((l) => l.trim()).filter((l) => l !== '');
}

/** A plan checksum as `edgeops plan` prints it. */
const CHECKSUM = /^sha256:[0-9a-f]{64}$/;

const optional = (value: string): string | undefined => (value === '' ? undefined : value);

export function asRecord(value: unknown): Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value) ? (value as Record<string, unknown>) : {};
}

/**
 * pull_request -> plan; push to the default branch -> apply (any other branch -> plan); schedule -> drift;
 * workflow_dispatch with a checksum -> apply (exactly that plan).
 */
function deriveCommand(eventName: string, ref: string, event: Record<string, unknown>, checksum?: string): ActionCommand {
  if (eventName === 'schedule') return 'drift';
  if (eventName === 'workflow_dispatch' && checksum) return 'apply';
  if (eventName === 'push') {
    const defaultBranch = asRecord(event.repository).default_branch;
    return typeof defaultBranch === 'string' && ref === `refs/heads/${defaultBranch}` ? 'apply' : 'plan';
  }
  return 'plan';
}

export function readGitHubContext(env: Env): GitHubContext {
  const eventName = env.GITHUB_EVENT_NAME ?? '';
  let event: Record<string, unknown> = {};
  if (env.GITHUB_EVENT_PATH) {
    try {
      event = asRecord(JSON.parse(readFileSync(env.GITHUB_EVENT_PATH, 'utf8')));
    } catch (err) {
      throw new ActionInputError(`cannot read the event payload ${env.GITHUB_EVENT_PATH}: ${(err as Error).message}`);
    }
  }
  const pr = asRecord(event.pull_request);
  const isPullRequest = eventName === 'pull_request' || eventName === 'pull_request_target';
  const number = isPullRequest ? pr.number ?? event.number : undefined;
  const headSha = asRecord(pr.head).sha;
  const server = env.GITHUB_SERVER_URL ?? 'https://github.com';
  const repository = env.GITHUB_REPOSITORY ?? '';
  return {
    eventName,
    event,
    repository,
    ref: env.GITHUB_REF ?? '',
    sha: env.GITHUB_SHA ?? '',
    apiUrl: (env.GITHUB_API_URL ?? 'https://api.github.com').replace(/\/+$/, ''),
    runUrl: repository && env.GITHUB_RUN_ID ? `${server}/${repository}/actions/runs/${env.GITHUB_RUN_ID}` : undefined,
    pullNumber: typeof number === 'number' ? number : undefined,
    headSha: typeof headSha === 'string' ? headSha : env.GITHUB_SHA ?? '',
    ...(typeof asRecord(pr.user).login === 'string' ? { pullAuthor: asRecord(pr.user).login as string } : {}),
  };
}

export function readInputs(env: Env, github: GitHubContext): ActionInputs {
  const rawCommand = readInput(env, 'command');
  if (rawCommand !== '' && !COMMANDS.includes(rawCommand as ActionCommand)) {
    throw new ActionInputError(`input command must be one of ${COMMANDS.join(', ')} (or empty to follow the event), got ${JSON.stringify(rawCommand)}`);
  }
  const paths = readInput(env, 'path').split(/\s+/).filter((p) => p !== '');
  const checksum = optional(readInput(env, 'checksum'));
  if (checksum !== undefined && !CHECKSUM.test(checksum)) {
    throw new ActionInputError(`input checksum must be a plan checksum as edgeops plan prints it (sha256: and 64 hex digits), got ${JSON.stringify(checksum)}`);
  }
  const command = rawCommand === '' ? deriveCommand(github.eventName, github.ref, github.event, checksum) : (rawCommand as ActionCommand);
  const against = optional(readInput(env, 'against'));
  if (against !== undefined && command === 'apply') {
    const why = rawCommand === '' ? ` (apply follows from the ${github.eventName} event on ${github.ref})` : '';
    throw new ActionInputError(`input against plans from a snapshot, which apply cannot use: it changes the live service${why}. Use against with plan or drift`);
  }
  return {
    command,
    derived: rawCommand === '',
    paths: paths.length > 0 ? paths : ['.'],
    apiUrl: optional(readInput(env, 'api-url')),
    apiKey: optional(readInput(env, 'api-key')),
    stack: optional(readInput(env, 'stack')),
    comment: readBoolean(env, 'comment', true),
    failOnDrift: readBoolean(env, 'fail-on-drift', true),
    githubToken: optional(readInput(env, 'github-token')) ?? optional(env.GITHUB_TOKEN ?? ''),
    workingDirectory: optional(readInput(env, 'working-directory')),
    against,
    adopt: readBoolean(env, 'adopt', false),
    allowDeletes: readBoolean(env, 'allow-deletes', false),
    onStale: readChoice(env, 'on-stale', ['fail', 'replan'] as const),
    checksum,
    commentFailure: readChoice(env, 'comment-failure', ['fail', 'warn'] as const),
    // An issue is how a schedule's finding reaches people; a drift run by hand or on a pull request reports in place.
    driftIssue: readBoolean(env, 'drift-issue', github.eventName === 'schedule'),
    driftIssueLabels: readLabels(env),
    stacks: readChoice(env, 'stacks', ['changed', 'all'] as const),
  };
}
