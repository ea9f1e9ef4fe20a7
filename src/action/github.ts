// The few GitHub REST calls the action makes (issue comments), over undici. The base URL comes from
// GITHUB_API_URL, so GitHub Enterprise Server and a test's stand-in server work the same way.
import { request } from 'undici';
import { EdgeopsError } from '../errors.ts';

export class GitHubApiError extends EdgeopsError {
  readonly status: number;
  constructor(operation: string, status: number, message: string) {
    super('E_GITHUB_API', `GitHub API ${operation}: ${status} ${message}`);
    this.status = status;
  }
}

export interface IssueComment {
  id: number;
  body: string;
  html_url?: string;
  user?: { login?: string; type?: string } | null;
}

type Method = 'GET' | 'POST' | 'PATCH';

/** `<https://api.github.com/...?page=2>; rel="next", <...>; rel="last"` -> the next URL. */
export function nextLink(header: string | string[] | undefined): string | undefined {
  const value = Array.isArray(header) ? header.join(',') : header;
  if (!value) return undefined;
  for (const part of value.split(',')) {
    const match = /<([^>]+)>\s*;\s*rel="?next"?/.exec(part);
    if (match) return match[1];
  }
  return undefined;
}

function errorMessage(text: string): string {
  try {
    const body = JSON.parse(text) as { message?: unknown };
    if (typeof body.message === 'string') return body.message;
  } catch {
    // not JSON: fall through to the raw text
  }
  return text.slice(0, 200);
}

export class GitHubClient {
  private readonly apiUrl: string;
  private readonly token: string;

  constructor(opts: { apiUrl: string; token: string }) {
    this.apiUrl = opts.apiUrl.replace(/\/+$/, '');
    this.token = opts.token;
  }

  private async call<T>(method: Method, url: string, operation: string, body?: unknown): Promise<{ data: T; next?: string }> {
    const res = await request(url, {
      method,
      headers: {
        authorization: `Bearer ${this.token}`,
        accept: 'application/vnd.github+json',
        'x-github-api-version': '2022-11-28',
        'user-agent': 'edgeops-action',
        ...(body === undefined ? {} : { 'content-type': 'application/json' }),
      },
      body: body === undefined ? undefined : JSON.stringify(body),
    });
    const text = await res.body.text();
    if (res.statusCode < 200 || res.statusCode >= 300) throw new GitHubApiError(operation, res.statusCode, errorMessage(text));
    const next = nextLink(res.headers.link);
    // The token goes only to the API's own origin: a Link to anywhere else is not followed.
    const sameOrigin = next !== undefined && new URL(next).origin === new URL(this.apiUrl).origin;
    return { data: (text === '' ? undefined : JSON.parse(text)) as T, next: sameOrigin ? next : undefined };
  }

  private repoPath(repository: string): string {
    const [owner, repo] = repository.split('/');
    if (!owner || !repo) throw new GitHubApiError('repository', 0, `GITHUB_REPOSITORY must be owner/repo, got ${JSON.stringify(repository)}`);
    return `${this.apiUrl}/repos/${encodeURIComponent(owner)}/${encodeURIComponent(repo)}`;
  }

  /** Every comment of an issue or pull request, oldest first, following the Link header. */
  async listIssueComments(repository: string, issue: number): Promise<IssueComment[]> {
    const all: IssueComment[] = [];
    let url: string | undefined = `${this.repoPath(repository)}/issues/${issue}/comments?per_page=100`;
    while (url) {
      const page: { data: IssueComment[]; next?: string } = await this.call<IssueComment[]>('GET', url, 'list comments');
      all.push(...page.data);
      url = page.next;
    }
    return all;
  }

  async createIssueComment(repository: string, issue: number, body: string): Promise<IssueComment> {
    return (await this.call<IssueComment>('POST', `${this.repoPath(repository)}/issues/${issue}/comments`, 'create comment', { body })).data;
  }

  async updateIssueComment(repository: string, id: number, body: string): Promise<IssueComment> {
    return (await this.call<IssueComment>('PATCH', `${this.repoPath(repository)}/issues/comments/${id}`, 'update comment', { body })).data;
  }
}
