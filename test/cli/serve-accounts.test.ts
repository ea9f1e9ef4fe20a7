// `edgeops serve` with accounts (issue 22), as a child process: --account NAME=KEY (repeatable, several keys per
// account), --accounts FILE (YAML: account name -> list of keys, plain or sha256:<hex>) and --api-key (the
// default account). A bad configuration is refused at start with exit 1 and a message naming the file and line
// (or the flag), never a key; the request log names the account and never a key.
import { createHash, randomBytes } from 'node:crypto';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { api, expectError } from '../helpers/service.ts';
import { serve, type ServeChild } from './serve-child.ts';

const dir = mkdtempSync(join(tmpdir(), 'edgeops-serve-accounts-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

const key = (tag: string): string => `${tag}-${randomBytes(12).toString('hex')}`;
const sha256 = (k: string): string => createHash('sha256').update(k).digest('hex');

let files = 0;
/** An accounts file with this text; its path. */
function accountsFile(text: string): string {
  const file = join(dir, `accounts-${++files}.yaml`);
  writeFileSync(file, text);
  return file;
}

/** Everything the process wrote. */
const everything = (s: ServeChild): string => `${s.output()}\n${s.errors()}`;

/** The process refuses to start: exit 1, nothing on stdout, one `edgeops: ` line on stderr, none of `secrets`. */
async function refused(args: string[], secrets: string[]): Promise<string> {
  const s = serve(['--port', '0', ...args]);
  await expect(s.url).rejects.toThrow(/serve exited early/);
  expect(await s.exited).toBe(1);
  expect(s.output()).toBe('');
  const lines = s.errors().trim().split('\n');
  expect(lines, s.errors()).toHaveLength(1);
  expect(lines[0]).toMatch(/^edgeops: /);
  expect(s.errors()).not.toContain('internal error');
  for (const secret of secrets) expect(everything(s), `the message shows a key: ${s.errors()}`).not.toContain(secret);
  return lines[0]!.slice('edgeops: '.length);
}

async function stop(s: ServeChild): Promise<void> {
  s.child.kill('SIGTERM');
  expect(await s.exited).toBe(0);
}

describe('start-up refusals of an accounts configuration', () => {
  it('malformed YAML: the file and the line, never the key on it', async () => {
    const [k1, k2] = [key('k1'), key('k2')];
    const cases: [string, RegExp][] = [
      [`team-a:\n  - ${k1}\n  - "${k2}\n`, /:4:1: not valid YAML \(MISSING_CHAR\)$/],
      [`team-a: [${k1}, ${k2}\nteam-b: [x]\n`, /:2:1: not valid YAML \(BAD_INDENT\)$/],
      [`team-a:\n  - ${k1}\n\t- ${k2}\n`, /:3:1: not valid YAML \(TAB_AS_INDENT\)$/],
      [`team-a:\n  - ${k1}\nteam-a:\n  - ${k2}\n`, /:3:1: not valid YAML \(DUPLICATE_KEY\)$/],
    ];
    for (const [text, message] of cases) {
      const file = accountsFile(text);
      const msg = await refused(['--accounts', file], [k1, k2]);
      expect(msg.startsWith(`${file}:`), msg).toBe(true);
      expect(msg).toMatch(message);
    }
  });

  it('not a mapping of account name to a list of keys', async () => {
    const k = key('k');
    const cases: [string, string][] = [
      [`- ${k}\n`, ':1:1: expected a mapping of account name to a list of API keys'],
      ['', ':1:1: expected a mapping of account name to a list of API keys'],
      [`${k}\n`, ':1:1: expected a mapping of account name to a list of API keys'],
      [`team-a: ${k}\n`, `:1:9: account team-a needs a list of one or more API keys`],
      ['team-a: []\n', ':1:9: account team-a needs a list of one or more API keys'],
      ['team-a:\n', ':1:8: account team-a needs a list of one or more API keys'],
      [`team-a:\n  - ok-key-1\n  - {key: ${k}}\n`, ':3:5: an API key of account team-a must be a string'],
      ['team-a:\n  - ok-key-2\n  - 12345\n', ':3:5: an API key of account team-a must be a string'],
      [`[team-a]: [${k}]\n`, ':1:1: an account name must be a string'],
    ];
    for (const [text, message] of cases) {
      const file = accountsFile(text);
      const msg = await refused(['--accounts', file], [k]);
      expect(msg, text).toBe(`${file}${message}`);
    }
  });

  it('an empty key, in the file and on the command line', async () => {
    const k = key('k');
    const file = accountsFile(`team-a:\n  - ${k}\n  - ""\n`);
    expect(await refused(['--accounts', file], [k])).toBe(`${file}:3:5: an empty API key for account team-a`);
    const blank = accountsFile(`team-a:\n  - ${k}\nteam-b:\n  - "   "\n`);
    expect(await refused(['--accounts', blank], [k])).toBe(`${blank}:4:5: an empty API key for account team-b`);
    expect(await refused(['--account', `ops=`, '--api-key', k], [k])).toBe('--account ops: an empty API key for account ops');
    expect(await refused(['--api-key', '', '--account', `ops=${k}`], [k])).toBe('--api-key: an empty API key for account default');
  });

  it('a key with whitespace, which no Authorization header can carry', async () => {
    const k = key('k');
    const why = 'holds whitespace, which no "Authorization: Bearer" header can carry';
    const file = accountsFile(`team-a:\n  - ok-key-4\n  - "${k} "\n`);
    expect(await refused(['--accounts', file], [k])).toBe(`${file}:3:5: an API key of account team-a ${why}`);
    const tab = accountsFile(`team-a: ["${k}\\tmore"]\n`);
    expect(await refused(['--accounts', tab], [k])).toBe(`${tab}:1:10: an API key of account team-a ${why}`);
    expect(await refused(['--account', `ops=${k} more`], [k])).toBe(`--account ops: an API key of account ops ${why}`);
    expect(await refused(['--api-key', ` ${k}`], [k])).toBe(`--api-key: an API key of account default ${why}`);
  });

  it('a key listed under two accounts: in the file, across the file and --account or --api-key, as sha256 too', async () => {
    const dup = key('dup');
    const other = key('other');
    const inFile = accountsFile(`team-a:\n  - ${other}\n  - ${dup}\nteam-b:\n  - ${dup}\n`);
    expect(await refused(['--accounts', inFile], [dup, other]))
      .toBe(`${inFile}:5:5: this API key is also a key of account team-a (${inFile}:3:5); a key belongs to one account`);

    const hashed = accountsFile(`team-a:\n  - ${dup}\nteam-b:\n  - other-key\n  - sha256:${sha256(dup)}\n`);
    expect(await refused(['--accounts', hashed], [dup, sha256(dup)]))
      .toBe(`${hashed}:5:5: this API key is also a key of account team-a (${hashed}:2:5); a key belongs to one account`);

    const single = accountsFile(`team-b:\n  - ${dup}\n`);
    expect(await refused(['--account', `team-c=${dup}`, '--accounts', single], [dup]))
      .toBe(`${single}:2:5: this API key is also a key of account team-c (--account team-c); a key belongs to one account`);
    expect(await refused(['--api-key', dup, '--accounts', single], [dup]))
      .toBe(`${single}:2:5: this API key is also a key of account default (--api-key); a key belongs to one account`);
    expect(await refused(['--api-key', dup, '--account', `team-c=${dup}`], [dup]))
      .toBe('--account team-c: this API key is also a key of account default (--api-key); a key belongs to one account');
    expect(await refused(['--account', `team-c=${dup}`, '--account', `team-d=${dup}`], [dup]))
      .toBe('--account team-d: this API key is also a key of account team-c (--account team-c); a key belongs to one account');
  });

  it('a bad account name, in the file and in --account, without echoing it (it may be a misplaced key)', async () => {
    const k = key('k');
    const rule = "an account name must be 1-64 letters, digits, '_', '.' or '-', starting with a letter or digit";
    const file = accountsFile(`team-a:\n  - ok-key-3\n"bad name!":\n  - ${k}\n`);
    expect(await refused(['--accounts', file], [k])).toBe(`${file}:3:1: ${rule}`);
    const dash = accountsFile(`-team: [${k}]\n`);
    expect(await refused(['--accounts', dash], [k])).toBe(`${dash}:1:1: ${rule}`);
    const long = 'n'.repeat(65);
    expect(await refused(['--account', `${long}=${k}`], [k])).toBe(`--account: ${rule}`);
    expect(await refused(['--account', `te am=${k}`], [k])).toBe(`--account: ${rule}`);
    // No `=`, or nothing before it: the value may be a key given alone, so it is not shown.
    expect(await refused(['--account', k], [k])).toBe('--account: expected NAME=KEY');
    expect(await refused(['--account', `=${k}`], [k])).toBe('--account: expected NAME=KEY');
  });

  it('a sha256: entry that is not exactly 64 lower-case hex digits, in the file and on the command line', async () => {
    const k = key('k');
    const digest = sha256(k);
    const why = 'starts with "sha256:" but is not a digest: a digest is "sha256:" and exactly 64 lower-case hex digits, as printf %s "$KEY" | sha256sum prints them';
    const wrong = [`sha256:${digest.slice(0, 63)}`, 'sha256:abc', `sha256:${digest.toUpperCase()}`, `sha256:${digest}0`, `sha256:${digest.slice(0, 63)}g`];
    for (const value of wrong) {
      const file = accountsFile(`team-a:\n  - ok-key-5\nteam-b:\n  - ${JSON.stringify(value)}\n`);
      const secrets = [value, value.slice('sha256:'.length), digest.slice(0, 63).toLowerCase(), digest.toUpperCase().slice(0, 63)].filter((x) => x.length > 8);
      expect(await refused(['--accounts', file], secrets)).toBe(`${file}:4:5: an API key of account team-b ${why}`);
    }
    expect(await refused(['--account', `ops=sha256:${digest.toUpperCase()}`], [digest.toUpperCase(), digest])).toBe(`--account ops: an API key of account ops ${why}`);
    expect(await refused(['--api-key', 'sha256:abc'], ['sha256:abc'])).toBe(`--api-key: an API key of account default ${why}`);
  });

  it('an accounts file that cannot be read', async () => {
    const missing = join(dir, 'missing.yaml');
    expect(await refused(['--accounts', missing], [])).toBe(`${missing}: cannot read the accounts file (ENOENT)`);
    expect(await refused(['--accounts', dir], [])).toBe(`${dir}: cannot read the accounts file (EISDIR)`);
  });
});

describe('serving accounts', () => {
  it('sha256:<hex> keys in the file work; the hashed form itself is no key', async () => {
    const [ka, kb, kc] = [key('ka'), key('kb'), key('kc')];
    const file = accountsFile(`# teams\nteam-a:\n  - "sha256:${sha256(ka)}"\n  - sha256:${sha256(kc)}\nteam-b:\n  - ${kb}\n`);
    const s = serve(['--port', '0', '--accounts', file]);
    try {
      const url = await s.url;
      expect(s.output()).toContain('accounts: team-a (2 keys), team-b (1 key)');
      const [a, b, c] = [ka, kb, kc].map((k) => api({ url, apiKey: k }));
      const made = await a!.post('/ip_policies', { description: 'of team-a' });
      expect(made.status, made.text).toBe(201);
      expect((await c!.get(`/ip_policies/${made.body.id}`)).body.description).toBe('of team-a');
      expectError(await b!.get(`/ip_policies/${made.body.id}`), 404, 'ERR_IP_POLICY_NOT_FOUND');
      expect((await b!.get('/ip_policies')).body.ip_policies).toEqual([]);
      for (const wrong of [`sha256:${sha256(ka)}`, sha256(ka), ka.toUpperCase()]) {
        expectError(await api({ url, apiKey: wrong }).get('/ip_policies'), 401, 'ERR_AUTH_INVALID_KEY');
      }
    } finally {
      await stop(s);
    }
  });

  it('--account is repeatable, with several keys per account, beside --api-key and --accounts', async () => {
    const k = { ops1: key('ops1'), ops2: key('ops2'), dev: key('dev'), def: key('def'), file: key('file') };
    const file = accountsFile(`ops:\n  - ${k.file}\n  - ${k.ops1}\n`);
    const s = serve(['--port', '0', '--api-key', k.def, '--account', `ops=${k.ops1}`, '--account', `dev=${k.dev}`, '--account', `ops=${k.ops2}`, '--accounts', file]);
    try {
      const url = await s.url;
      // A key given twice to the same account counts once.
      expect(s.output()).toContain('accounts: default (1 key), ops (3 keys), dev (1 key)');
      const c = Object.fromEntries(Object.entries(k).map(([name, value]) => [name, api({ url, apiKey: value })]));
      const made = await c.ops1!.post('/ip_policies', { description: 'ops policy' });
      expect(made.status).toBe(201);
      for (const name of ['ops1', 'ops2', 'file']) expect((await c[name]!.get('/ip_policies')).body.ip_policies.map((p: { id: string }) => p.id), name).toEqual([made.body.id]);
      for (const name of ['dev', 'def']) expect((await c[name]!.get('/ip_policies')).body.ip_policies, name).toEqual([]);
      // The key of another account: its documents as if they did not exist, for writes too.
      expectError(await c.dev!.patch(`/ip_policies/${made.body.id}`, { description: 'dev was here' }), 404, 'ERR_IP_POLICY_NOT_FOUND');
      expectError(await c.def!.del(`/ip_policies/${made.body.id}`), 404, 'ERR_IP_POLICY_NOT_FOUND');
      expect((await c.ops2!.get(`/ip_policies/${made.body.id}`)).body.description).toBe('ops policy');
    } finally {
      await stop(s);
    }
  });

  it('the request log names the account of each request and never shows a key', async () => {
    const k = { a1: key('a1'), a2: key('a2'), b: key('b'), def: key('def'), wrong: key('wrong') };
    const file = accountsFile(`team-a:\n  - ${k.a1}\n  - sha256:${sha256(k.a2)}\nteam-b: [${k.b}]\n`);
    const s = serve(['--port', '0', '--api-key', k.def, '--accounts', file]);
    const url = await s.url;
    const req = (apiKey: string) => api({ url, apiKey });
    expect((await req(k.a1).post('/ip_policies', { description: 'a' })).status).toBe(201);
    expect((await req(k.a2).get('/ip_policies?limit=1')).status).toBe(200);
    expect((await req(k.b).get('/ip_policies')).status).toBe(200);
    expect((await req(k.def).get('/backends/tunnel_group')).status).toBe(200);
    expect((await req(k.wrong).get('/ip_policies')).status).toBe(401);
    expect((await req(k.b).get(`/ip_policies/ipp_${'x'.repeat(27)}`)).status).toBe(404);
    // A key in the path or query of a request is the client's doing, and shows as sent; in a body it does not show.
    expect((await req(k.b).post('/ip_policies', { description: 'x'.repeat(300), metadata: k.wrong })).status).toBe(400);
    await new Promise((resolve) => setTimeout(resolve, 200));
    await stop(s);
    const lines = s.errors().trim().split('\n');
    expect(lines.map((l) => l.replace(/ \d+ms /, ' Nms '))).toEqual([
      'edgeops serve: POST /ip_policies 201 Nms account=team-a',
      'edgeops serve: GET /ip_policies?limit=1 200 Nms account=team-a',
      'edgeops serve: GET /ip_policies 200 Nms account=team-b',
      'edgeops serve: GET /backends/tunnel_group 200 Nms account=default',
      'edgeops serve: GET /ip_policies 401 Nms account=-',
      `edgeops serve: GET /ip_policies/ipp_${'x'.repeat(27)} 404 Nms account=team-b`,
      'edgeops serve: POST /ip_policies 400 Nms account=team-b',
    ]);
    for (const secret of [...Object.values(k), sha256(k.a2), 'Bearer']) expect(everything(s)).not.toContain(secret);
    expect(s.output()).toContain('accounts: default (1 key), team-a (2 keys), team-b (1 key)');
  });
});
