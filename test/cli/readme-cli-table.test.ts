// The README's CLI table is where a user looks up a flag: every option of every command the help lists is on
// its command's row, or in the table of options the commands share.
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { buildProgram } from '../../src/cli/program.ts';

const readme = readFileSync(join(import.meta.dirname, '../../README.md'), 'utf8');
const start = readme.indexOf('\n## The CLI\n');
const section = readme.slice(start, readme.indexOf('\n## ', start + 1));
const shared = section.slice(section.indexOf('| flag | environment |'));
const program = await buildProgram({ out: () => {}, err: () => {} } as never, () => {});
const visible = program.commands.filter((c) => !(c as unknown as { _hidden: boolean })._hidden);

describe('the README CLI table', () => {
  it.each(visible.map((c) => [c.name(), c] as const))('has a row for edgeops %s naming each of its options', (name, command) => {
    const row = section.split('\n').find((line) => line.startsWith(`| \`edgeops ${name} `) || line.startsWith(`| \`edgeops ${name}\``));
    expect(row, `no row for edgeops ${name}`).toBeDefined();
    const missing = command.options.map((o) => o.long!).filter((flag) => !row!.includes(flag) && !shared.includes(`\`${flag}`));
    expect(missing, `options of edgeops ${name} missing from its row`).toEqual([]);
  });
});
