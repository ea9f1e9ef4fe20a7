// Which paths hold part of a stack: the stack root is the directory of the edgeops.yaml a path uses, and its
// manifests are those a run at the root reads; the paths of a run must read all of them.
import { symlinkSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { PartialStackError } from '../../src/errors.ts';
import { readDesiredState } from '../../src/manifest/read-desired.ts';
import { assertWholeStacks } from '../../src/manifest/stack-coverage.ts';
import { writeTree } from './tree.ts';

const policy = (name: string): string => `kind: IPPolicy\nname: ${name}\n`;

const tree = (): string => writeTree({
  'infra/edgeops.yaml': 'stack: infra\n',
  'infra/a.yaml': policy('a'),
  'infra/edges/b.yaml': policy('b'),
  'infra/notes.md': '# not a manifest\n',
  'infra/team/edgeops.yaml': 'stack: team\n',
  'infra/team/t.yaml': policy('t'),
  'loose/l.yaml': policy('l'),
});

/** What assertWholeStacks throws for a plan of `paths`, if anything. */
function refusal(paths: string[], cwd: string): Error | undefined {
  try {
    assertWholeStacks(paths, cwd, 'plan');
    return undefined;
  } catch (err) {
    return err as Error;
  }
}

describe('assertWholeStacks', () => {
  it('passes a root, every file of it, and a path that uses no edgeops.yaml', () => {
    const cwd = tree();
    for (const paths of [['infra'], ['infra/a.yaml', 'infra/edges', 'infra/team'], ['infra/a.yaml', 'infra'], ['loose/l.yaml'], ['infra/team'], ['infra/team/t.yaml']]) {
      expect(() => assertWholeStacks(paths, cwd, 'plan'), paths.join(' ')).not.toThrow();
    }
  });

  it('names the root, the paths inside it and every manifest left out, a nested root\'s included', () => {
    const cwd = tree();
    const err = refusal(['infra/edges/b.yaml', 'loose'], cwd);
    expect(err).toBeInstanceOf(PartialStackError);
    expect(err!.message.split('\n')).toEqual([
      'refusing to plan part of a stack: a plan deletes each resource of the stack that no document given states, so this one would delete the resources of the manifests left out.',
      '  infra/edges/b.yaml is inside the stack root infra (infra/edgeops.yaml), which also holds these 2 manifests:',
      '    infra/a.yaml',
      '    infra/team/t.yaml',
      'Plan the whole stack: edgeops plan infra',
      'To delete resources of a stack, remove their documents and plan the whole stack.',
    ]);
  });

  it('counts a file reached through a symbolic link as the file itself', () => {
    const cwd = tree();
    symlinkSync(join(cwd, 'infra/a.yaml'), join(cwd, 'a-link.yaml'));
    expect(() => assertWholeStacks(['a-link.yaml', 'infra/edges', 'infra/team'], cwd, 'plan')).not.toThrow();
  });

  it('is refused by readDesiredState only when asked for whole stacks', async () => {
    const cwd = tree();
    await expect(readDesiredState(['infra/a.yaml'], { cwd, env: {} })).resolves.toBeDefined();
    const err = await readDesiredState(['infra/a.yaml'], { cwd, env: {}, wholeStacks: 'drift' }).catch((e: unknown) => e);
    expect(err).toBeInstanceOf(PartialStackError);
    expect((err as PartialStackError).code).toBe('E_PARTIAL_STACK');
    // Worded for the command that refused it.
    expect((err as PartialStackError).message).toMatch(/^refusing to check part of a stack for drift: /);
    expect((err as PartialStackError).message).toContain('\nCheck the whole stack: edgeops drift infra\n');
  });
});
