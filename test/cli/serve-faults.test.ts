// `edgeops serve --faults SPEC` as a child process: the spec reaches the service (faults are observed over
// HTTP and the banner names them), and a malformed spec is a configuration error, exit 1, before listening.
import { describe, expect, it } from 'vitest';
import { api, expectError } from '../helpers/service.ts';
import { serve as serveChild } from './serve-child.ts';

/** On a free port: these tests never need a fixed one. */
const serve = (args: string[]) => serveChild(['--port', '0', ...args]);

describe('edgeops serve --faults', () => {
  it('injects the faults the spec names, for the methods it names', async () => {
    const s = serve(['--api-key', 'k', '--faults', 'POST.error=1,POST.status=503,DELETE.rate429=1,retryAfter=7']);
    try {
      const url = await s.url;
      expect(s.output()).toContain('faults: POST.error=1,POST.status=503,DELETE.rate429=1,retryAfter=7');
      const c = api({ url, apiKey: 'k' });
      expectError(await c.post('/ip_policies', {}), 503, 'ERR_FAULT_UNAVAILABLE', 'injected fault');
      const r = await c.del('/ip_policies/ipp_00000000000000000000000000');
      expectError(r, 429, 'ERR_RATE_LIMITED');
      expect(r.headers['retry-after']).toBe('7');
      expect((await c.get('/ip_policies')).body.ip_policies).toEqual([]);
    } finally {
      s.child.kill('SIGTERM');
      expect(await s.exited).toBe(0);
    }
  });

  it('rejects a malformed spec with exit 1 and the reason', async () => {
    const bad = serve(['--faults', 'error=0.7,drop=0.5']);
    await expect(bad.url).rejects.toThrow(/--faults: GET: error \+ rate429 \+ drop is 1\.2, more than 1/);
    expect(await bad.exited).toBe(1);
  });
});
