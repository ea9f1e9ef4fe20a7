// The help's examples are what a new user types first: each one runs, in order, from a directory holding a
// stack (a copy of examples/basic), with exit 0.
import { expect, it } from 'vitest';
import { copyExample, edgeops } from './run.ts';
import { runnableExamples } from './help-examples.ts';

it('every self-contained example of edgeops --help runs from a stack directory with exit 0', async () => {
  const help = await edgeops(['--help']);
  const examples = runnableExamples(help.stdout);
  expect(examples.map((args) => args[0])).toEqual(['validate', 'fmt', 'plan', 'show', 'apply', 'drift', 'list', 'stacks', 'graph', 'export']);
  const example = copyExample('basic');
  try {
    for (const args of examples) {
      const r = await edgeops(args, { cwd: example.dir });
      expect(r.code, `edgeops ${args.join(' ')}\n${r.stdout}\n${r.stderr}`).toBe(0);
    }
  } finally {
    example.dispose();
  }
}, 120_000);
