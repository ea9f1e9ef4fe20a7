// One plan in a fresh process, reporting its peak RSS: `node --import tsx bench/plan-memory-child.ts --url U
// --key K --dir MANIFESTS`. Peak = the kernel's high-water mark (VmHWM), with sampled RSS as a fallback.
import { readFileSync } from 'node:fs';
import { parseArgs } from 'node:util';
import { createApi } from '../src/client/http.ts';
import { computePlan, loadDesired } from '../src/pipeline.ts';

const { values } = parseArgs({ options: { url: { type: 'string' }, key: { type: 'string' }, dir: { type: 'string' }, stack: { type: 'string' } } });

function vmHwm(): number | undefined {
  try {
    const m = /^VmHWM:\s+(\d+) kB/m.exec(readFileSync('/proc/self/status', 'utf8'));
    return m ? Number(m[1]) * 1024 : undefined;
  } catch {
    return undefined;
  }
}

let sampled = process.memoryUsage().rss;
const sampler = setInterval(() => {
  sampled = Math.max(sampled, process.memoryUsage().rss);
}, 5);
sampler.unref();

const base = vmHwm() ?? process.memoryUsage().rss;
const started = performance.now();
const api = createApi({ url: values.url!, apiKey: values.key! });
const desired = await loadDesired([values.dir!], undefined, { stack: values.stack! });
// High-water mark once the manifests are loaded: tells whether the peak comes from loading or from planning.
const afterLoad = vmHwm() ?? process.memoryUsage().rss;
const ctx = await computePlan(desired, api, { stack: values.stack! });
const planMs = performance.now() - started;
sampled = Math.max(sampled, process.memoryUsage().rss);
await api.close();
const live = [...ctx.live.byKind.values()].reduce((n, items) => n + items.length, 0);
// What the plan keeps alive (desired state, live items, the plan) after a full GC: linear by construction
// unless something retains more per resource as the account grows. Needs --expose-gc.
(globalThis as { gc?: () => void }).gc?.();
const retained = process.memoryUsage().heapUsed;
void desired;
process.stdout.write(
  `${JSON.stringify({ base, afterLoad, peak: vmHwm() ?? sampled, sampled, retained, planMs, resources: desired.resources.length, live, actions: ctx.plan.actions.length })}\n`,
);
process.exit(0);
