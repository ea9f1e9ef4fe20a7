// The string formats behind `cidr` and `hostport` are the contract's rules (their corpus, checked on both sides,
// is test/contract/value-rules.test.ts); here: the schemas' formats answer as the rules do, and api_url.
import { describe, expect, it } from 'vitest';
import { cidrProblem, hostportProblem } from '../../src/contract/values.ts';
import { AJV_FORMATS } from '../../src/manifest/schema/formats.ts';

describe('cidr', () => {
  it.each(['10.0.0.0/8', '0.0.0.0/0', '203.0.113.7/32', '203.0.113.7', '2001:db8::/32', '::/0', '::1/128', 'fe80::/10', '::ffff:10.0.0.0/104'])(
    'accepts %s',
    (v) => expect(AJV_FORMATS.cidr(v)).toBe(true),
  );

  it.each([
    ['10.0.0.0/33', '"10.0.0.0/33" is not an IP address or CIDR range: the prefix length must be 0-32'],
    ['10.0.0.0/08', '"10.0.0.0/08" is not an IP address or CIDR range: the prefix length must be 0-32'],
    ['2001:db8::/129', '"2001:db8::/129" is not an IP address or CIDR range: the prefix length must be 0-128'],
    ['10.0.0.256/32', '"10.0.0.256/32" is not an IP address or CIDR range: the address is not IPv4 or IPv6'],
    ['example.com/8', '"example.com/8" is not an IP address or CIDR range: the address is not IPv4 or IPv6'],
    ['fe80::1%eth0/128', '"fe80::1%eth0/128" is not an IP address or CIDR range: an IPv6 zone (%...) names no address a policy can match'],
    ['192.168.1.1/24', '"192.168.1.1/24" has host bits set; use the network address of the range (did you mean 192.168.1.0/24?)'],
    ['255.255.255.255/1', '"255.255.255.255/1" has host bits set; use the network address of the range (did you mean 128.0.0.0/1?)'],
    ['2001:db8::1/64', '"2001:db8::1/64" has host bits set; use the network address of the range (did you mean 2001:db8::/64?)'],
    ['::ffff:10.0.0.1/104', '"::ffff:10.0.0.1/104" has host bits set; use the network address of the range (did you mean ::ffff:a00:0/104?)'],
  ])('rejects %s', (v, why) => {
    expect(AJV_FORMATS.cidr(v)).toBe(false);
    expect(cidrProblem(v)?.message).toBe(why);
  });
});

describe('hostport', () => {
  it.each(['1.tcp.example.com:20001', 'example.com:443', '*.example.com:443', '10.0.0.1:1', '[2001:db8::1]:65535', 'localhost:8080'])(
    'accepts %s',
    (v) => expect(AJV_FORMATS.hostport(v)).toBe(true),
  );
  it.each([
    ['example.com', '"example.com" is not host:port'],
    ['example.com:0', '"example.com:0" has no port from 1 to 65535'],
    ['example.com:65536', '"example.com:65536" has no port from 1 to 65535'],
    [':443', '":443" is not host:port'],
    ['exa mple.com:1', '"exa mple.com:1" has an invalid host name'],
    ['2001:db8::1:443', '"2001:db8::1:443" has an invalid host name'],
    ['a..b:1', '"a..b:1" has an invalid host name'],
    ['-a.com:1', '"-a.com:1" has an invalid host name'],
    ['a.com:01', '"a.com:01" has no port from 1 to 65535'],
    ['1.2.3:443', '"1.2.3:443" has an invalid IPv4 address'],
    ['[fe80::1%eth0]:443', '"[fe80::1%eth0]:443" has an IPv6 zone (%...), which names no address on the edge'],
  ])('rejects %s', (v, why) => {
    expect(AJV_FORMATS.hostport(v)).toBe(false);
    expect(hostportProblem(v)?.message).toBe(why);
  });
});

describe('api_url', () => {
  it('takes http and https URLs only', () => {
    expect(AJV_FORMATS.uri('https://api.example.com')).toBe(true);
    expect(AJV_FORMATS.uri('http://127.0.0.1:4010/')).toBe(true);
    expect(AJV_FORMATS.uri('ftp://example.com')).toBe(false);
    expect(AJV_FORMATS.uri('api.example.com')).toBe(false);
  });
});
