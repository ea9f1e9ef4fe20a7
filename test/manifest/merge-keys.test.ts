// YAML merge keys (`<<`) in manifests: loaded as yaml's toJS merges them (written keys win, the first merged
// mapping wins), and every merged value keeps the position where it is written, so errors in it point at text.
import { describe, expect, it } from 'vitest';
import { parseAllDocuments } from 'yaml';
import { loadManifests } from '../../src/manifest/read-desired.ts';
import { YAML_OPTIONS } from '../../src/manifest/parse/yaml-tree.ts';
import { keyPos, valuePos } from '../../src/manifest/pointer.ts';
import { errorLines, readTree, writeTree, yaml } from './tree.ts';

const at = (pos: { file: string; line: number; col: number }) => `${pos.file}:${pos.line}:${pos.col}`;
const load = (text: string) => loadManifests(['.'], { cwd: writeTree({ 'm.yaml': text }) });

describe('merge keys', () => {
  const backend = yaml(
    'kind: TunnelGroupBackend',
    'name: web',
    'metadata: &lbl {app: web, dc: eu-1}',
    'labels: {<<: *lbl, dc: eu-2}',
  );

  it('loads `{<<: *lbl, dc: eu-2}` as the merged mapping, the written key winning', () => {
    const { docs, issues } = load(backend);
    expect(issues).toEqual([]);
    expect(docs[0]!.fields.labels).toEqual({ app: 'web', dc: 'eu-2' });
  });

  it('places each merged value where it is written: under the anchor, or the written key', () => {
    const doc = load(backend).docs[0]!;
    expect(at(valuePos(doc, '/labels/app'))).toBe('m.yaml:3:22');
    expect(at(keyPos(doc, '/labels/app'))).toBe('m.yaml:3:17');
    expect(at(valuePos(doc, '/labels/dc'))).toBe('m.yaml:4:24');
    expect(at(valuePos(doc, '/labels'))).toBe('m.yaml:4:9');
  });

  it('merges as yaml does: written keys before or after the merge win, the first of a list of sources wins', () => {
    const text = yaml(
      'kind: TunnelGroupBackend',
      'name: web',
      'metadata: &a {x: 1, y: 1}',
      'labels:',
      '  z: before',
      '  <<: [*a, {x: "2", z: "3", w: "4"}]',
      '  y: after',
    );
    const { docs, issues } = load(text);
    expect(issues).toEqual([]);
    const expected = parseAllDocuments(text, YAML_OPTIONS)[0]!.toJS() as Record<string, unknown>;
    expect(docs[0]!.fields.labels).toEqual(expected.labels);
    expect(docs[0]!.fields.labels).toEqual({ z: 'before', x: 1, y: 'after', w: '4' });
    // The position of an overridden key is the written one, not the merged one's.
    expect(at(valuePos(docs[0]!, '/labels/y'))).toBe('m.yaml:7:6');
    expect(at(valuePos(docs[0]!, '/labels/w'))).toBe('m.yaml:6:32');
  });

  it('an error inside a merged value points at the value under its anchor', async () => {
    const lines = await errorLines({
      'edge.yaml': yaml(
        'kind: TCPEdge',
        'name: a',
        'hostports: ["1.tcp.example.com:20001"]',
        'backend: &be {backend_id: bkdtg_1, enabled: "yes"}',
        '---',
        'kind: TCPEdge',
        'name: b',
        'hostports: ["1.tcp.example.com:20002"]',
        'policy:',
        '  inbound:',
        '    - &rule {name: r, actions: [{type: deny, configx: 1}]}',
        '  outbound:',
        '    - {<<: *rule, name: o}',
      ),
    });
    expect(lines).toEqual([
      'edge.yaml:4:45: TCPEdge/a: backend.enabled: must be true or false',
      'edge.yaml:11:46: TCPEdge/b: policy.inbound[0].actions[0]: unknown field "configx" (did you mean "config"?)',
      'edge.yaml:11:46: TCPEdge/b: policy.outbound[0].actions[0]: unknown field "configx" (did you mean "config"?)',
    ]);
  });

  it('refuses a merge of something that is not a mapping, at its position', () => {
    expect(load(yaml('kind: IPPolicy', 'name: p', 'metadata: {<<: [x]}')).issues.map((i) => `${at(i.pos)}: ${i.message}`)).toEqual([
      'm.yaml:3:17: a merge key ("<<") takes a mapping, an alias of one, or a list of them',
    ]);
  });

  it('a quoted "<<" is an ordinary key', async () => {
    expect(await errorLines({ 'm.yaml': yaml('kind: IPPolicy', 'name: p', '"<<": {description: x}') })).toEqual([
      'm.yaml:3:1: IPPolicy/p: unknown field "<<"',
    ]);
  });

  it('a merged document plans like the same fields written out', async () => {
    const merged = await readTree({ 'm.yaml': backend });
    const written = await readTree({
      'm.yaml': yaml('kind: TunnelGroupBackend', 'name: web', 'metadata: {app: web, dc: eu-1}', 'labels: {app: web, dc: eu-2}'),
    });
    expect(merged.resources.map((r) => r.spec)).toEqual(written.resources.map((r) => r.spec));
  });
});
