// A local node:http server standing in for the GitHub REST API (issue comments only), so the action's entry
// runs against a GitHub whose state the test can read. Pages hold 2 comments whatever per_page says, so
// every list goes through the Link header.
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
  body: string;
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
  close(): Promise<void>;
}

const PAGE = 2;
const PREFIX = '/api/v3';

export async function startGitHubStub(repository = 'acme/infra', token = 'ghs_stubtoken0123456789'): Promise<GitHubStub> {
  const issues = new Map<number, StubComment[]>();
  let nextId = 1000;
  const list = (issue: number) => issues.get(issue) ?? (issues.set(issue, []), issues.get(issue)!);
  const requests: RecordedRequest[] = [];

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

  async function handle(req: IncomingMessage, res: ServerResponse, base: string) {
    let body = '';
    for await (const chunk of req) body += chunk;
    const url = new URL(req.url ?? '/', base);
    requests.push({ method: req.method ?? '', path: url.pathname + url.search, authorization: req.headers.authorization, body });
    if (req.headers.authorization !== `Bearer ${token}`) return send(res, 401, { message: 'Bad credentials' });
    const path = url.pathname.startsWith(PREFIX) ? url.pathname.slice(PREFIX.length) : '';
    const repo = `/repos/${repository}`;
    const listMatch = new RegExp(`^${repo}/issues/(\\d+)/comments$`).exec(path);
    const editMatch = new RegExp(`^${repo}/issues/comments/(\\d+)$`).exec(path);
    if (listMatch && req.method === 'GET') {
      const all = list(Number(listMatch[1]));
      const page = Number(url.searchParams.get('page') ?? '1');
      const items = all.slice((page - 1) * PAGE, page * PAGE);
      const headers: Record<string, string> = {};
      if (page * PAGE < all.length) {
        const next = new URL(url);
        next.searchParams.set('page', String(page + 1));
        headers.link = `<${next.toString()}>; rel="next", <${url.origin}${url.pathname}?page=99>; rel="last"`;
      }
      return send(res, 200, items, headers);
    }
    if (stub.failWrites && req.method !== 'GET') return send(res, stub.failWrites, { message: 'Resource not accessible by integration' });
    if (listMatch && req.method === 'POST') {
      const comment = add(Number(listMatch[1]), (JSON.parse(body) as { body: string }).body, { login: 'github-actions[bot]', type: 'Bot' });
      return send(res, 201, comment);
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
    close: () => new Promise((done) => server.close(() => done())),
  };
  return stub;
}
