// hostports, shared by every edge kind: the format (unit), duplicates within a list, and one edge per hostport
// across TCP, TLS and HTTPS edges (over real HTTP), compared case-insensitively and IPv6 by value.
import { describe, expect, it } from 'vitest';
import { hostportKey, hostportProblem } from '../../src/contract/values.ts';
import { expectError, serviceForFile } from '../helpers/service.ts';
import { freshHostport, ok } from './edge-fixtures.ts';

const { svc, c } = serviceForFile();

describe('hostports', () => {
  it.each([
    'a.example.com:1', 'A.Example.COM:65535', '1.tcp.example.com:20001', '*.example.com:443', '192.0.2.1:80',
    '[2001:db8::1]:443', '[::1]:22', 'localhost:8080', 'xn--bcher-kva.example:443', `${'a'.repeat(63)}.com:1`,
  ])('accepts %s', (hostport) => {
    expect(hostportProblem(hostport)).toBeUndefined();
  });

  it.each([
    '', 'a.example.com', 'a.example.com:', ':443', 'a.example.com:0', 'a.example.com:65536', 'a.example.com:080',
    'a.example.com:+80', 'a.example.com:8o', 'a..example.com:1', '-a.example.com:1', 'a-.example.com:1', 'a_b.example.com:1',
    'a example.com:1', '2001:db8::1:443', '[2001:db8::1:443', '[1.2.3.4]:1', '[fe80::1%eth0]:1', '1.2.3.999:1', '1.2.3:1',
    `${'a'.repeat(64)}.com:1`, '*.:1', 'a.*.example.com:1', 'http://a.example.com:1', 'a.example.com:1/x', 'é.example.com:1',
  ])('refuses %j', (hostport) => {
    expect(hostportProblem(hostport)?.code).toBe('ERR_HOSTPORT_INVALID');
  });

  it.each([
    ['A.Example.com:1', 'a.example.com:1'],
    ['[2001:DB8:0::1]:80', '[2001:db8::1]:80'],
    ['[::ffff:1.2.3.4]:443', '[::ffff:102:304]:443'],
    ['192.0.2.1:22', '192.0.2.1:22'],
  ])('compares %s as %s', (hostport, key) => {
    expect(hostportKey(hostport)).toBe(key);
  });

  it('the same IPv6 address written two ways is the same hostport', async () => {
    const owner = ok(await c.post('/edges/tcp', { hostports: ['[2001:db8:0:0::7]:2222'] }), 201);
    expectError(await c.post('/edges/tcp', { hostports: ['[2001:DB8::7]:2222'] }), 400, 'ERR_HOSTPORT_IN_USE', owner.id as string);
    expectError(await c.post('/edges/tcp', { hostports: ['[2001:db8::8]:1', '[2001:db8:0::8]:1'] }), 400, 'ERR_HOSTPORT_DUPLICATE', 'hostports[1]');
  });

  it('answers ERR_HOSTPORT_INVALID naming the entry', async () => {
    expectError(await c.post('/edges/tcp', { hostports: [freshHostport(), 'nope'] }), 400, 'ERR_HOSTPORT_INVALID', 'hostports[1]');
    expectError(await c.post('/edges/tcp', { hostports: ['a.example.com:70000'] }), 400, 'ERR_HOSTPORT_INVALID', 'hostports[0]');
  });

  it('refuses the same hostport twice in one list, ignoring case', async () => {
    const h = freshHostport('dup.example.com');
    expectError(await c.post('/edges/tcp', { hostports: [h, h] }), 400, 'ERR_HOSTPORT_DUPLICATE', 'hostports[1]');
    expectError(await c.post('/edges/tcp', { hostports: [h, h.toUpperCase()] }), 400, 'ERR_HOSTPORT_DUPLICATE', 'hostports[1]');
  });

  it('a hostport belongs to one edge: another edge gets ERR_HOSTPORT_IN_USE naming the owner', async () => {
    const h = freshHostport();
    const owner = ok(await c.post('/edges/tcp', { hostports: [h] }), 201);
    const r = await c.post('/edges/tcp', { hostports: [freshHostport(), h.toUpperCase()] });
    expectError(r, 400, 'ERR_HOSTPORT_IN_USE', owner.id as string);
    expect(r.body.msg).toContain('hostports[1]');
    const other = ok(await c.post('/edges/tcp', {}), 201);
    expectError(await c.patch(`/edges/tcp/${other.id}`, { hostports: [h] }), 400, 'ERR_HOSTPORT_IN_USE', owner.id as string);
    // The owner may keep (and re-send) its own hostports.
    expect(ok(await c.patch(`/edges/tcp/${owner.id}`, { hostports: [h] })).hostports).toEqual([h]);
  });

  it('a hostport is free again after its edge drops it or is deleted', async () => {
    const h1 = freshHostport();
    const h2 = freshHostport();
    const a = ok(await c.post('/edges/tcp', { hostports: [h1, h2] }), 201);
    ok(await c.patch(`/edges/tcp/${a.id}`, { hostports: [h2] }));
    expect(ok(await c.post('/edges/tcp', { hostports: [h1] }), 201).hostports).toEqual([h1]);
    expect((await c.del(`/edges/tcp/${a.id}`)).status).toBe(204);
    expect(ok(await c.post('/edges/tcp', { hostports: [h2] }), 201).hostports).toEqual([h2]);
  });

  it('a hostport of a TLS or HTTPS edge is in use for a TCP edge too', async () => {
    const tlsHost = freshHostport('tls.example.com');
    const httpsHost = freshHostport('www.example.com');
    const tls = ok(await c.post('/edges/tls', { hostports: [tlsHost] }), 201);
    const https = ok(await c.post('/edges/https', { hostports: [httpsHost] }), 201);
    expectError(await c.post('/edges/tcp', { hostports: [tlsHost] }), 400, 'ERR_HOSTPORT_IN_USE', tls.id as string);
    expectError(await c.post('/edges/tcp', { hostports: [httpsHost] }), 400, 'ERR_HOSTPORT_IN_USE', https.id as string);
  });
});
