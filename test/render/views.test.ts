// The VIEWS table is the one list of output formats: each entry renders a plan (with its footer, after the plan in
// the format's own form) and a drift report in its format, and the commands' --format choices are its keys.
import { describe, expect, it } from 'vitest';
import { driftReport } from '../../src/engine/drift.ts';
import { FORMATS, VIEWS } from '../../src/render/views.ts';
import { samplePlan } from './sample-plan.ts';

const footer = { deletes: 'Deletes: 1 of max 10, within the limits.', checksum: 'sha256:abc' };
const report = driftReport(samplePlan);

describe('VIEWS', () => {
  it('lists text, json and markdown, in the order of the help', () => {
    expect(FORMATS).toEqual(['text', 'json', 'markdown']);
  });

  it('each view is its format: the plan with its footer, and the drift report', () => {
    const text = VIEWS.text({ color: false });
    expect(text.plan(samplePlan, footer)).toBe(`${text.plan(samplePlan)}Deletes: 1 of max 10, within the limits.\nChecksum: sha256:abc (to apply exactly this plan: edgeops apply PATH... --checksum sha256:abc)\n`);
    expect(text.drift(report)).toMatch(/^Drift on stack "default": live state differs from the manifests\.\n/);
    const coloured = VIEWS.text({ color: true }).drift(report);
    expect(coloured).toContain('\x1b[');
    expect(coloured.replace(/\x1b\[[0-9;]*m/g, '')).toBe(text.drift(report));
    const markdown = VIEWS.markdown({ color: false });
    expect(markdown.plan(samplePlan, footer)).toBe(
      `${markdown.plan(samplePlan)}\nDeletes: 1 of max 10, within the limits.  \nChecksum: \`sha256:abc\` (to apply exactly this plan: \`edgeops apply PATH... --checksum sha256:abc\`)\n`);
    expect(markdown.drift(report)).toMatch(/^### edgeops drift for stack `default`\n\n\| changed \|/);
    const json = VIEWS.json({ color: false });
    expect(json.plan(samplePlan, footer)).toBe(`${JSON.stringify({ ...JSON.parse(json.plan(samplePlan)), checksum: 'sha256:abc' }, null, 2)}\n`);
    expect(JSON.parse(json.drift(report))).toMatchObject({ format_version: 1, stack: 'default', in_sync: false });
  });

  it('a plan without a footer renders as the plan alone in every format', () => {
    for (const format of FORMATS) {
      const view = VIEWS[format]({ color: false });
      expect(view.plan(samplePlan)).toBe(view.plan(samplePlan, {}));
    }
  });

  it('the markdown footer escapes what Markdown would read as syntax, the text footer shows it as is', () => {
    const odd = { deletes: 'Deletes: 1 of max 2 (IPPolicy_rule|x), within the limits.' };
    expect(VIEWS.markdown({ color: false }).plan(samplePlan, odd)).toContain('IPPolicy\\_rule\\|x');
    expect(VIEWS.text({ color: false }).plan(samplePlan, odd)).toContain('IPPolicy_rule|x');
  });
});
