// `--local` keeps its database out of git: when it creates .edgeops/ inside a git work tree, it adds
// `.edgeops/` to the .gitignore beside it (once, keeping what the file held), and says so on stderr. Outside a
// work tree, or where a .gitignore up the tree already ignores it, nothing is written.
import { existsSync, mkdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { copyExample, edgeops } from './run.ts';

let disposers: (() => void)[] = [];
afterEach(() => {
  for (const d of disposers) d();
  disposers = [];
});

function example(): string {
  const copy = copyExample('basic');
  disposers.push(copy.dispose);
  return copy.dir;
}

describe('--local and .gitignore', () => {
  it('inside a git work tree: appends .edgeops/ to the .gitignore beside it, once, keeping its lines', async () => {
    const dir = example();
    mkdirSync(join(dir, '..', '.git')); // the work tree's root is the example's parent
    writeFileSync(join(dir, '.gitignore'), 'dist');
    const first = await edgeops(['plan', dir, '--local']);
    expect(first.code, first.stderr).toBe(0);
    expect(readFileSync(join(dir, '.gitignore'), 'utf8')).toBe("dist\n# edgeops --local: the embedded service's database\n.edgeops/\n");
    expect(first.stderr).toContain(`created .edgeops/ for the local database and added it to ${join(dir, '.gitignore')}`);
    rmSync(join(dir, '.edgeops'), { recursive: true });
    const again = await edgeops(['plan', dir, '--local']);
    expect(again.code, again.stderr).toBe(0);
    expect(readFileSync(join(dir, '.gitignore'), 'utf8').match(/\.edgeops\//g)).toHaveLength(1);
    expect(again.stderr).not.toContain('.gitignore');
  });

  it('a .gitignore higher up that ignores .edgeops is enough; outside a work tree nothing is written', async () => {
    const dir = example();
    mkdirSync(join(dir, '..', '.git'));
    writeFileSync(join(dir, '..', '.gitignore'), 'node_modules/\n.edgeops/\n');
    expect((await edgeops(['plan', dir, '--local'])).code).toBe(0);
    expect(existsSync(join(dir, '.gitignore'))).toBe(false);

    const outside = example();
    const r = await edgeops(['plan', outside, '--local']);
    expect(r.code).toBe(0);
    expect(existsSync(join(outside, '.edgeops'))).toBe(true);
    expect(existsSync(join(outside, '.gitignore'))).toBe(false);
  });
});
