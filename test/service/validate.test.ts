// Unit tests of the CIDR rule, ids and the router (plain values, no HTTP). Body checking: test/contract/body-check.test.ts.
import { describe, expect, it } from 'vitest';
import { Router } from '../../src/service/router.ts';
import { cidrProblem } from '../../src/contract/values.ts';
import { newId, nowTimestamp } from '../../src/service/ids.ts';

describe('cidrProblem', () => {
  it.each(['0.0.0.0/0', '10.0.0.0/8', '10.1.2.3/32', '10.1.2.3', '255.255.255.255', '::', '::/0', '2001:db8::/32',
    '2001:db8:0:0:0:0:0:1/128', '::ffff:192.168.0.0/112', 'fe80::/64', '1::/16'])('accepts %s', (text) => {
    expect(cidrProblem(text)).toBeUndefined();
  });
  it.each(['', '/8', '10.0.0.0/', '10/8', '10.0.0.0/33', '10.0.0.256/32', '2001:db8::/129', 'g::/16', '1:2:3:4:5:6:7:8:9/128',
    '10.0.0.0/8 ', '10.0.0.0/+8', '10.0.0.0/8.0', '::1%lo/128', '10.0.0.0/1000'])('rejects %j as invalid', (text) => {
    expect(cidrProblem(text)?.code).toBe('ERR_CIDR_INVALID');
  });
  it.each(['10.0.0.1/8', '11.0.0.0/7', '192.168.1.1/31', '2001:db8::1/127', '2001:db9::/15', '::ffff:192.168.0.1/112'])('rejects %s for host bits', (text) => {
    expect(cidrProblem(text)?.code).toBe('ERR_CIDR_HOST_BITS_SET');
  });
});

describe('ids', () => {
  it('prefix + 27 base62 characters, unique', () => {
    const ids = new Set(Array.from({ length: 1000 }, () => newId('ipp')));
    expect(ids.size).toBe(1000);
    for (const id of ids) expect(id).toMatch(/^ipp_[0-9A-Za-z]{27}$/);
  });
  it('timestamps are RFC 3339 UTC with second precision', () => {
    expect(nowTimestamp(new Date(Date.UTC(2025, 0, 14, 10, 6, 47, 999)))).toBe('2025-01-14T10:06:47Z');
  });
});

describe('Router', () => {
  const h = (name: string) => async () => ({ status: 200, body: name });
  const router = new Router([
    { method: 'GET', path: '/edges/https/:id', handler: h('edge') },
    { method: 'GET', path: '/edges/https/:edge_id/routes/:id', handler: h('route') },
    { method: 'GET', path: '/edges/:kind/x', handler: h('param-first') },
    { method: 'GET', path: '/edges/tcp/:id', handler: h('tcp') },
    { method: 'DELETE', path: '/edges/tcp/:id', handler: h('tcp-del') },
  ]);

  it('prefers literal segments and extracts decoded params', () => {
    const m = router.match('GET', '/edges/https/edghts_1/routes/edghtsrt%5F2');
    expect(m).toMatchObject({ kind: 'route', params: { edge_id: 'edghts_1', id: 'edghtsrt_2' } });
    expect(router.match('GET', '/edges/tcp/x')).toMatchObject({ kind: 'route', params: { id: 'x' } });
  });

  it('reports the allowed methods of a matching path, or none', () => {
    expect(router.match('PUT', '/edges/tcp/1')).toEqual({ kind: 'method', allow: ['GET', 'DELETE'] });
    expect(router.match('GET', '/edges/tcp')).toEqual({ kind: 'none' });
    expect(router.match('GET', '/edges/tcp/')).toEqual({ kind: 'none' });
  });

  it('refuses duplicate routes', () => {
    expect(() => new Router([{ method: 'GET', path: '/a/:x', handler: h('1') }, { method: 'GET', path: '/a/:y', handler: h('2') }])).toThrow(/duplicate/);
  });
});
