// A range's address and a bracketed hostport host are read as node:net's isIP reads them: the contract reads an
// IPv6 text with the C library's parser instead, and must accept and refuse exactly the same texts.
import { isIP } from 'node:net';
import { expect, it } from 'vitest';
import { cidrProblem, hostportProblem } from '../../src/contract/values.ts';

const TEXTS = [
  '::', '::1', '1::', '::0:0', 'FFFF::', 'fe80::', '1:2:3:4:5:6:7:8', '1:2:3:4:5:6:7:8:9', '1:2:3:4:5:6:7::', '::2:3:4:5:6:7:8',
  '1::2::3', ':::', '1:::2', ':1::', '1::2:', 'g::1', '12345::', '0001:0002::', '::ffff:1.2.3.4', '::ffff:1.2.3.04', '::ffff:256.1.1.1',
  '::1.2.3', '1::1.2.3.4', '1:2:3:4:5:6:1.2.3.4', '1:2:3:4:5:6:7:1.2.3.4', 'ffff:ffff:ffff:ffff:ffff:ffff:255.255.255.255',
  ' ::1', '::1 ', '::1\n', '[::1]', '1:2', '1.2.3.4', '1.2.3', '01.2.3.4', '1.2.3.4:', '::ffff:1.2.3.4.5', '', 'abc',
];

it('accepts as an address exactly what node:net isIP accepts', () => {
  const differ = TEXTS.filter((text) => (cidrProblem(text) === undefined) !== (isIP(text) !== 0));
  expect(differ).toEqual([]);
  // Both verdicts occur, so the comparison says something.
  expect(TEXTS.filter((text) => isIP(text) === 6).length).toBeGreaterThan(10);
  expect(TEXTS.filter((text) => isIP(text) === 0).length).toBeGreaterThan(10);
});

it('takes a bracketed hostport host as IPv6 exactly when node:net isIP does', () => {
  const differ = TEXTS.filter((text) => {
    const problem = hostportProblem(`[${text}]:443`);
    return (problem === undefined || !/IPv6/.test(problem.message)) !== (isIP(text) === 6);
  });
  expect(differ).toEqual([]);
});
