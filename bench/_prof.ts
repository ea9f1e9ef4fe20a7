import { seed } from './lib/seed.ts';
import { startServiceChild } from './lib/service-child.ts';
import { useSeed, STACK } from './lib/seed.ts';
import { createApi } from '../src/client/http.ts';
import { computePlan, loadDesired } from '../src/pipeline.ts';
import { recordingApi, replayReads } from './lib/recording-api.ts';
import { existsSync } from 'node:fs';
const mode = process.argv[2]!; // plan | floor | refresh
const tmp = '/tmp/b1prof';
const set = existsSync(`${tmp}/seed-5000/template.db`)
  ? { count: 5000, template: `${tmp}/seed-5000/template.db`, manifestDir: `${tmp}/seed-5000/manifests` } as any
  : await seed(tmp, 5000, console.error);
const svc = await startServiceChild({ dbFile: await useSeed(set, tmp), nodeArgs: process.env.SVC_PROF ? ['--cpu-prof', `--cpu-prof-dir=${tmp}/prof-svc-${mode}`] : [] });
const api = createApi({ url: svc.url, apiKey: svc.apiKey });
const desired = await loadDesired([set.manifestDir], undefined, { stack: STACK });
const rec = recordingApi(api);
const first = await computePlan(desired, rec.api, { stack: STACK });
const paths = [...first.live.byKind].flatMap(([k, items]) => items.map((i) => typeof i.raw.uri === 'string' ? new URL(i.raw.uri).pathname : null).filter(Boolean));
const n = Number(process.argv[3] ?? 20);
const t0 = performance.now();
for (let i = 0; i < n; i++) {
  if (mode === 'plan') await computePlan(desired, api, { stack: STACK });
  else if (mode === 'floor') await replayReads(api, rec.reads);
  else { const { default: pLimit } = await import('p-limit'); const l = pLimit(10); await Promise.all(paths.map((p) => l(() => api.get(p!)))); }
}
console.log(mode, ((performance.now() - t0) / n).toFixed(1), 'ms per run');
await api.close(); await svc.stop();
