import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { ERROR_CATALOG } from '../../src/service/errors.ts';
import { renderErrorTable, withErrorTable } from '../../scripts/error-table.ts';

describe('the service error codes of docs/errors.md', () => {
  const doc = readFileSync(new URL('../../docs/errors.md', import.meta.url), 'utf8');

  it('is the table generated from ERROR_CATALOG (run `npm run docs:errors` when it fails)', () => {
    expect(withErrorTable(doc)).toBe(doc);
  });

  it('lists every code once with its status', () => {
    const table = renderErrorTable();
    for (const [code, { status }] of Object.entries(ERROR_CATALOG)) {
      expect(table).toContain(`| \`${code}\` | ${status} |`);
    }
    expect(new Set(Object.keys(ERROR_CATALOG)).size).toBe(Object.keys(ERROR_CATALOG).length);
  });
});
