// `edgeops show FILE` through the real CLI against the real service: a plan saved by `plan --out` with creates,
// updates and deletes (and a private key, shown as sensitive) is shown byte for byte as `plan` printed it, in
// text, Markdown and JSON; an edited file and files that are no saved plan are refused; `show` never connects
// and, like `validate`, never loads the HTTP client.
import { mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join, relative, resolve } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { containsKeyMaterial, makeCert, type MadeCert } from '../helpers/certs.ts';
import { startTestService, type TestService } from '../helpers/service.ts';
import { edgeops, ROOT, type RunResult } from './run.ts';

let svc: TestService;
let cert: MadeCert;
const base = mkdtempSync(join(tmpdir(), 'edgeops-show-'));
const dir = join(base, 'infra');
const file = (name: string): string => join(base, name);

const BEFORE = [
  'kind: TunnelGroupBackend', 'name: web', 'description: web tier', 'labels: {app: web}',
  '---', 'kind: TCPEdge', 'name: ssh', 'description: ssh v1', 'hostports: ["1.tcp.example.com:20001"]', 'backend: {backend_id: web}',
  '---', 'kind: IPPolicy', 'name: old-office', 'description: to be removed',
  '---', 'kind: IPPolicy', 'name: lab', 'description: also removed',
];
const AFTER = [
  'kind: TunnelGroupBackend', 'name: web', 'description: web tier', 'labels: {app: web, tier: front}',
  '---', 'kind: TCPEdge', 'name: ssh', 'description: ssh v2', 'hostports: ["1.tcp.example.com:20001"]', 'backend: {backend_id: web}',
  '---', 'kind: IPPolicy', 'name: office', 'description: the new office',
  '---', 'kind: TLSCertificate', 'name: wild', 'description: wildcard', 'certificate_pem: {file: cert.pem}', 'private_key_pem: {env: WILD_KEY}',
];

const env = (): Record<string, string> => ({ EDGEOPS_API_URL: svc.url, EDGEOPS_API_KEY: svc.apiKey, WILD_KEY: cert.keyPem });
const SAVED_LINE = /^Saved the plan to .*\n/m;

beforeAll(async () => {
  svc = await startTestService();
  cert = await makeCert({ commonName: '*.example.com', dnsNames: ['*.example.com'] });
  mkdirSync(dir);
  writeFileSync(join(dir, 'edgeops.yaml'), 'stack: shown\nmax_deletes_per_kind: {IPPolicy: 3}\n');
  writeFileSync(join(dir, 'cert.pem'), cert.chainPem);
  writeFileSync(join(dir, 'all.yaml'), `${BEFORE.join('\n')}\n`);
  const first = await edgeops(['apply', dir, '--auto-approve'], { env: env() });
  expect(first.code, first.stderr).toBe(0);
  writeFileSync(join(dir, 'all.yaml'), `${AFTER.join('\n')}\n`);
});
afterAll(async () => {
  await svc?.close();
  rmSync(base, { recursive: true, force: true });
});

describe('edgeops show', () => {
  const planned = new Map<string, RunResult>();
  const formats = ['text', 'markdown', 'json'] as const;

  it.each(formats)('shows the saved plan exactly as plan printed it (%s)', async (format) => {
    const saved = file(`plan-${format}.json`);
    const made = await edgeops(['plan', dir, '--format', format, '--out', saved], { env: env() });
    expect(made.code, made.stderr).toBe(0);
    planned.set(format, made);
    // Text prints the saved note under the plan; JSON and Markdown print it on stderr.
    const printed = format === 'text' ? made.stdout.replace(SAVED_LINE, '') : made.stdout;
    expect(printed).not.toMatch(SAVED_LINE);
    // Without the service's settings: show reads the file and nothing else.
    const shown = await edgeops(['show', saved, ...(format === 'text' ? [] : ['--format', format])], { cwd: base });
    expect(shown.code, shown.stderr).toBe(0);
    expect(shown.stderr).toBe('');
    expect(shown.stdout).toBe(printed);
  });

  it('covers creates, updates and deletes, the delete line, the checksum and a hidden private key', () => {
    const text = planned.get('text')!.stdout;
    expect(text).toContain('Plan: 2 to create, 2 to update, 0 to replace, 2 to delete.');
    expect(text).toContain('Deletes: 2 of max 10 (IPPolicy 2 of max 3), within the limits.');
    expect(text).toMatch(/^Checksum: sha256:[0-9a-f]{64} /m);
    expect(text).toContain('(sensitive)');
    expect(containsKeyMaterial(text, cert.keyPem)).toBe(false);
    const json = JSON.parse(planned.get('json')!.stdout);
    expect(json.checksum).toBe(/^Checksum: (sha256:[0-9a-f]{64}) /m.exec(text)![1]);
    expect(json.summary).toEqual({ create: 2, update: 2, replace: 0, delete: 2 });
  });

  it('needs no service: the plan shows after the service has stopped, with no settings at all', async () => {
    const stopped = await startTestService();
    const saved = file('plan-stopped.json');
    const made = await edgeops(['plan', dir, '--out', saved], { env: { EDGEOPS_API_URL: stopped.url, EDGEOPS_API_KEY: stopped.apiKey, WILD_KEY: cert.keyPem } });
    expect(made.code, made.stderr).toBe(0);
    await stopped.close();
    const shown = await edgeops(['show', saved], { cwd: base, env: { EDGEOPS_API_URL: stopped.url, EDGEOPS_RETRY_BUDGET: '0' } });
    expect(shown.code, shown.stderr).toBe(0);
    expect(shown.stdout).toBe(made.stdout.replace(SAVED_LINE, ''));
  });

  it('refuses an edited saved plan, and apply --plan refuses it too', async () => {
    const bytes = readFileSync(file('plan-text.json'), 'utf8');
    const edits: [string, (plan: Record<string, any>) => void][] = [
      ['a changed value', (p) => { p.plan.actions.find((a: { op: string }) => a.op === 'update').changes[0].new = 'rewritten'; }],
      ['a dropped delete', (p) => { p.plan.actions = p.plan.actions.filter((a: { op: string }) => a.op !== 'delete'); }],
      ['another checksum', (p) => { p.checksum = `sha256:${'0'.repeat(64)}`; }],
      ['raised delete limits', (p) => { p.delete_limits.max_deletes = 100; }],
    ];
    for (const [what, edit] of edits) {
      const edited = JSON.parse(bytes);
      edit(edited);
      writeFileSync(file('edited.json'), JSON.stringify(edited, null, 2));
      const shown = await edgeops(['show', file('edited.json')]);
      expect(shown.code, what).toBe(1);
      expect(shown.stdout, what).toBe('');
      expect(shown.stderr, what).toBe(`edgeops: ${file('edited.json')}: the saved plan was edited after it was saved (its digest does not match its content); make a new plan\n`);
    }
    // Re-indenting is no edit: the content is what the digest covers.
    writeFileSync(file('compact.json'), JSON.stringify(JSON.parse(bytes)));
    const compact = await edgeops(['show', file('compact.json')]);
    expect(compact.code, compact.stderr).toBe(0);
    expect(compact.stdout).toBe(planned.get('text')!.stdout.replace(SAVED_LINE, ''));

    const applied = await edgeops(['apply', '--plan', file('edited.json')], { env: env() });
    expect(applied.code).toBe(1);
    expect(applied.stderr).toContain('the saved plan was edited after it was saved');
  });

  it('refuses files that are no saved plan, and one written without a digest', async () => {
    const cases: [string, string, string][] = [
      ['manifest.yaml', `${AFTER.join('\n')}\n`, 'not a saved plan (not JSON)'],
      ['other.json', '{"format_version": 2, "stack": "shown"}', 'not a valid saved plan: "format" is not "edgeops-saved-plan"'],
      ['empty.json', '', 'not a saved plan (not JSON)'],
    ];
    for (const [name, text, message] of cases) {
      writeFileSync(file(name), text);
      const shown = await edgeops(['show', file(name)]);
      expect(shown.code, name).toBe(1);
      expect(shown.stderr, name).toBe(`edgeops: ${file(name)}: ${message}\n`);
    }
    const missing = await edgeops(['show', file('nowhere.json')]);
    expect(missing.code).toBe(1);
    expect(missing.stderr).toBe(`edgeops: cannot read the saved plan ${file('nowhere.json')}: ENOENT\n`);

    const { digest: _digest, ...older } = JSON.parse(readFileSync(file('plan-text.json'), 'utf8'));
    writeFileSync(file('older.json'), JSON.stringify(older));
    const old = await edgeops(['show', file('older.json')]);
    expect(old.code).toBe(1);
    expect(old.stderr).toContain('was written by an earlier edgeops, without the digest that shows it is unedited');
  });

  it('is listed in the help with its options and an example', async () => {
    const help = await edgeops(['show', '--help']);
    expect(help.code).toBe(0);
    expect(help.stdout).toContain('--format <format>');
    expect(help.stdout).toContain('$ edgeops show plan.json');
    const top = await edgeops(['--help']);
    expect(top.stdout).toMatch(/^ {2}show \[options\] <file>/m);
    expect(top.stdout).toContain('$ edgeops show plan.json');
  });
});

/** The modules a source file loads when it runs: its static imports, followed (type-only imports load nothing). */
function loadedModules(start: string): string[] {
  const seen = new Set<string>();
  const todo = [resolve(ROOT, start)];
  while (todo.length > 0) {
    const at = todo.pop()!;
    if (seen.has(at)) continue;
    seen.add(at);
    const text = readFileSync(at, 'utf8');
    for (const m of text.matchAll(/^\s*(?:import|export)\s+(?!type\s)[^'"]*?from\s+['"](\.[^'"]+)['"]/gm)) todo.push(resolve(dirname(at), m[1]!));
    for (const m of text.matchAll(/import\(\s*['"](\.[^'"]+)['"]\s*\)/g)) todo.push(resolve(dirname(at), m[1]!));
  }
  return [...seen].map((f) => relative(join(ROOT, 'src'), f));
}

describe('offline commands', () => {
  it.each(['validate', 'show'])('%s loads neither the HTTP client nor the service', (command) => {
    const loaded = loadedModules(`src/cli/commands/${command}.ts`);
    expect(loaded).toContain(`cli/commands/${command}.ts`);
    expect(loaded.length).toBeGreaterThan(10);
    expect(loaded.filter((f) => f.startsWith('client/') || f.startsWith('service/'))).toEqual([]);
  });
});
