// A local node:http server standing in for the GitHub REST API (issue comments, the pull requests of a commit,
// issues, open pull requests and commit statuses), so the action's entry runs against a GitHub whose state the
// test can read. Pages hold 2 items whatever per_page says, so every list goes through the Link header. `failNext` makes chosen requests fail
// (a 502, a secondary rate limit) before they are handled.
import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';

export interface StubComment {
  id: number;
  body: string;
  user: { login: string; type: string };
  html_url: string;
}

export interface RecordedRequest {
  method: string;
  path: string;
  authorization?: string;
  /** The X-GitHub-Api-Version header the request carried. */
  apiVersion?: string;
  body: string;
}

export interface StubPull {
  number: number;
  state: string;
  merged_at: string | null;
  merge_commit_sha: string | null;
  head: { sha: string };
  base: { ref: string };
  html_url: string;
}

export interface StubStatus {
  state: string;
  context: string;
  description?: string;
  target_url?: string;
}

export interface StubIssue {
  number: number;
  title: string;
  body: string;
  state: 'open' | 'closed';
  state_reason?: string | null;
  labels: { name: string }[];
  html_url: string;
}

export interface GitHubStub {
  /** The GITHUB_API_URL to give the action (with a path prefix, as on GitHub Enterprise Server). */
  apiUrl: string;
  token: string;
  requests: RecordedRequest[];
  comments(issue: number): StubComment[];
  /** A comment by someone else, to sit among the action's. */
  seed(issue: number, body: string, user?: { login: string; type: string }): StubComment;
  /** Answer every write with this status (a fork's read-only token answers 403). */
  failWrites?: number;
  /** The next `count` requests matching method and path (after the API prefix) get `status` instead. */
  failNext(method: string, path: RegExp, status: number, count?: number, headers?: Record<string, string>): void;
  /** Records pull request `number` as merged by commit `mergeSha`, from head `headSha`. */
  mergePull(number: number, mergeSha: string, headSha: string): StubPull;
  /** Records pull request `number` as open at head `headSha` (the open pull requests list shows it). */
  openPull(number: number, headSha: string): StubPull;
  /** The statuses set on a commit, newest first. */
  statuses(sha: string): StubStatus[];
  issues(): StubIssue[];
  /** The files pull request `number` changes (the pull request files API), relative to the repository root. */
  setPullFiles(number: number, files: string[]): void;
  /** A review of pull request `number` (the reviews API), in the order given. */
  review(number: number, login: string, state: 'APPROVED' | 'CHANGES_REQUESTED' | 'COMMENTED' | 'DISMISSED'): void;
  /** Makes `login` an active member of the team `org/slug` (the team memberships API). */
  addTeamMember(org: string, slug: string, login: string): void;
  close(): Promise<void>;
}

const PAGE = 2;
const PREFIX = '/api/v3';

export async function startGitHubStub(repository = 'acme/infra', token = 'ghs_stubtoken0123456789'): Promise<GitHubStub> {
  const issues = new Map<number, StubComment[]>();
  let nextId = 1000;
  const list = (issue: number) => issues.get(issue) ?? (issues.set(issue, []), issues.get(issue)!);
  const requests: RecordedRequest[] = [];
  const failures: { method: string; path: RegExp; status: number; left: number; headers: Record<string, string> }[] = [];
  const pulls = new Map<string, StubPull[]>();
  const issueList: StubIssue[] = [];
  const open: StubPull[] = [];
  const statuses = new Map<string, StubStatus[]>();
  let nextIssue = 500;
  const pullFiles = new Map<number, { filename: string; status: string }[]>();
  const reviews = new Map<number, { id: number; user: { login: string }; state: string }[]>();
  const teams = new Map<string, Set<string>>();

  const add = (issue: number, body: string, user: { login: string; type: string }): StubComment => {
    const id = nextId++;
    const comment = { id, body, user, html_url: `https://github.example/${repository}/pull/${issue}#issuecomment-${id}` };
    list(issue).push(comment);
    return comment;
  };

  const send = (res: ServerResponse, status: number, body: unknown, headers: Record<string, string> = {}) => {
    res.writeHead(status, { 'content-type': 'application/json', ...headers });
    res.end(JSON.stringify(body));
  };

  /** One page of `all` with the Link header GitHub sends: next and last while there are more, prev and first after page 1. */
  const sendPage = (res: ServerResponse, url: URL, all: unknown[]) => {
    const page = Number(url.searchParams.get('page') ?? '1');
    const items = all.slice((page - 1) * PAGE, page * PAGE);
    const pageUrl = (n: number) => {
      const to = new URL(url);
      to.searchParams.set('page', String(n));
      return to.toString();
    };
    const links: string[] = [];
    if (page * PAGE < all.length) links.push(`<${pageUrl(page + 1)}>; rel="next"`, `<${url.origin}${url.pathname}?page=99>; rel="last"`);
    if (page > 1) links.push(`<${pageUrl(1)}>; rel="first"`, `<${pageUrl(page - 1)}>; rel="prev"`);
    return send(res, 200, items, links.length > 0 ? { link: links.join(', ') } : {});
  };

  async function handle(req: IncomingMessage, res: ServerResponse, base: string) {
    let body = '';
    for await (const chunk of req) body += chunk;
    const url = new URL(req.url ?? '/', base);
    const apiVersion = req.headers['x-github-api-version'];
    requests.push({ method: req.method ?? '', path: url.pathname + url.search, authorization: req.headers.authorization, apiVersion: Array.isArray(apiVersion) ? apiVersion.join(', ') : apiVersion, body });
    // Both schemes GitHub accepts for a token.
    if (req.headers.authorization !== `Bearer ${token}` && req.headers.authorization !== `token ${token}`) return send(res, 401, { message: 'Bad credentials' });
    const path = url.pathname.startsWith(PREFIX) ? url.pathname.slice(PREFIX.length) : '';
    const failure = failures.find((f) => f.left > 0 && f.method === req.method && f.path.test(path));
    if (failure) {
      failure.left--;
      return send(res, failure.status, { message: failure.status === 403 ? 'You have exceeded a secondary rate limit' : 'Server Error' }, failure.headers);
    }
    const repo = `/repos/${repository}`;
    const listMatch = new RegExp(`^${repo}/issues/(\\d+)/comments$`).exec(path);
    const editMatch = new RegExp(`^${repo}/issues/comments/(\\d+)$`).exec(path);
    const pullsMatch = new RegExp(`^${repo}/commits/([0-9a-f]+)/pulls$`).exec(path);
    const issueMatch = new RegExp(`^${repo}/issues/(\\d+)$`).exec(path);
    const statusesMatch = new RegExp(`^${repo}/commits/([0-9a-f]+)/statuses$`).exec(path);
    const statusMatch = new RegExp(`^${repo}/statuses/([0-9a-f]+)$`).exec(path);
    if (path === `${repo}/pulls` && req.method === 'GET') return sendPage(res, url, open.filter((p) => p.state === 'open'));
    if (statusesMatch && req.method === 'GET') return sendPage(res, url, statuses.get(statusesMatch[1]!) ?? []);
    if (listMatch && req.method === 'GET') return sendPage(res, url, list(Number(listMatch[1])));
    const filesMatch = new RegExp(`^${repo}/pulls/(\\d+)/files$`).exec(path);
    if (filesMatch && req.method === 'GET') return sendPage(res, url, pullFiles.get(Number(filesMatch[1])) ?? []);
    const reviewsMatch = new RegExp(`^${repo}/pulls/(\\d+)/reviews$`).exec(path);
    if (reviewsMatch && req.method === 'GET') return sendPage(res, url, reviews.get(Number(reviewsMatch[1])) ?? []);
    const memberMatch = /^\/orgs\/([^/]+)\/teams\/([^/]+)\/memberships\/([^/]+)$/.exec(path);
    if (memberMatch && req.method === 'GET') {
      const [, org, slug, login] = memberMatch.map(decodeURIComponent);
      if (!teams.get(`${org}/${slug}`)?.has(login!)) return send(res, 404, { message: 'Not Found' });
      return send(res, 200, { state: 'active', role: 'member' });
    }
    if (pullsMatch && req.method === 'GET') return sendPage(res, url, pulls.get(pullsMatch[1]!) ?? []);
    if (path === `${repo}/issues` && req.method === 'GET') {
      const labels = (url.searchParams.get('labels') ?? '').split(',').filter((l) => l !== '');
      const state = url.searchParams.get('state') ?? 'open';
      const found = issueList.filter((i) => (state === 'all' || i.state === state) && labels.every((l) => i.labels.some((x) => x.name === l)));
      return sendPage(res, url, found);
    }
    if (stub.failWrites && req.method !== 'GET') return send(res, stub.failWrites, { message: 'Resource not accessible by integration' });
    if (listMatch && req.method === 'POST') {
      const comment = add(Number(listMatch[1]), (JSON.parse(body) as { body: string }).body, { login: 'github-actions[bot]', type: 'Bot' });
      return send(res, 201, comment);
    }
    if (statusMatch && req.method === 'POST') {
      const input = JSON.parse(body) as StubStatus;
      const status: StubStatus = { state: input.state, context: input.context ?? 'default', description: input.description, target_url: input.target_url };
      statuses.set(statusMatch[1]!, [status, ...(statuses.get(statusMatch[1]!) ?? [])]);
      return send(res, 201, status);
    }
    if (path === `${repo}/issues` && req.method === 'POST') {
      const input = JSON.parse(body) as { title: string; body: string; labels?: string[] };
      const number = nextIssue++;
      const issue: StubIssue = {
        number, title: input.title, body: input.body, state: 'open', labels: (input.labels ?? []).map((name) => ({ name })),
        html_url: `https://github.example/${repository}/issues/${number}`,
      };
      issueList.push(issue);
      return send(res, 201, issue);
    }
    if (issueMatch && req.method === 'PATCH') {
      const issue = issueList.find((i) => i.number === Number(issueMatch[1]));
      if (!issue) return send(res, 404, { message: 'Not Found' });
      Object.assign(issue, JSON.parse(body));
      return send(res, 200, issue);
    }
    if (editMatch && req.method === 'PATCH') {
      const id = Number(editMatch[1]);
      const comment = [...issues.values()].flat().find((c) => c.id === id);
      if (!comment) return send(res, 404, { message: 'Not Found' });
      comment.body = (JSON.parse(body) as { body: string }).body;
      return send(res, 200, comment);
    }
    return send(res, 404, { message: 'Not Found' });
  }

  const server = createServer((req, res) => {
    handle(req, res, `http://${req.headers.host}`).catch((err: Error) => send(res, 500, { message: err.message }));
  });
  await new Promise<void>((ready) => server.listen(0, '127.0.0.1', ready));
  const { port } = server.address() as AddressInfo;

  const stub: GitHubStub = {
    apiUrl: `http://127.0.0.1:${port}${PREFIX}`,
    token,
    requests,
    comments: (issue) => [...list(issue)],
    seed: (issue, body, user = { login: 'octocat', type: 'User' }) => add(issue, body, user),
    failNext: (method, path, status, count = 1, headers = {}) => void failures.push({ method, path, status, left: count, headers }),
    mergePull(number, mergeSha, headSha) {
      const pull: StubPull = {
        number, state: 'closed', merged_at: '2026-11-20T10:00:00Z', merge_commit_sha: mergeSha,
        head: { sha: headSha }, base: { ref: 'main' }, html_url: `https://github.example/${repository}/pull/${number}`,
      };
      pulls.set(mergeSha, [...(pulls.get(mergeSha) ?? []), pull]);
      return pull;
    },
    openPull(number, headSha) {
      const pull: StubPull = {
        number, state: 'open', merged_at: null, merge_commit_sha: null,
        head: { sha: headSha }, base: { ref: 'main' }, html_url: `https://github.example/${repository}/pull/${number}`,
      };
      open.push(pull);
      return pull;
    },
    statuses: (sha) => [...(statuses.get(sha) ?? [])],
    issues: () => issueList,
    setPullFiles: (number, files) => void pullFiles.set(number, files.map((filename) => ({ filename, status: 'modified' }))),
    review: (number, login, state) => void reviews.set(number, [...(reviews.get(number) ?? []), { id: nextId++, user: { login }, state }]),
    addTeamMember: (org, slug, login) => void teams.set(`${org}/${slug}`, new Set([...(teams.get(`${org}/${slug}`) ?? []), login])),
    close: () => new Promise((done) => server.close(() => done())),
  };
  return stub;
}
