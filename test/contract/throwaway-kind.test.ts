// The completeness test is only as good as what it catches. A copy of the sources gains a kind declared in the
// contract alone (a clone of IPPolicy), and the completeness test, run on that copy, must fail naming every
// table the new kind is missing from; the service needs no entry for it (a plain collection).
import { execFileSync } from 'node:child_process';
import { cpSync, mkdtempSync, readFileSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, expect, it } from 'vitest';

const ROOT = join(import.meta.dirname, '../..');
const copy = mkdtempSync(join(tmpdir(), 'edgeops-throwaway-kind-'));
afterAll(() => rmSync(copy, { recursive: true, force: true }));

const WIDGET = `import { ipPolicy } from './policies.ts';
import type { ContractKind } from '../kind.ts';
declare module '../kind.ts' {
  interface KindNames {
    widget: true;
  }
}
export const widget = { ...ipPolicy, kind: 'widget', prefix: 'wdg', label: 'widget', path: '/widgets', listKey: 'widgets' } as unknown as ContractKind;
`;

const WIDGET_KIND = `import { describedKeys } from './adopt-keys.ts';
import { widget as contract } from '../contract/kinds/widgets.ts';
import { markerKind } from './marker-kind.ts';
export const widget = markerKind({ kind: 'Widget', contract, fields: ['description', 'metadata'], adoptKeys: describedKeys });
`;

interface Report {
  testResults: { assertionResults: { status: string; fullName: string; failureMessages: string[] }[] }[];
}

/** Copies the sources once; each stage then edits the copy further. */
function prepare(): void {
  for (const dir of ['src', 'scripts', 'schemas', 'test/contract']) cpSync(join(ROOT, dir), join(copy, dir), { recursive: true });
  cpSync(join(ROOT, 'package.json'), join(copy, 'package.json'));
  symlinkSync(join(ROOT, 'node_modules'), join(copy, 'node_modules'), 'dir');
  writeFileSync(join(copy, 'vitest.config.ts'), "export default { test: { include: ['test/contract/kind-completeness.test.ts'] } };\n");
}

/** Adds `widget` to the table `name` in the copy's `file`, importing it from `from`. */
function addToTable(file: string, name: string, from: string): void {
  const path = join(copy, file);
  const added = readFileSync(path, 'utf8')
    .replace(/^(import .*\n)/m, `$1import { widget } from '${from}';\n`)
    .replace(new RegExp(`(export const ${name}[^=]*= \\[\\n)`), '$1  widget,\n');
  expect(added, `the copy of ${name} gained the widget`).toMatch(/^ {2}widget,$/m);
  writeFileSync(path, added);
}

/** The failing tests of the completeness test run on the copy, each with its messages. */
function failures(): string[] {
  const out = join(copy, 'report.json');
  try {
    execFileSync(process.execPath, [join(ROOT, 'node_modules/vitest/vitest.mjs'), 'run', '--reporter=json', `--outputFile=${out}`], { cwd: copy, stdio: 'pipe' });
  } catch {
    // A failing run is what this test expects; the report says how it failed.
  }
  const report = JSON.parse(readFileSync(out, 'utf8')) as Report;
  return report.testResults.flatMap((f) => f.assertionResults).filter((a) => a.status === 'failed').map((a) => `${a.fullName}\n${a.failureMessages.join('\n')}`);
}

function expectNamed(failed: string[], places: string[]): void {
  for (const place of places) expect(failed.join('\n\n'), `the failures name ${place}`).toContain(place);
  // Nothing but the widget is missing: every failing test is about it.
  for (const failure of failed) expect(failure).toMatch(/widget|wdg/i);
}

it('a kind added to the contract alone fails the completeness test, naming each table left to fill', () => {
  prepare();
  writeFileSync(join(copy, 'src/contract/kinds/widgets.ts'), WIDGET);
  addToTable('src/contract/index.ts', 'CONTRACT_KINDS', './kinds/widgets.ts');
  // The service serves a kind with no module of its own as a plain collection: nothing to fill there.
  const first = failures();
  expectNamed(first, ['KINDS (src/kinds/index.ts)']);
  expect(first.join('\n'), 'the service serves the widget from the contract').not.toContain('RESOURCES (src/service/routes.ts)');

  // With its reconciler kind, what is left is the published schemas.
  writeFileSync(join(copy, 'src/kinds/widget.ts'), WIDGET_KIND);
  addToTable('src/kinds/index.ts', 'KINDS', './widget.ts');
  const failed = failures();
  expectNamed(failed, ['schemas/ (npm run schemas)']);
  expect(failed.join('\n'), 'the reconciler kind is no longer missing').not.toContain('KINDS (src/kinds/index.ts)');
}, 180_000);
