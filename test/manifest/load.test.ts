// The loader: files found, documents read, and the exact position of every value.
import { mkdirSync, symlinkSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { formatIssue } from '../../src/errors.ts';
import { loadManifests } from '../../src/manifest/read-desired.ts';
import { MAX_ALIAS_VALUES } from '../../src/manifest/parse/yaml-tree.ts';
import { keyPos } from '../../src/manifest/pointer.ts';
import { writeTree, yaml } from './tree.ts';

const load = (files: Record<string, string>, paths = ['.']) => {
  const cwd = writeTree(files);
  return { cwd, ...loadManifests(paths, { cwd }) };
};
const at = (pos: { file: string; line: number; col: number } | undefined) => pos && `${pos.file}:${pos.line}:${pos.col}`;
const messages = (issues: Parameters<typeof formatIssue>[0][]) => issues.map(formatIssue);

describe('positions', () => {
  const text = yaml(
    'kind: TCPEdge',
    'name: ssh',
    'hostports:',
    '  - "1.tcp.example.com:20001"',
    '  - 2.tcp.example.com:20002',
    'backend:',
    '  enabled: true',
    '  backend_id: web',
    'ip_restriction: {ip_policy_ids: [office, ipp_1]}',
    'policy:',
    '  inbound:',
    '    - name: deny-bots',
    '      actions: [{type: deny, config: {status_code: 403}}]',
  );

  it('keeps the 1-based line and column of every nested value by JSON pointer', () => {
    const { docs, issues } = load({ 'edge.yaml': text });
    expect(issues).toEqual([]);
    const doc = docs[0]!;
    const p = (ptr: string) => at(doc.positions.get(ptr));
    expect(at(doc.pos)).toBe('edge.yaml:1:1');
    expect(p('/kind')).toBe('edge.yaml:1:7');
    expect(p('/hostports')).toBe('edge.yaml:4:3');
    expect(p('/hostports/0')).toBe('edge.yaml:4:5');
    expect(p('/hostports/1')).toBe('edge.yaml:5:5');
    expect(p('/backend')).toBe('edge.yaml:7:3');
    expect(p('/backend/backend_id')).toBe('edge.yaml:8:15');
    expect(p('/ip_restriction/ip_policy_ids/0')).toBe('edge.yaml:9:34');
    expect(p('/ip_restriction/ip_policy_ids/1')).toBe('edge.yaml:9:42');
    expect(p('/policy/inbound/0/actions/0/config/status_code')).toBe('edge.yaml:13:52');
    expect(at(keyPos(doc, '/backend/backend_id'))).toBe('edge.yaml:8:3');
    expect(doc.fields).toEqual({
      hostports: ['1.tcp.example.com:20001', '2.tcp.example.com:20002'],
      backend: { enabled: true, backend_id: 'web' },
      ip_restriction: { ip_policy_ids: ['office', 'ipp_1'] },
      policy: { inbound: [{ name: 'deny-bots', actions: [{ type: 'deny', config: { status_code: 403 } }] }] },
    });
    expect(doc.kind).toBe('TCPEdge');
    expect(doc.name).toBe('ssh');
  });

  it('positions documents of a multi-document file and of several files', () => {
    const { docs, cwd } = load({
      'b/two.yml': yaml('# leading comment', '---', 'kind: IPPolicy', 'name: office', '---', '', '---', 'kind: IPPolicy', 'name: lab'),
      'a.yaml': yaml('kind: TunnelGroupBackend', 'name: web', 'labels:', '  app: web'),
    });
    expect(docs.map((d) => `${d.kind}/${d.name}@${at(d.pos)}`)).toEqual([
      'TunnelGroupBackend/web@a.yaml:1:1',
      'IPPolicy/office@b/two.yml:3:1',
      'IPPolicy/lab@b/two.yml:8:1',
    ]);
    expect(at(docs[0]!.positions.get('/labels/app'))).toBe('a.yaml:4:8');
    expect(docs[1]!.dir).toBe(join(cwd, 'b'));
  });

  it('escapes "/" and "~" in keys as JSON pointers do', () => {
    const { docs } = load({ 'x.yaml': yaml('kind: TunnelGroupBackend', 'name: web', 'labels: {"a/b": x, "c~d": y}') });
    expect(at(docs[0]!.positions.get('/labels/a~1b'))).toBe('x.yaml:3:17');
    expect(at(docs[0]!.positions.get('/labels/c~0d'))).toBe('x.yaml:3:27');
  });

  it('expands aliases, placing the alias value at the alias', () => {
    const { docs, issues } = load({
      'x.yaml': yaml('kind: TunnelGroupBackend', 'name: web', 'metadata: &m {team: web}', 'labels: *m'),
    });
    expect(issues).toEqual([]);
    expect(docs[0]!.fields).toEqual({ metadata: { team: 'web' }, labels: { team: 'web' } });
    expect(at(docs[0]!.positions.get('/labels'))).toBe('x.yaml:4:9');
  });

  it('keeps a key named __proto__ as a plain field', () => {
    const { docs } = load({ 'x.yaml': yaml('kind: TunnelGroupBackend', 'name: web', 'labels: {__proto__: x}') });
    const labels = docs[0]!.fields.labels as Record<string, unknown>;
    expect(Object.keys(labels)).toEqual(['__proto__']);
    expect(Object.getPrototypeOf(labels)).toBe(Object.prototype);
  });
});

describe('files', () => {
  it('reads *.yaml and *.yml recursively in sorted order, skipping node_modules, .edgeops, dot-dirs and dot-files', () => {
    const doc = (name: string) => yaml('kind: IPPolicy', `name: ${name}`);
    const { docs } = load({
      'z.yaml': doc('z'),
      'a/b.yml': doc('ab'),
      'a/a.yaml': doc('aa'),
      'a.yaml': doc('a'),
      'notes.txt': doc('txt'),
      'node_modules/pkg/x.yaml': doc('nm'),
      '.edgeops/state.yaml': doc('state'),
      '.github/ci.yml': doc('gh'),
      '.gitlab-ci.yml': doc('dot'),
    });
    // Entries sort by name: the directory `a` comes before the file `a.yaml`.
    expect(docs.map((d) => d.name)).toEqual(['aa', 'ab', 'a', 'z']);
  });

  it('reads a file named on the command line whatever its extension, once even if named twice', () => {
    const { docs } = load({ 'x.txt': yaml('kind: IPPolicy', 'name: a'), 'dir/y.yaml': yaml('kind: IPPolicy', 'name: b') }, [
      'x.txt',
      'dir',
      'dir/y.yaml',
    ]);
    expect(docs.map((d) => d.name)).toEqual(['a', 'b']);
  });

  it('reports a path that does not exist and still reads the others', () => {
    const { docs, issues } = load({ 'a.yaml': yaml('kind: IPPolicy', 'name: a') }, ['missing', 'a.yaml']);
    expect(docs).toHaveLength(1);
    expect(messages(issues)).toEqual(['missing:1:1: cannot read: does not exist']);
  });

  it('reports a broken symbolic link', () => {
    const cwd = writeTree({ 'a.yaml': yaml('kind: IPPolicy', 'name: a') });
    symlinkSync(join(cwd, 'nowhere.yaml'), join(cwd, 'b.yaml'));
    expect(messages(loadManifests(['.'], { cwd }).issues)).toEqual(['b.yaml:1:1: cannot read: does not exist']);
  });

  it('does not loop on a directory symlinked into itself', () => {
    const cwd = writeTree({ 'd/a.yaml': yaml('kind: IPPolicy', 'name: a') });
    symlinkSync(join(cwd, 'd'), join(cwd, 'd', 'again'));
    const { docs, issues } = loadManifests(['.'], { cwd });
    expect(issues).toEqual([]);
    expect(docs.map((d) => d.name)).toEqual(['a']);
  });

  it('names files relative to the working directory', () => {
    const cwd = writeTree({ 'infra/edge/a.yaml': yaml('kind: IPPolicy', 'name: a', 'oops: [') });
    const { issues } = loadManifests(['.'], { cwd: join(cwd, 'infra', 'edge') });
    expect(issues[0]!.pos.file).toBe('a.yaml');
    expect(loadManifests(['infra'], { cwd }).issues[0]!.pos.file).toBe(join('infra', 'edge', 'a.yaml'));
  });

  it('never reads edgeops.yaml as resources; one below a root belongs to a run at that directory', () => {
    const cwd = writeTree({
      'edgeops.yaml': yaml('stack: prod'),
      'sub/edgeops.yaml': yaml('stack: other'),
      'sub/edgeops.yml': yaml('kind: IPPolicy'),
      'sub/a.yaml': yaml('kind: IPPolicy', 'name: a'),
    });
    const { docs, config, issues } = loadManifests(['.'], { cwd });
    expect(issues).toEqual([]);
    expect(docs.map((d) => d.name)).toEqual(['a']);
    expect(config).toEqual({ stack: 'prod', file: 'edgeops.yaml' });
    expect(loadManifests(['sub'], { cwd }).config.stack).toBe('other');
  });
});

describe('document errors', () => {
  const issuesOf = (files: Record<string, string>) => messages(load(files).issues);

  it('reports YAML syntax errors with positions and still reads the other documents and files', () => {
    const { docs, issues } = load({
      'a.yaml': yaml('kind: IPPolicy', 'name: a', '---', 'kind: IPPolicy', 'name: [b', '---', 'kind: IPPolicy', 'name: c'),
      'b.yaml': yaml('kind: IPPolicy', 'name: d'),
    });
    expect(docs.map((d) => d.name)).toEqual(['a', 'c', 'd']);
    expect(messages(issues)).toHaveLength(1);
    expect(messages(issues)[0]).toMatch(/^a\.yaml:6:1: invalid YAML: /);
  });

  it('reports a duplicate key at the second occurrence', () => {
    expect(issuesOf({ 'a.yaml': yaml('kind: IPPolicy', 'name: a', 'description: x', 'description: y') })).toEqual([
      'a.yaml:4:1: duplicate key "description"',
    ]);
  });

  it('reports documents that are not mappings and skips empty ones', () => {
    expect(issuesOf({ 'a.yaml': yaml('- kind: IPPolicy', '---', '~', '---', 'just text', '---') })).toEqual([
      'a.yaml:1:1: a document must be a mapping (kind, name and the fields of the resource)',
      'a.yaml:5:1: a document must be a mapping (kind, name and the fields of the resource)',
    ]);
  });

  it('reports a missing or non-string kind, and a non-string name', () => {
    expect(
      issuesOf({ 'a.yaml': yaml('name: a', '---', 'kind: [IPPolicy]', 'name: b', '---', 'kind: IPPolicy', 'name: 42') }),
    ).toEqual([
      'a.yaml:1:1: missing field "kind"',
      'a.yaml:3:7: kind: must be a string',
      'a.yaml:7:7: IPPolicy/42: name: must be a string (put it in quotes)',
    ]);
  });

  it('refuses complex keys and non-JSON numbers', () => {
    expect(issuesOf({ 'a.yaml': yaml('kind: IPPolicy', 'name: a', '? [x]', ': 1') })).toEqual([
      'a.yaml:3:3: mapping keys must be plain strings',
    ]);
    expect(issuesOf({ 'a.yaml': yaml('kind: IPPolicy', 'name: a', 'description: .inf') })).toEqual([
      'a.yaml:3:14: numbers must be finite (.inf and .nan have no JSON form)',
    ]);
  });

  it('stops an alias expansion bomb', () => {
    const levels = ['a: &a [x, x, x, x, x, x, x, x, x, x]'];
    for (let i = 1; i < 8; i++) {
      const prev = String.fromCharCode(96 + i);
      const cur = String.fromCharCode(97 + i);
      levels.push(`${cur}: &${cur} [${Array(10).fill(`*${prev}`).join(', ')}]`);
    }
    const { docs, issues } = load({ 'bomb.yaml': yaml('kind: IPPolicy', 'name: bomb', 'metadata:', ...levels.map((l) => `  ${l}`)) });
    expect(docs).toEqual([]);
    expect(issues).toHaveLength(1);
    expect(issues[0]!.message).toBe(`aliases expand to more than ${MAX_ALIAS_VALUES} values`);
  });

  it('reports an alias inside the value it names', () => {
    expect(issuesOf({ 'a.yaml': yaml('kind: IPPolicy', 'name: a', 'metadata: &m {self: *m}') })).toEqual([
      'a.yaml:3:21: alias *m refers to a value that contains it',
    ]);
  });

  it('reports an unreadable file', () => {
    const cwd = writeTree({});
    mkdirSync(join(cwd, 'dir.yaml'));
    writeFileSync(join(cwd, 'dir.yaml', 'ok.yaml'), yaml('kind: IPPolicy', 'name: a'));
    // A directory named *.yaml is walked, not read as a file.
    expect(loadManifests(['.'], { cwd }).issues).toEqual([]);
    expect(messages(loadManifests(['dir.yaml/ok.yaml/x'], { cwd }).issues)).toEqual([
      `${join('dir.yaml', 'ok.yaml', 'x')}:1:1: cannot read: does not exist`,
    ]);
  });
});
