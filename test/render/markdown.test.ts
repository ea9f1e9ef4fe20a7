import { describe, expect, it } from 'vitest';
import type { Plan } from '../../src/engine/plan-data.ts';
import { VIEWS } from '../../src/render/views.ts';
import { SECRET_KEY_PEM, emptyPlan, samplePlan } from './sample-plan.ts';

const markdown = VIEWS.markdown({ color: false });

describe('markdown renderer', () => {
  it('matches the golden file for a plan with every operation', async () => {
    await expect(markdown.plan(samplePlan)).toMatchFileSnapshot('../fixtures/render/plan.md');
  });

  it('holds a summary table and a diff block whose first column GitHub colours', () => {
    const md = markdown.plan(samplePlan);
    expect(md).toContain('| to create | to update | to replace | to delete |\n|---:|---:|---:|---:|\n| 3 | 1 | 1 | 2 |');
    const block = /```diff\n([\s\S]*?)\n```/.exec(md)?.[1];
    expect(block).toBeDefined();
    for (const line of block!.split('\n').filter((l) => l !== '')) expect(line[0]).toMatch(/[+\-!]/);
    expect(block).toContain('+ TunnelGroupBackend/web\n+     description: "web tier tunnels"');
    expect(block).toContain('! TLSEdge/secure  # edgtls_');
    expect(block).toContain('-     labels["odd.key"]: "x" -> null');
    expect(block).toContain('! -/+ IPPolicyRule/office-v4');
    expect(block).toContain('- HTTPResponseBackend/maintenance');
    expect(md).toContain('Plan: 3 to create, 1 to update, 1 to replace, 2 to delete.');
    expect(md).toContain('> **Warning:** this plan deletes 1 resource (max\\_deletes is 10)');
  });

  it('says "No changes." for an empty plan', () => {
    expect(markdown.plan(emptyPlan)).toContain('**No changes.** Live state matches the manifests.');
    expect(markdown.plan(emptyPlan)).not.toContain('```');
  });

  it('uses a longer fence when a value holds backticks', () => {
    const plan: Plan = {
      ...emptyPlan,
      actions: [{ id: 'create:IPPolicy/x', op: 'create', kind: 'IPPolicy', name: 'x', address: 'IPPolicy/x', dependsOn: [],
        changes: [{ path: '/description', kind: 'add', new: 'a ``` b ```` c' }] }],
      summary: { create: 1, update: 0, replace: 0, delete: 0 },
    };
    const md = markdown.plan(plan);
    expect(md).toContain('`````diff\n');
    expect(md).toMatch(/\n`````\n/);
  });

  it('never prints a sensitive value', () => {
    const md = markdown.plan(samplePlan);
    for (const line of SECRET_KEY_PEM.split('\n').filter((l) => l.length > 16 && !l.startsWith('-----'))) {
      expect(md).not.toContain(line.slice(0, 16));
    }
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
    const out = markdown.plan(plan);
    expect(out).toContain('> [!CAUTION]\n> **Plan has 2 errors; apply would be refused.**\n>\n> - m.yaml:4:5: TCPEdge/a: hostport "h:1" is held by TCPEdge edgtcp\\_x of stack "other"\n> - m.yaml:9:5: TLSEdge/b: hostport "h:2" is also claimed by TCPEdge/a at m.yaml:5:5\n');
  });
});
