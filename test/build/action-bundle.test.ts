// The Action's bundle is committed (a JavaScript action installs nothing), so it must be exactly what
// `npm run build:action` makes from the sources: a change to src/ without a rebuild fails here.
import { mkdtempSync, readdirSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { ACTION_OUT, buildAction } from '../../scripts/build.ts';

const fresh = mkdtempSync(join(tmpdir(), 'edgeops-action-build-'));
afterAll(() => rmSync(fresh, { recursive: true, force: true }));

describe('the committed Action bundle', () => {
  it('is what a fresh build makes (run `npm run build:action` after changing the sources)', async () => {
    await buildAction(fresh);
    const files = readdirSync(fresh).sort();
    expect(files).toEqual(['index.mjs']);
    expect(readdirSync(ACTION_OUT).sort()).toEqual(files);
    for (const file of files) {
      const same = readFileSync(join(fresh, file), 'utf8') === readFileSync(join(ACTION_OUT, file), 'utf8');
      expect(same, `action/dist/${file} differs from a fresh build: run npm run build:action`).toBe(true);
    }
  });
});
