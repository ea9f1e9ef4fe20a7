// Editors check every document: yaml-language-server (what VS Code's YAML extension and others run), started
// over stdio and spoken to in LSP, with the set-up the README documents: the `yaml.schemas` glob setting of
// examples/.vscode/settings.json, and the per-document modeline. An unknown field in the second or third document
// of a file gets a diagnostic (a modeline heading only the first document covers it alone, until `edgeops fmt`
// repeats it); the examples get none; no diagnostic is an ajv-errors object; hovering a module key shows the
// contract's description of the module.
import { spawn, type ChildProcess } from 'node:child_process';
import { setTimeout as sleep } from 'node:timers/promises';
import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { join, resolve } from 'node:path';
import { pathToFileURL } from 'node:url';
import { createMessageConnection, StreamMessageReader, StreamMessageWriter, type MessageConnection } from 'vscode-jsonrpc/node.js';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { contractKind } from '../../src/contract/index.ts';
import { formatText } from '../../src/format/format-text.ts';
import { kindSchemas } from '../../src/manifest/schema/kinds.ts';
import { projectSchema } from '../../src/manifest/schema/project.ts';

const ROOT = resolve(import.meta.dirname, '../..');
const EXAMPLES = join(ROOT, 'examples');
const SERVER = createRequire(import.meta.url).resolve('yaml-language-server/bin/yaml-language-server');

interface Diagnostic { range: { start: { line: number; character: number } }; message: string }

const settings = JSON.parse(readFileSync(join(EXAMPLES, '.vscode/settings.json'), 'utf8')) as Record<string, unknown>;

let child: ChildProcess;
let conn: MessageConnection;
const waiting = new Map<string, (d: Diagnostic[]) => void>();
let version = 0;

beforeAll(async () => {
  child = spawn(process.execPath, [SERVER, '--stdio'], { stdio: ['pipe', 'pipe', 'inherit'] });
  // A write racing the server's exit at teardown fails with EPIPE; a request that cannot be sent during a test
  // still fails that test by its timeout.
  child.stdin!.on('error', () => undefined);
  conn = createMessageConnection(new StreamMessageReader(child.stdout!), new StreamMessageWriter(child.stdin!));
  conn.onNotification('textDocument/publishDiagnostics', (p: { uri: string; diagnostics: Diagnostic[] }) => waiting.get(p.uri)?.(p.diagnostics));
  // The editor's settings, as VS Code answers a pull: the workspace is examples/, so its .vscode/settings.json applies.
  const yaml = { validate: settings['yaml.validate'], schemas: settings['yaml.schemas'], schemaStore: { enable: false } };
  conn.onRequest('workspace/configuration', (p: { items: { section?: string }[] }) => p.items.map((i) => (i.section === 'yaml' ? yaml : {})));
  conn.listen();
  await conn.sendRequest('initialize', {
    processId: process.pid,
    rootUri: pathToFileURL(EXAMPLES).href,
    workspaceFolders: [{ uri: pathToFileURL(EXAMPLES).href, name: 'examples' }],
    capabilities: { workspace: { configuration: true } },
  });
  conn.sendNotification('initialized', {});
  conn.sendNotification('workspace/didChangeConfiguration', { settings: null });
});

afterAll(async () => {
  // The protocol's own ending (shutdown, then exit) before the process is stopped.
  const gone = child && child.exitCode === null ? new Promise((done) => child.once('exit', done)) : Promise.resolve();
  await Promise.race([conn?.sendRequest('shutdown').then(() => conn.sendNotification('exit')), sleep(2000)]).catch(() => undefined);
  await Promise.race([gone, sleep(2000)]);
  conn?.dispose();
  child?.kill();
});

/** Opens `text` as the document at `file` (nothing is written) and returns the diagnostics published for it. */
async function diagnose(file: string, text: string): Promise<Diagnostic[]> {
  const uri = pathToFileURL(file).href;
  // The server validates once it has the settings; the first publish after opening is the answer.
  const result = new Promise<Diagnostic[]>((done) => waiting.set(uri, done));
  conn.sendNotification('textDocument/didOpen', { textDocument: { uri, languageId: 'yaml', version: ++version, text } });
  const diagnostics = await result;
  waiting.delete(uri);
  conn.sendNotification('textDocument/didClose', { textDocument: { uri } });
  return diagnostics;
}

/** Opens `text` at `file`, waits for its validation (the schemas are loaded then), and hovers at line:character. */
async function hover(file: string, text: string, line: number, character: number): Promise<string> {
  const uri = pathToFileURL(file).href;
  const validated = new Promise<Diagnostic[]>((done) => waiting.set(uri, done));
  conn.sendNotification('textDocument/didOpen', { textDocument: { uri, languageId: 'yaml', version: ++version, text } });
  await validated;
  waiting.delete(uri);
  const result = await conn.sendRequest<{ contents: { value: string } | string } | null>('textDocument/hover', { textDocument: { uri }, position: { line, character } });
  conn.sendNotification('textDocument/didClose', { textDocument: { uri } });
  if (result === null) return '';
  return typeof result.contents === 'string' ? result.contents : result.contents.value;
}

const SECOND_DOC_TYPO = [
  'kind: IPPolicy',
  'name: office',
  '---',
  'kind: TCPEdge',
  'name: ssh',
  'hostports: ["1.tcp.example.com:20001"]',
  'bakend: {backend_id: web}',
  '',
].join('\n');

describe('yaml-language-server with the documented set-up', () => {
  it('the yaml.schemas glob setting: an unknown field in the second document is a diagnostic on its line', async () => {
    // Settings reach the server asynchronously: a first document may be validated before them, so retry once.
    let found: Diagnostic[] = [];
    for (let attempt = 0; attempt < 5 && found.length === 0; attempt++) {
      found = await diagnose(join(EXAMPLES, 'basic', `typo-${attempt}.yaml`), SECOND_DOC_TYPO);
    }
    expect(found.map((d) => [d.range.start.line, d.message])).toEqual([[6, 'Property bakend is not allowed.']]);
  });

  it('the per-document modeline: each document names the schema', async () => {
    const modeline = '# yaml-language-server: $schema=../../schemas/manifest.schema.json';
    const text = SECOND_DOC_TYPO.split('---\n').map((doc) => `${modeline}\n${doc}`).join('---\n');
    // Outside examples/, so only the modelines apply.
    const found = await diagnose(join(ROOT, 'test', 'editor', 'outside.yml'), text);
    expect(found.map((d) => [d.range.start.line, d.message])).toEqual([[8, 'Property bakend is not allowed.']]);
  });

  it('the examples, every document of them, get no diagnostic', async () => {
    for (const file of ['basic/ip-policy.yaml', 'basic/edges.yaml', 'basic/backends.yaml', 'basic/edgeops.yaml', 'full/https.yaml', 'full/events.yaml', 'tls/edge.yaml']) {
      expect(await diagnose(join(EXAMPLES, file), readFileSync(join(EXAMPLES, file), 'utf8')), file).toEqual([]);
    }
  });

  it('shows the validator\'s messages, never an errorMessage object', async () => {
    // metadata carries an errorMessage for `type` in edgeops' own schema; the published copy leaves it out.
    const found = await diagnose(join(EXAMPLES, 'basic', 'bad-metadata.yaml'), 'kind: IPPolicy\nname: office\n---\nkind: TunnelGroupBackend\nname: web\nlabels: {app: web}\nmetadata: 5\n');
    expect(found.map((d) => [d.range.start.line, d.message])).toEqual([[6, 'Incorrect type. Expected "object(edgeops TunnelGroupBackend) | variable".']]);
    for (const d of found) expect(d.message).not.toContain('{');
  });
});

const THIRD_DOC_TYPO = [
  'kind: IPPolicy',
  'name: office',
  '---',
  'kind: TunnelGroupBackend',
  'name: web',
  'labels: {app: web}',
  '---',
  'kind: TCPEdge',
  'name: ssh',
  'hostports: ["1.tcp.example.com:20001"]',
  'ip_restrictoin: {ip_policy_ids: [office]}',
  '',
].join('\n');

describe('every document of a file is checked, set up as the README says', () => {
  it('the yaml.schemas glob setting: a typo in the third document is a diagnostic on its line', async () => {
    let found: Diagnostic[] = [];
    for (let attempt = 0; attempt < 5 && found.length === 0; attempt++) {
      found = await diagnose(join(EXAMPLES, 'basic', `third-${attempt}.yaml`), THIRD_DOC_TYPO);
    }
    expect(found.map((d) => [d.range.start.line, d.message])).toEqual([[10, 'Property ip_restrictoin is not allowed.']]);
  });

  it('a modeline heading the first document only: fmt repeats it on every document, and the third one is checked', async () => {
    const modeline = '# yaml-language-server: $schema=../../schemas/manifest.schema.json';
    const text = `${modeline}\n${THIRD_DOC_TYPO}`;
    // Outside examples/, so only the modelines apply: as written, the server checks the first document alone.
    expect(await diagnose(join(ROOT, 'test', 'editor', 'one-modeline.yml'), text)).toEqual([]);
    const formatted = formatText(text, 'one-modeline.yml', (kind) => (kind === undefined ? undefined : kindSchemas().get(kind))).text;
    expect(formatted.split('\n').filter((line) => line === modeline)).toHaveLength(3);
    const found = await diagnose(join(ROOT, 'test', 'editor', 'formatted.yml'), formatted);
    expect(found.map((d) => [formatted.split('\n')[d.range.start.line], d.message])).toEqual([
      ['ip_restrictoin: {ip_policy_ids: [office]}', 'Property ip_restrictoin is not allowed.'],
    ]);
  });
});

describe('hovering a key shows what it is', () => {
  const edge = ['kind: TLSEdge', 'name: e', 'hostports: ["1.tls.example.com:443"]', 'backend: {backend_id: web}', 'ip_restriction: {ip_policy_ids: [office]}',
    'mutual_tls: {certificate_authority_ids: [ca]}', 'tls_termination: {terminate_at: edge}', 'policy: {inbound: []}', ''].join('\n');

  it.each([
    [3, 'backend', contractKind('tls_edge').create.properties!.backend!.description!],
    [4, 'ip_restriction', contractKind('tls_edge').create.properties!.ip_restriction!.description!],
    [5, 'mutual_tls', contractKind('tls_edge').create.properties!.mutual_tls!.description!],
    [6, 'tls_termination', contractKind('tls_edge').create.properties!.tls_termination!.description!],
    [7, 'policy', contractKind('tls_edge').create.properties!.policy!.description!],
  ])('line %i, the module key %s: the contract\'s description', async (line, key, description) => {
    expect(description.length).toBeGreaterThan(20);
    let shown = '';
    for (let attempt = 0; attempt < 5 && !shown.includes(description); attempt++) {
      shown = await hover(join(EXAMPLES, 'basic', `hover-${key}-${attempt}.yaml`), edge, line, 2);
    }
    expect(shown).toContain(description);
  });
});

describe('environments: typed values and Patch documents', () => {
  it('a template in a string field, a var in a list field and a Patch validate; so do examples/environments', async () => {
    const text = [
      'kind: HTTPSEdge', 'name: api', 'description: {template: "the API of ${domain}"}', 'hostports: {var: api_hostports}', '---',
      'kind: TCPEdge', 'name: ssh', 'hostports: [{template: "1.tcp.${domain}:20001"}]', 'backend: {backend_id: {var: backend}}', '---',
      'kind: Patch', 'target: HTTPSEdge/api', 'set:', '  tls_termination: {min_version: "1.3"}', '  description: null', '---',
      'kind: Patch', 'target: TCPEdge/ssh', 'remove: true', '',
    ].join('\n');
    expect(await diagnose(join(EXAMPLES, 'environments', 'typed.yaml'), text)).toEqual([]);
    for (const file of ['base/edges.yaml', 'base/backends.yaml', 'base/access.yaml', 'base/edgeops.yaml', 'prod/patches.yaml', 'prod/edgeops.yaml', 'staging/edgeops.yaml']) {
      expect(await diagnose(join(EXAMPLES, 'environments', file), readFileSync(join(EXAMPLES, 'environments', file), 'utf8')), file).toEqual([]);
    }
  });

  it('a typo inside a Patch\'s set is flagged on its line, and so is a template where a number goes', async () => {
    const text = [
      'kind: Patch', 'target: HTTPSEdge/api', 'set:', '  tls_termination: {min_version: "1.3"}', '  hostport: ["api.example.com:443"]', '---',
      'kind: HTTPResponseBackend', 'name: down', 'body: down', 'status_code: {template: "50${x}"}', '',
    ].join('\n');
    const found = await diagnose(join(EXAMPLES, 'environments', 'typo.yaml'), text);
    expect(found.map((d) => [text.split('\n')[d.range.start.line], d.message])).toEqual([
      ['  hostport: ["api.example.com:443"]', 'Property hostport is not allowed.'],
      ['status_code: {template: "50${x}"}', 'Incorrect type. Expected "integer".'],
    ]);
  });

  it('hovering a new edgeops.yaml key shows its description', async () => {
    const text = 'stack: edge-prod\nenvironment: prod\napi_key_env: EDGEOPS_API_KEY_PROD\nbase: [../base]\nvars: {domain: example.com}\n';
    const description = (projectSchema().properties as Record<string, { description: string }>).api_key_env!.description;
    let shown = '';
    // Markdown: the server escapes the underscores.
    for (let attempt = 0; attempt < 5 && !shown.includes(description); attempt++) shown = (await hover(join(EXAMPLES, 'environments', `hover-${attempt}`, 'edgeops.yaml'), text, 2, 2)).replace(/\\_/g, '_');
    expect(shown).toContain(description);
  });
});
