// The API's path templates, read only through src/contract/path.ts: by the service's router, the manifest
// schemas (a child's parent field) and the manifest's contract check (which route a request goes to).
import { describe, expect, it } from 'vitest';
import { collectionPath, fillParams, parentParam, templatePattern, templateSegments } from '../../src/contract/path.ts';

describe('path templates', () => {
  it('name a child collection\'s parent by its one :param', () => {
    expect(parentParam('/edges/https/:edge_id/routes')).toBe('edge_id');
    expect(parentParam('/ip_policies')).toBeUndefined();
  });

  it('fill every :param, encoded for a document\'s collection', () => {
    expect(fillParams('/a/:x/b/:y', ':')).toBe('/a/:/b/:');
    expect(collectionPath('/edges/https/:edge_id/routes', 'ed/1')).toBe('/edges/https/ed%2F1/routes');
    expect(collectionPath('/ip_policies', null)).toBe('/ip_policies');
  });

  it('split into literal and :param segments', () => {
    expect(templateSegments('/edges/https/:edge_id/routes')).toEqual([
      { literal: 'edges', param: null },
      { literal: 'https', param: null },
      { literal: null, param: 'edge_id' },
      { literal: 'routes', param: null },
    ]);
  });

  it('match the concrete paths of a template, a :param standing for exactly one segment', () => {
    const routes = templatePattern('/edges/https/:edge_id/routes');
    expect(routes.test('/edges/https/edghts_1/routes')).toBe(true);
    expect(routes.test('/edges/https/a/b/routes')).toBe(false);
    expect(routes.test('/edges/https//routes')).toBe(false);
    expect(routes.test('/edges/https/edghts_1/routes/x')).toBe(false);
    expect(templatePattern('/ip_policies/:id/rules').test('/ip_policies/ipp_1/rules')).toBe(true);
  });
});
