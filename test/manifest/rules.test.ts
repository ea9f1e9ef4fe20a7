// Rules beyond the schema: kinds, names, duplicates, and the byte limits of description and metadata.
import { describe, expect, it } from 'vitest';
import { errorLines, readTree, yaml } from './tree.ts';

describe('kinds and names', () => {
  it('reports an unknown kind, suggesting a near miss', async () => {
    expect(await errorLines({ 'm.yaml': yaml('kind: IpPolicy', 'name: a', '---', 'kind: Gateway', 'name: b') })).toEqual([
      'm.yaml:1:7: IpPolicy/a: unknown kind "IpPolicy" (did you mean "IPPolicy"?)',
      'm.yaml:4:7: Gateway/b: unknown kind "Gateway"',
    ]);
  });

  it('reports a duplicate Kind/name at both documents, across files', async () => {
    expect(
      await errorLines({
        'a.yaml': yaml('kind: IPPolicy', 'name: office'),
        'b/c.yaml': yaml('kind: IPPolicy', 'name: lab', '---', 'kind: IPPolicy', 'name: office'),
      }),
    ).toEqual([
      'a.yaml:2:7: IPPolicy/office: defined more than once: also at b/c.yaml:5:7',
      'b/c.yaml:5:7: IPPolicy/office: defined more than once: also at a.yaml:2:7',
    ]);
  });

  it('allows one name in two kinds', async () => {
    const state = await readTree({ 'a.yaml': yaml('kind: IPPolicy', 'name: web', '---', 'kind: TunnelGroupBackend', 'name: web', 'labels: {}') });
    expect(state.resources.map((r) => r.address)).toEqual(['IPPolicy/web', 'TunnelGroupBackend/web']);
  });

  it('reports names with "_" as such, and other bad names', async () => {
    const long = 'a'.repeat(65);
    expect(
      await errorLines({
        'm.yaml': yaml('kind: IPPolicy', 'name: my_policy', '---', 'kind: IPPolicy', 'name: Office', '---', 'kind: IPPolicy', `name: ${long}`, '---', 'kind: IPPolicy', 'name: -a'),
      }),
    ).toEqual([
      'm.yaml:2:7: IPPolicy/my_policy: name "my_policy" must not contain "_" (a value with "_" is read as a literal id)',
      'm.yaml:5:7: IPPolicy/Office: name "Office" must be lower-case letters, digits and "-", at most 64 characters, starting and ending with a letter or digit',
      `m.yaml:8:7: IPPolicy/${long}: name "${long}" must be lower-case letters, digits and "-", at most 64 characters, starting and ending with a letter or digit`,
      'm.yaml:11:7: IPPolicy/-a: name "-a" must be lower-case letters, digits and "-", at most 64 characters, starting and ending with a letter or digit',
    ]);
  });
});

describe('byte limits', () => {
  it('counts description bytes, not characters', async () => {
    const ascii = 'd'.repeat(255);
    const accented = 'é'.repeat(128); // 128 characters, 256 bytes
    expect(
      await errorLines({
        'm.yaml': yaml('kind: IPPolicy', 'name: a', `description: ${ascii}`, '---', 'kind: IPPolicy', 'name: b', `description: ${accented}`, '---', 'kind: IPPolicy', 'name: c', `description: ${ascii}dd`),
      }),
    ).toEqual([
      'm.yaml:7:14: IPPolicy/b: description: is 256 bytes, at most 255 are allowed',
      'm.yaml:11:14: IPPolicy/c: description: is 257 bytes, at most 255 are allowed',
    ]);
  });

  it('counts metadata as stored, with the ownership marker naming stack and resource', async () => {
    // {"k":"<n x>","edgeops":{"stack":"default","name":"IPPolicy/p"}}
    const overhead = '{"k":"","edgeops":{"stack":"default","name":"IPPolicy/p"}}'.length;
    const fits = yaml('kind: IPPolicy', 'name: p', `metadata: {k: ${'x'.repeat(4096 - overhead)}}`);
    expect((await readTree({ 'm.yaml': fits })).resources).toHaveLength(1);
    const over = yaml('kind: IPPolicy', 'name: p', `metadata: {k: ${'x'.repeat(4097 - overhead)}}`);
    expect(await errorLines({ 'm.yaml': over })).toEqual([
      'm.yaml:3:11: IPPolicy/p: metadata: is 4097 bytes as stored with the ownership marker, at most 4096 are allowed',
    ]);
    // The same metadata with a longer stack name no longer fits.
    expect(await errorLines({ 'm.yaml': fits }, { env: { EDGEOPS_STACK: 'production' } })).toEqual([
      'm.yaml:3:11: IPPolicy/p: metadata: is 4099 bytes as stored with the ownership marker, at most 4096 are allowed',
    ]);
  });

  it('reserves the metadata key "edgeops"', async () => {
    expect(await errorLines({ 'm.yaml': yaml('kind: IPPolicy', 'name: p', 'metadata:', '  edgeops: {stack: x}') })).toEqual([
      'm.yaml:4:12: IPPolicy/p: metadata: the key "edgeops" is reserved for edgeops\' ownership marker',
    ]);
  });
});
