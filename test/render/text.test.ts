import { describe, expect, it } from 'vitest';
import { VIEWS } from '../../src/render/views.ts';
import { CERT_PEM, SECRET_KEY_PEM, emptyPlan, samplePlan } from './sample-plan.ts';

const secretLines = SECRET_KEY_PEM.split('\n').filter((l) => l.length > 0 && !l.startsWith('-----'));

describe('text renderer', () => {
  it('matches the golden file for a plan with every operation', async () => {
    await expect(VIEWS.text({ color: false }).plan(samplePlan)).toMatchFileSnapshot('../fixtures/render/plan.txt');
  });

  it('says "No changes." for an empty plan', async () => {
    const text = VIEWS.text({ color: false }).plan(emptyPlan);
    expect(text).toBe('No changes. Live state matches the manifests.\n');
  });

  it('prints Terraform-like headers, field lines and the summary', () => {
    const text = VIEWS.text({ color: false }).plan(samplePlan);
    expect(text).toContain('  + TunnelGroupBackend/web\n');
    expect(text).toContain('  ~ TLSEdge/secure  # edgtls_2rcCvYaCz4tUbWiCRVTCu2RsxrA\n');
    expect(text).toContain('      ~ description: "old words" -> "new words"\n');
    expect(text).toContain('      ~ module backend (put)\n');
    expect(text).toContain('          ~ backend.backend_id: TunnelGroupBackend/web-old (bkdtg_old000000000000000000000) -> id of TunnelGroupBackend/web (known after apply)\n');
    expect(text).toContain('      - module ip_restriction (delete)\n');
    expect(text).toContain('  -/+ IPPolicyRule/office-v4 (replace: action cannot be updated)  # ipr_');
    expect(text).toContain('  - HTTPResponseBackend/maintenance  # bkdhr_');
    expect(text).toContain('Plan: 3 to create, 1 to update, 1 to replace, 2 to delete.\n');
    expect(text).toContain('Warning: this plan deletes 1 resource (max_deletes is 10)\n');
  });

  it('shows a reference to a resource of the same plan as known after apply, with its address', () => {
    const text = VIEWS.text({ color: false }).plan(samplePlan);
    expect(text).toContain('+ backend: {enabled: true, backend_id: id of TunnelGroupBackend/web (known after apply)}');
    expect(text).toContain('+ ip_restriction.ip_policy_ids[1]: (known after apply)\n');
  });

  it('abbreviates PEMs and never prints a sensitive value, even one left on the change', () => {
    const text = VIEWS.text({ color: false }).plan(samplePlan);
    expect(text).toMatch(/\+ certificate_pem: <PEM CERTIFICATE, 1 block, \d+ bytes, sha256:[0-9a-f]{12}>/);
    expect(text).not.toContain(CERT_PEM.split('\n')[1]!);
    expect(text).toContain('+ private_key_pem: (sensitive)');
    expect(text).toContain('~ private_key_pem: (sensitive)\n');
    for (const line of secretLines) {
      for (let i = 0; i + 16 <= line.length; i += 4) expect(text).not.toContain(line.slice(i, i + 16));
    }
  });

  it('colours only when asked', () => {
    expect(VIEWS.text({ color: false }).plan(samplePlan)).not.toContain('\x1b[');
    const coloured = VIEWS.text({ color: true }).plan(samplePlan);
    expect(coloured).toContain('\x1b[32m+\x1b[39m');
    expect(coloured.replace(/\x1b\[[0-9;]*m/g, '')).toBe(VIEWS.text({ color: false }).plan(samplePlan));
  });

  it('closes with the plan errors, each at its position', () => {
    const at = (line: number) => ({ file: 'm.yaml', line, col: 5 });
    const plan = {
      ...emptyPlan,
      errors: [
        { pos: at(4), address: 'TCPEdge/a', message: 'hostport "h:1" is held by TCPEdge edgtcp_x of stack "other"' },
        { pos: at(9), address: 'TLSEdge/b', message: 'hostport "h:2" is also claimed by TCPEdge/a at m.yaml:5:5' },
      ],
    };
    const out = VIEWS.text({ color: false }).plan(plan);
    expect(out.endsWith('\nError: m.yaml:4:5: TCPEdge/a: hostport "h:1" is held by TCPEdge edgtcp_x of stack "other"\nError: m.yaml:9:5: TLSEdge/b: hostport "h:2" is also claimed by TCPEdge/a at m.yaml:5:5\nPlan has 2 errors; apply would be refused.\n')).toBe(true);
  });
});
