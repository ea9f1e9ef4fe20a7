// The GitHub REST calls the action makes (comments, the pull requests of a commit, drift issues, open pull
// requests and their commit statuses), through @octokit/core with the retry and throttling plugins: a 5xx or a
// network failure is retried with backoff, a secondary rate limit waits as GitHub asks, and writes are spaced as
// GitHub's best practices say. The base URL comes from GITHUB_API_URL, so GitHub Enterprise Server and a test's stand-in server work the same way.
import { Octokit } from '@octokit/core';
import { retry } from '@octokit/plugin-retry';
import { throttling } from '@octokit/plugin-throttling';
import { EdgeopsError } from '../errors.ts';
import type { Session } from './session.ts';

export class GitHubApiError extends EdgeopsError {
  /** The HTTP status; 0 when no answer came (network failure). */
  readonly status: number;
  constructor(operation: string, status: number, message: string) {
    super('E_GITHUB_API', `GitHub API ${operation}: ${status === 0 ? '' : `${status} `}${message}`);
    this.status = status;
  }

  /** Refused for who the token is (a read-only fork token, a missing permission), not a failure of GitHub's. */
  get isPermission(): boolean {
    return this.status === 401 || this.status === 403 || this.status === 404;
  }
}

export interface IssueComment {
  id: number;
  body: string;
  html_url?: string;
  user?: { login?: string; type?: string } | null;
}

export interface PullRequest {
  number: number;
  state?: string;
  merged_at?: string | null;
  merge_commit_sha?: string | null;
  html_url?: string;
  head?: { sha?: string };
  base?: { ref?: string };
}

interface CommitStatus {
  state: 'error' | 'failure' | 'pending' | 'success';
  context: string;
  description?: string;
  target_url?: string;
}

interface PullReview {
  user?: { login?: string } | null;
  /** APPROVED, CHANGES_REQUESTED, COMMENTED, DISMISSED, PENDING. */
  state: string;
}

export interface Issue {
  number: number;
  title: string;
  body?: string | null;
  state?: string;
  html_url?: string;
  pull_request?: unknown;
}

/** `<https://api.github.com/...?page=2>; rel="next", <...>; rel="last"` -> the next URL. */
function nextLink(header: string | string[] | undefined): string | undefined {
  const value = Array.isArray(header) ? header.join(',') : header;
  if (!value) return undefined;
  for (const part of value.split(',')) {
    const match = /<([^>]+)>\s*;\s*rel="?next"?/.exec(part);
    if (match) return match[1];
  }
  return undefined;
}

const ActionOctokit = Octokit.plugin(retry, throttling);

/** The GitHub REST API version every request names. */
const GITHUB_API_VERSION = '2022-11-28';

/** How many times a rate-limited request is tried again before the call fails. */
const RATE_LIMIT_RETRIES = 3;

interface GitHubOptions {
  apiUrl: string;
  token: string;
  /** Told about every retry, so the log shows why a call took long. */
  onRetry?: (message: string) => void;
}

type Method = 'GET' | 'POST' | 'PATCH';

export class GitHubClient {
  private readonly apiUrl: string;
  private readonly octokit: InstanceType<typeof ActionOctokit>;
  private readonly repository: string;

  constructor(opts: GitHubOptions & { repository: string }) {
    this.apiUrl = opts.apiUrl.replace(/\/+$/, '');
    this.repository = opts.repository;
    const limited = (what: string) => (after: number, options: { method: string; url: string }, _o: unknown, count: number) => {
      opts.onRetry?.(`GitHub ${what} on ${options.method} ${options.url}: retrying in ${after}s`);
      return count < RATE_LIMIT_RETRIES;
    };
    this.octokit = new ActionOctokit({
      auth: opts.token,
      baseUrl: this.apiUrl,
      userAgent: 'edgeops-action',
      throttle: { onRateLimit: limited('rate limit'), onSecondaryRateLimit: limited('secondary rate limit') },
    });
    // Octokit's constructor takes no default headers (its `request` option is fetch's), so the REST API version
    // is pinned on every request through the request hook.
    this.octokit.hook.before('request', (options) => {
      options.headers['x-github-api-version'] = GITHUB_API_VERSION;
    });
  }

  private repoPath(): string {
    const [owner, repo] = this.repository.split('/');
    if (!owner || !repo) throw new GitHubApiError('repository', 0, `GITHUB_REPOSITORY must be owner/repo, got ${JSON.stringify(this.repository)}`);
    return `/repos/${encodeURIComponent(owner)}/${encodeURIComponent(repo)}`;
  }

  private async call<T>(method: Method, url: string, operation: string, body?: Record<string, unknown>): Promise<{ data: T; next?: string }> {
    try {
      const res = await this.octokit.request({ method, url, ...(body ?? {}) });
      const next = nextLink(res.headers.link);
      // The token goes only to the API's own origin: a Link to anywhere else is not followed.
      const sameOrigin = next !== undefined && new URL(next).origin === new URL(this.apiUrl).origin;
      return { data: res.data as T, next: sameOrigin ? next : undefined };
    } catch (err) {
      const e = err as { status?: number; message?: string; response?: { data?: { message?: unknown } } };
      const message = typeof e.response?.data?.message === 'string' ? e.response.data.message : e.message ?? String(err);
      // Octokit reports a failure without an answer (refused, reset) as status 500 with the cause's message.
      const status = e.response ? e.status ?? 0 : 0;
      throw new GitHubApiError(operation, status, message);
    }
  }

  /** Every item of a list, following the Link header. */
  private async all<T>(url: string, operation: string): Promise<T[]> {
    const out: T[] = [];
    let next: string | undefined = url;
    while (next) {
      const page: { data: T[]; next?: string } = await this.call<T[]>('GET', next, operation);
      out.push(...page.data);
      next = page.next;
    }
    return out;
  }

  /** Every comment of an issue or pull request, oldest first. */
  listIssueComments(issue: number): Promise<IssueComment[]> {
    return this.all<IssueComment>(`${this.repoPath()}/issues/${issue}/comments?per_page=100`, 'list comments');
  }

  async createIssueComment(issue: number, body: string): Promise<IssueComment> {
    return (await this.call<IssueComment>('POST', `${this.repoPath()}/issues/${issue}/comments`, 'create comment', { body })).data;
  }

  async updateIssueComment(id: number, body: string): Promise<IssueComment> {
    return (await this.call<IssueComment>('PATCH', `${this.repoPath()}/issues/comments/${id}`, 'update comment', { body })).data;
  }

  /** The pull requests a commit belongs to (for a merge commit: the merged one). */
  pullsOfCommit(sha: string): Promise<PullRequest[]> {
    return this.all<PullRequest>(`${this.repoPath()}/commits/${encodeURIComponent(sha)}/pulls?per_page=100`, 'list pull requests of the commit');
  }

  /** The repository's open pull requests, each with its head commit. */
  listOpenPulls(): Promise<PullRequest[]> {
    return this.all<PullRequest>(`${this.repoPath()}/pulls?state=open&per_page=100`, 'list open pull requests');
  }

  /** The statuses of a commit, newest first (GitHub's order): the first of a context is its current state. */
  listStatuses(sha: string): Promise<CommitStatus[]> {
    return this.all<CommitStatus>(`${this.repoPath()}/commits/${encodeURIComponent(sha)}/statuses?per_page=100`, 'list commit statuses');
  }

  async createStatus(sha: string, status: CommitStatus): Promise<CommitStatus> {
    // GitHub refuses a description over 140 characters.
    const fields = { ...status, description: status.description?.slice(0, 140) };
    return (await this.call<CommitStatus>('POST', `${this.repoPath()}/statuses/${encodeURIComponent(sha)}`, 'create commit status', fields)).data;
  }

  /** The files a pull request changes, relative to the repository root. */
  async listPullFiles(pull: number): Promise<string[]> {
    const files = await this.all<{ filename: string }>(`${this.repoPath()}/pulls/${pull}/files?per_page=100`, 'list pull request files');
    return files.map((f) => f.filename);
  }

  /** A pull request's reviews, oldest first. */
  listPullReviews(pull: number): Promise<PullReview[]> {
    return this.all<PullReview>(`${this.repoPath()}/pulls/${pull}/reviews?per_page=100`, 'list reviews');
  }

  /** Whether `login` is an active member of the team `org/slug` (a 404 is no). */
  async isTeamMember(org: string, slug: string, login: string): Promise<boolean> {
    try {
      const url = `/orgs/${encodeURIComponent(org)}/teams/${encodeURIComponent(slug)}/memberships/${encodeURIComponent(login)}`;
      return (await this.call<{ state?: string }>('GET', url, 'read team membership')).data.state === 'active';
    } catch (err) {
      if (err instanceof GitHubApiError && err.status === 404) return false;
      throw err;
    }
  }

  /** Open issues (not pull requests) carrying every one of `labels`, or all open issues without labels. */
  async listOpenIssues(labels: string[]): Promise<Issue[]> {
    const filter = labels.length > 0 ? `&labels=${encodeURIComponent(labels.join(','))}` : '';
    const issues = await this.all<Issue>(`${this.repoPath()}/issues?state=open&per_page=100${filter}`, 'list issues');
    return issues.filter((i) => i.pull_request === undefined);
  }

  async createIssue(title: string, body: string, labels: string[]): Promise<Issue> {
    return (await this.call<Issue>('POST', `${this.repoPath()}/issues`, 'create issue', { title, body, labels })).data;
  }

  async updateIssue(issue: number, fields: { title?: string; body?: string; state?: 'open' | 'closed'; state_reason?: string }): Promise<Issue> {
    return (await this.call<Issue>('PATCH', `${this.repoPath()}/issues/${issue}`, 'update issue', fields)).data;
  }
}

/** The client for this run, or undefined (with a warning saying what is not done) when there is no token. */
export function gitHubFor(s: Session, notDone: string): GitHubClient | undefined {
  if (!s.inputs.githubToken) {
    s.runner.warning(`no GitHub token: ${notDone} (pass github-token or keep its default)`);
    return undefined;
  }
  return new GitHubClient({ apiUrl: s.github.apiUrl, token: s.inputs.githubToken, repository: s.github.repository, onRetry: (m) => s.runner.info(m) });
}
