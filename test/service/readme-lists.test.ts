// The service's API reference, docs/service.md (which the README's "Running the service" links), against the
// service's own route table: every list endpoint the service serves is called in its curl session
// (test/cli/readme.test.ts runs that session), and neither text says a served list is missing.
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { RESOURCES } from '../../src/service/routes.ts';

const readme = readFileSync(join(import.meta.dirname, '../../README.md'), 'utf8');
const running = /## Running the service([\s\S]*?)\n## /.exec(readme)?.[1] ?? '';
const reference = readFileSync(join(import.meta.dirname, '../../docs/service.md'), 'utf8');

/** GET paths with an item route below them ('/edges/https/:edge_id/routes' has '.../:id'): the lists. */
function listPaths(): string[] {
  const gets = RESOURCES.flatMap((r) => r.routes).filter((r) => r.method === 'GET').map((r) => r.path);
  return gets.filter((p) => gets.some((q) => q.startsWith(`${p}/:`) && q.split('/').length === p.split('/').length + 1));
}

describe('docs/service.md: service lists', () => {
  it('finds the lists in the route table, routes of an HTTPS edge included', () => {
    expect(listPaths()).toContain('/edges/https/:edge_id/routes');
    expect(listPaths().length).toBeGreaterThanOrEqual(12);
  });

  it.each(listPaths())('the curl session lists %s', (path) => {
    const pattern = path.replace(/[.*+?^${}()|[\]\\]/g, '\\$&').replace(/:[a-z_]+/g, '\\$[A-Z]+');
    expect(reference).toMatch(new RegExp(`^api "?\\$EDGE${pattern}(\\?[^"\\s]*)?"?$`, 'm'));
  });

  it('links the reference from the README, and neither claims a served list is missing', () => {
    expect(running).toContain('(docs/service.md)');
    expect(running).not.toMatch(/no list endpoint/i);
    expect(reference).not.toMatch(/no list endpoint/i);
  });
});
