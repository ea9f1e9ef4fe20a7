// edgeops.yaml: the project file at a root, its schema errors, and several roots that must agree.
import { describe, expect, it } from 'vitest';
import { readDesiredState } from '../../src/manifest/read-desired.ts';
import { errorLines, readTree, writeTree, yaml } from './tree.ts';

describe('edgeops.yaml', () => {
  it('reads every setting', async () => {
    const state = await readTree({
      'p.yaml': yaml('kind: IPPolicy', 'name: p'),
      'edgeops.yaml': yaml(
        '# yaml-language-server: $schema=../schemas/edgeops.schema.json',
        'stack: staging-eu',
        'api_url: https://api.example.com/v2',
        'concurrency: 16',
        'max_deletes: 0',
        'max_deletes_per_kind: {TCPEdge: 2, IPPolicyRule: 20}',
      ),
    });
    expect(state.config).toEqual({
      file: 'edgeops.yaml',
      stack: 'staging-eu',
      api_url: 'https://api.example.com/v2',
      concurrency: 16,
      max_deletes: 0,
      max_deletes_per_kind: { TCPEdge: 2, IPPolicyRule: 20 },
    });
  });

  it('reports every bad setting at its position', async () => {
    expect(
      await errorLines({
        'edgeops.yaml': yaml(
          'stack: Prod',
          'api_url: ftp://example.com',
          'concurrency: 0',
          'max_deletes: -1',
          'max_deletes_per_kind: {TcpEdge: 1, IPPolicy: 1.5}',
          'api_key: not-here',
          'stak: x',
        ),
      }),
    ).toEqual([
      'edgeops.yaml:1:8: stack: "Prod" must be lower-case letters, digits and "-", at most 64 characters',
      'edgeops.yaml:2:10: api_url: "ftp://example.com" is not an http(s) URL',
      'edgeops.yaml:3:14: concurrency: must be between 1 and 256',
      'edgeops.yaml:4:14: max_deletes: must be at least 0',
      'edgeops.yaml:5:24: max_deletes_per_kind: "TcpEdge" is not a kind (did you mean "TCPEdge"?)',
      'edgeops.yaml:5:46: max_deletes_per_kind.IPPolicy: must be an integer',
      'edgeops.yaml:6:10: api_key: does not belong in edgeops.yaml (keys stay out of git): set EDGEOPS_API_KEY or --api-key',
      'edgeops.yaml:7:1: unknown field "stak" (did you mean "stack"?)',
    ]);
  });

  it('holds one mapping document', async () => {
    expect(await errorLines({ 'edgeops.yaml': yaml('stack: a', '---', 'stack: b') })).toEqual([
      'edgeops.yaml:3:1: the project file holds one document',
    ]);
    expect(await errorLines({ 'edgeops.yaml': yaml('- stack: a') })).toEqual([
      'edgeops.yaml:1:1: a document must be a mapping (kind, name and the fields of the resource)',
    ]);
    expect(await errorLines({ 'edgeops.yaml': yaml('stack: [a') })).toHaveLength(1);
  });

  it('is empty when absent or empty', async () => {
    const doc = yaml('kind: IPPolicy', 'name: p');
    expect((await readTree({ 'p.yaml': doc, 'edgeops.yaml': '# nothing yet\n' })).config).toEqual({});
    expect((await readTree({ 'p.yaml': doc })).config).toEqual({});
  });

  it('lets the project files of several roots agree, and reports where they differ', async () => {
    const cwd = writeTree({
      'a/edgeops.yaml': yaml('stack: prod', 'concurrency: 4'),
      'b/edgeops.yaml': yaml('stack: prod', 'max_deletes: 2'),
      'c/edgeops.yml': yaml('stack: dev'),
      'a/p.yaml': yaml('kind: IPPolicy', 'name: a'),
      'b/p.yaml': yaml('kind: IPPolicy', 'name: b'),
      'c/p.yaml': yaml('kind: IPPolicy', 'name: c'),
    });
    expect((await readDesiredState(['a', 'b'], { cwd, env: {} })).config).toEqual({
      file: 'a/edgeops.yaml',
      stack: 'prod',
      concurrency: 4,
      max_deletes: 2,
    });
    const err = await readDesiredState(['a', 'c'], { cwd, env: {} }).catch((e: Error) => e);
    expect((err as Error).message).toBe('c/edgeops.yml:1:1: stack: differs from the value in a/edgeops.yaml (the paths of one run must use the same settings)');
  });

  it('counts the stack from the file against the metadata limit', async () => {
    const overhead = '{"k":"","edgeops":{"stack":"default","name":"IPPolicy/p"}}'.length;
    const doc = yaml('kind: IPPolicy', 'name: p', `metadata: {k: ${'x'.repeat(4096 - overhead)}}`);
    expect((await readTree({ 'm.yaml': doc, 'edgeops.yaml': yaml('stack: default') })).resources).toHaveLength(1);
    expect(await errorLines({ 'm.yaml': doc, 'edgeops.yaml': yaml('stack: defaults') })).toEqual([
      'm.yaml:3:11: IPPolicy/p: metadata: is 4097 bytes as stored with the ownership marker, at most 4096 are allowed',
    ]);
    // Flag > environment > file.
    const cwd = writeTree({ 'm.yaml': doc, 'edgeops.yaml': yaml('stack: defaults') });
    await expect(readDesiredState(['.'], { cwd, env: { EDGEOPS_STACK: 'default' } })).resolves.toBeDefined();
    await expect(readDesiredState(['.'], { cwd, env: { EDGEOPS_STACK: 'defaults' }, stack: 'default' })).resolves.toBeDefined();
  });
});
