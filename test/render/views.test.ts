// The VIEWS table is the one list of output formats: each entry renders a plan (with its footer) and a drift
// report exactly as that format's own renderers do, and the commands' --format choices are its keys.
import { describe, expect, it } from 'vitest';
import { driftReport } from '../../src/engine/drift.ts';
import { renderDriftJson, renderPlanJson } from '../../src/render/json.ts';
import { renderDriftMarkdown, renderFooterMarkdown, renderPlanMarkdown } from '../../src/render/markdown.ts';
import { renderDriftText, renderFooterText, renderPlanText } from '../../src/render/text.ts';
import { FORMATS, VIEWS } from '../../src/render/views.ts';
import { samplePlan } from './sample-plan.ts';

const footer = { deletes: 'Deletes: 1 of max 10, within the limits.', checksum: 'sha256:abc' };
const report = driftReport(samplePlan);

describe('VIEWS', () => {
  it('lists text, json and markdown, in the order of the help', () => {
    expect(FORMATS).toEqual(['text', 'json', 'markdown']);
  });

  it('each view is its format: the plan with its footer, and the drift report', () => {
    expect(VIEWS.text({ color: false }).plan(samplePlan, footer)).toBe(renderPlanText(samplePlan, { color: false }) + renderFooterText(footer));
    expect(VIEWS.text({ color: true }).drift(report)).toBe(renderDriftText(report, { color: true }));
    expect(VIEWS.markdown({ color: false }).plan(samplePlan, footer)).toBe(renderPlanMarkdown(samplePlan) + renderFooterMarkdown(footer));
    expect(VIEWS.markdown({ color: false }).drift(report)).toBe(renderDriftMarkdown(report));
    expect(VIEWS.json({ color: false }).plan(samplePlan, footer)).toBe(renderPlanJson(samplePlan, { checksum: footer.checksum }));
    expect(VIEWS.json({ color: false }).drift(report)).toBe(renderDriftJson(report));
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
