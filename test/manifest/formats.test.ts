// The string formats behind `cidr` and `hostport`.
import { describe, expect, it } from 'vitest';
import { cidrProblem, isHostport, isHttpUrl } from '../../src/manifest/formats.ts';

describe('cidr', () => {
  it.each(['10.0.0.0/8', '0.0.0.0/0', '203.0.113.7/32', '2001:db8::/32', '::/0', '::1/128', 'fe80::/10', '::ffff:10.0.0.0/104'])(
    'accepts %s',
    (v) => expect(cidrProblem(v)).toBeUndefined(),
  );

  it.each([
    ['10.0.0.1', 'is not a CIDR range: it needs a prefix length, e.g. 10.0.0.0/8 or 10.0.0.1/32'],
    ['10.0.0.0/33', 'is not a CIDR range: the prefix length must be 0-32'],
    ['10.0.0.0/08', 'is not a CIDR range: the prefix length must be 0-32'],
    ['2001:db8::/129', 'is not a CIDR range: the prefix length must be 0-128'],
    ['10.0.0.256/32', 'is not a CIDR range: the address is not IPv4 or IPv6'],
    ['example.com/8', 'is not a CIDR range: the address is not IPv4 or IPv6'],
    ['192.168.1.1/24', 'is not a network address (did you mean 192.168.1.0/24?)'],
    ['255.255.255.255/1', 'is not a network address (did you mean 128.0.0.0/1?)'],
    ['2001:db8::1/64', 'is not a network address: it has host bits set'],
    ['::ffff:10.0.0.1/104', 'is not a network address: it has host bits set'],
  ])('rejects %s', (v, why) => expect(cidrProblem(v)).toBe(why));
});

describe('hostport', () => {
  it.each(['1.tcp.example.com:20001', 'example.com:443', '*.example.com:443', '10.0.0.1:1', '[2001:db8::1]:65535', 'localhost:8080'])(
    'accepts %s',
    (v) => expect(isHostport(v)).toBe(true),
  );
  it.each(['example.com', 'example.com:0', 'example.com:65536', ':443', 'exa mple.com:1', '2001:db8::1:443', 'a..b:1', '-a.com:1', 'a.com:01'])(
    'rejects %s',
    (v) => expect(isHostport(v)).toBe(false),
  );
});

describe('api_url', () => {
  it('takes http and https URLs only', () => {
    expect(isHttpUrl('https://api.example.com')).toBe(true);
    expect(isHttpUrl('http://127.0.0.1:4010/')).toBe(true);
    expect(isHttpUrl('ftp://example.com')).toBe(false);
    expect(isHttpUrl('api.example.com')).toBe(false);
  });
});
