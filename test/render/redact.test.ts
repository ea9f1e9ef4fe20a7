import { describe, expect, it } from 'vitest';
import type { DesiredState } from '../../src/manifest/document.ts';
import { createRedactor, secretValues } from '../../src/render/redact.ts';
import { SECRET_KEY_PEM } from './sample-plan.ts';

const bodyLines = SECRET_KEY_PEM.split('\n').filter((l) => l.length > 0 && !l.startsWith('-----'));

describe('redact', () => {
  const redact = createRedactor([SECRET_KEY_PEM]);

  it('replaces a whole secret value', () => {
    expect(redact(`key: ${SECRET_KEY_PEM} end`)).toBe('key: (sensitive) end');
  });

  it('replaces each PEM body line on its own, wherever it shows up', () => {
    const out = redact(`first ${bodyLines[0]} then ${bodyLines[1]}`);
    expect(out).toBe('first (sensitive) then (sensitive)');
  });

  it('replaces the value as it appears inside a JSON string', () => {
    const json = JSON.stringify({ private_key_pem: SECRET_KEY_PEM });
    expect(redact(json)).toBe('{"private_key_pem":"(sensitive)"}');
  });

  it('leaves short values and unrelated text alone', () => {
    const short = createRedactor(['abc']);
    expect(short('abcabc')).toBe('abcabc');
    expect(redact('nothing secret here')).toBe('nothing secret here');
    expect(createRedactor([])('x')).toBe('x');
  });

  it('collects the values of the fields each kind declares secret', () => {
    const desired: DesiredState = {
      config: {},
      resources: [
        { kind: 'TLSCertificate', name: 'a', address: 'TLSCertificate/a', spec: { certificate_pem: 'C', private_key_pem: SECRET_KEY_PEM }, dependsOn: [], pos: { file: 'a.yaml', line: 1, col: 1 } },
        { kind: 'IPPolicy', name: 'b', address: 'IPPolicy/b', spec: { description: 'd' }, dependsOn: [], pos: { file: 'a.yaml', line: 5, col: 1 } },
      ],
    };
    const fields = (kind: string) => (kind === 'TLSCertificate' ? ['private_key_pem'] : []);
    expect(secretValues(desired, fields)).toEqual([SECRET_KEY_PEM]);
  });
});
