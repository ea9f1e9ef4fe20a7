// The network values policies use, as CEL expressions see them (the Kubernetes CEL library's names): parsing
// and printing both families, containment across prefixes and families, equality, and the refusal of a value
// that is no address, which fails the evaluation with a message naming it.
import { describe, expect, it } from 'vitest';
import { kindEnvironment } from '../../src/policy/cel-env.ts';

const { env } = kindEnvironment(undefined);
const run = (expression: string): unknown => {
  const checked = env.check(expression);
  expect(checked.valid, `${expression}: ${checked.error?.message}`).toBe(true);
  return env.evaluate(expression, { object: {}, oldObject: null, operation: 'create', stack: 's', environment: '', docs: {}, now: new Date() });
};

describe('ip() and cidr() in CEL', () => {
  it.each([
    ["cidr('0.0.0.0/0').prefixLength()", 0n],
    ["cidr('::/0').prefixLength()", 0n],
    ["cidr('2001:db8::/32').ip().family()", 6n],
    ["ip('203.0.113.7').family()", 4n],
    ["string(ip('2001:db8:0:0:0:0:0:1'))", '2001:db8::1'],
    ["string(ip('::ffff:192.0.2.1'))", '::ffff:c000:201'],
    ["string(cidr('10.1.2.3/8').masked())", '10.0.0.0/8'],
    ["cidr('10.0.0.0/8').containsIP('10.255.0.1')", true],
    ["cidr('10.0.0.0/8').containsIP(ip('11.0.0.1'))", false],
    ["cidr('10.0.0.0/8').containsCIDR('10.1.0.0/16')", true],
    ["cidr('10.1.0.0/16').containsCIDR(cidr('10.0.0.0/8'))", false],
    ["cidr('0.0.0.0/0').containsCIDR('::/0')", false],
    ["cidr('2001:db8::/32').containsIP('2001:db8:ffff::1')", true],
    ["ip('127.0.0.1').isLoopback() && ip('::1').isLoopback() && !ip('10.0.0.1').isLoopback()", true],
    ["ip('0.0.0.0').isUnspecified() && ip('::').isUnspecified()", true],
    ["cidr('10.1.2.3/8').masked() == cidr('10.0.0.0/8') && ip('10.0.0.1') != ip('10.0.0.2')", true],
    ["isIP('10.0.0.256') || isCIDR('10.0.0.0/33') || isCIDR('10.0.0.0')", false],
    ["[cidr('10.0.0.0/8'), cidr('192.168.0.0/16')].exists(p, p.containsIP('192.168.1.1'))", true],
  ])('%s', (expression, expected) => {
    expect(run(expression)).toEqual(expected);
  });

  it('refuses what is no address, naming it', () => {
    expect(() => run("cidr('office').prefixLength() > 0")).toThrow(/cidr\(\): "office" is not a CIDR/);
    expect(() => run("ip('10.0.0.1/8').family() == 4")).toThrow(/ip\(\): "10\.0\.0\.1\/8" is not an IP address/);
  });
});
