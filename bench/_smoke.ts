import { startServiceChild } from './lib/service-child.ts';
import { createApi } from '../src/client/http.ts';
const s = await startServiceChild({ dbFile: '/tmp/b1-smoke.db' });
const api = createApi({ url: s.url, apiKey: s.apiKey });
console.log(s.url, await api.post('/ip_policies', { description: 'x' }));
console.log((await api.list('/ip_policies', 'ip_policies')).length);
await api.close(); await s.stop(); console.log('exit', s.child.proc.exitCode, s.child.stderrTail());
