// Every example applies cleanly with --local and converges (the second plan says "No changes."), as the
// README promises; the embedded service keeps its database under .edgeops/ next to the manifests, and no
// private key of the tls examples ever reaches the output.
import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { containsKeyMaterial } from '../helpers/certs.ts';
import { copyExample, edgeops, makeCerts, output } from './run.ts';

describe.each([
  ['basic', 8],
  ['tls', 4],
  ['full', 18],
])('examples/%s', (name, count) => {
  it('validates, applies with --local, then plans "No changes."', async () => {
    const example = copyExample(name);
    try {
      if (name !== 'basic') await makeCerts(example.dir);
      const validate = await edgeops(['validate', example.dir]);
      expect(validate.stderr).toBe('');
      expect(validate.stdout).toBe(`${count} resources valid\n`);

      const apply = await edgeops(['apply', example.dir, '--local', '--auto-approve']);
      expect(apply.stderr).toBe('');
      expect(apply.code).toBe(0);
      expect(apply.stdout).toContain(`Apply complete: ${count} created, 0 updated, 0 replaced, 0 deleted.`);
      expect(existsSync(join(example.dir, '.edgeops', 'local.db'))).toBe(true);

      const plan = await edgeops(['plan', example.dir, '--local', '--detailed-exitcode']);
      expect(plan.stderr).toBe('');
      expect(plan.code).toBe(0);
      expect(plan.stdout).toBe('No changes. Live state matches the manifests.\n');

      if (name !== 'basic') {
        const key = readFileSync(join(example.dir, 'certs', 'wildcard-key.pem'), 'utf8');
        expect(apply.stdout).toContain('+ private_key_pem: (sensitive)');
        expect(containsKeyMaterial(output(apply), key)).toBe(false);
        for (const format of ['text', 'json', 'markdown']) {
          const fresh = await edgeops(['plan', example.dir, '--local', '--stack', 'fresh', '--format', format]);
          // The stack applied above holds the edges' hostports: plan errors (exit 1), the plan printed all the same.
          expect(fresh.code).toBe(1);
          expect(fresh.stdout).toMatch(/hostport .* is held by \w+Edge\/\S+ \(stack example-/);
          expect(fresh.stdout).toContain(format === 'json' ? '"sensitive": true' : 'private_key_pem: (sensitive)');
          expect(containsKeyMaterial(output(fresh), key)).toBe(false);
        }
      }
    } finally {
      example.dispose();
    }
  });
});

describe('examples/multi-stack', () => {
  it('lists its three stacks, validates and plans each on its own with --local', async () => {
    const example = copyExample('multi-stack');
    try {
      const stacks = await edgeops(['stacks', '--format', 'json'], { cwd: example.dir });
      expect((JSON.parse(stacks.stdout) as { stacks: Array<{ dir: string; after: string[] }> }).stacks.map((s) => [s.dir, s.after])).toEqual([
        ['edge/prod', ['edge/staging']], ['edge/staging', []], ['partners', []],
      ]);
      const validate = await edgeops(['validate'], { cwd: example.dir });
      expect(validate.stderr).toBe('');
      expect(validate.stdout).toBe('edge-prod (edge/prod): 4 resources valid\nedge-staging (edge/staging): 4 resources valid\npartners (partners): 4 resources valid\n');
      const plan = await edgeops(['plan', '--local', '--detailed-exitcode'], { cwd: example.dir });
      expect(plan.code, output(plan)).toBe(2);
      expect(plan.stdout).toMatch(/^Summary: 3 stacks, 3 with changes\n/m);
      for (const root of ['edge/staging', 'edge/prod', 'partners']) expect(existsSync(join(example.dir, root, '.edgeops', 'local.db')), root).toBe(true);
    } finally {
      example.dispose();
    }
  });
});
