// One plan per run: on a pull request the action reads live state once and renders the comment, the job
// summary and the outputs from that one plan (the plan operation with a Markdown and a JSON view), so they cannot
// disagree; drift likewise. Counted at a recording proxy in front of the real service.
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { request } from 'undici';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { serviceForFile } from '../helpers/service.ts';
import { gitHubForFile, pullRequest, runAction, schedule, workspace, type Doc } from './harness.ts';

const { svc } = serviceForFile();
const gh = gitHubForFile();
let proxy: Server;
let proxyUrl = '';
const seen: string[] = [];

beforeAll(async () => {
  proxy = createServer(async (req, res) => {
    let body = '';
    for await (const chunk of req) body += chunk;
    seen.push(`${req.method} ${req.url}`);
    const headers: Record<string, string> = {};
    for (const name of ['authorization', 'service-version', 'content-type']) {
      const value = req.headers[name];
      if (typeof value === 'string') headers[name] = value;
    }
    const upstream = await request(`${svc.url}${req.url}`, { method: req.method as 'GET', headers, body: body === '' ? undefined : body });
    const text = await upstream.body.text();
    res.writeHead(upstream.statusCode, { 'content-type': 'application/json' });
    res.end(text);
  });
  await new Promise<void>((done) => proxy.listen(0, '127.0.0.1', done));
  proxyUrl = `http://127.0.0.1:${(proxy.address() as AddressInfo).port}`;
});
afterAll(async () => {
  await new Promise((done) => proxy?.close(done));
});

const docs: Doc[] = [
  { kind: 'IPPolicy', name: 'office', description: 'office networks' },
  { kind: 'TunnelGroupBackend', name: 'web', labels: { app: 'web' } },
];
/** First pages of the policy list: one per reading of live state. */
const policyReads = (): number => seen.filter((r) => /^GET \/ip_policies(\?(?!.*before_id)|$)/.test(r)).length;

describe('one reading of live state per run', () => {
  it('a pull request run plans once; the comment and the outputs show that plan', async () => {
    const ws = workspace('once');
    try {
      ws.write(docs);
      seen.length = 0;
      const run = await runAction({ event: pullRequest(21, 'c'.repeat(40)), inputs: { path: 'infra', 'api-url': proxyUrl, 'api-key': svc.apiKey }, cwd: ws.dir, github: gh });
      expect(run.code, run.stdout + run.stderr).toBe(0);
      expect(policyReads()).toBe(1);
      expect(seen.every((r) => r.startsWith('GET '))).toBe(true);
      expect(run.stdout.match(/^\$ edgeops /gm)).toHaveLength(1);

      const json = JSON.parse(run.tempFiles['edgeops-plan-once.json']!) as { resources: { address: string }[] };
      const comment = gh.comments(21)[0]!.body;
      for (const r of json.resources) expect(comment).toContain(`+ ${r.address}`);
      expect(run.outputs.summary).toBe('Plan for stack once: 2 to create, 0 to update, 0 to replace, 0 to delete.');
      expect(comment).toContain('Plan: 2 to create, 0 to update, 0 to replace, 0 to delete.');
      // The CLI's temporary JSON file is gone; only the published plan is left.
      expect(Object.keys(run.tempFiles)).toEqual(['edgeops-plan-once.json']);
    } finally {
      ws.dispose();
    }
  });

  it('a scheduled drift run reads live state once too', async () => {
    const ws = workspace('once');
    try {
      ws.write(docs);
      seen.length = 0;
      const run = await runAction({ event: schedule(), inputs: { path: 'infra', 'api-url': proxyUrl, 'api-key': svc.apiKey, 'fail-on-drift': 'false' }, cwd: ws.dir });
      expect(run.code, run.stdout + run.stderr).toBe(0);
      expect(policyReads()).toBe(1);
      expect(run.outputs['has-changes']).toBe('true');
      expect(JSON.parse(run.tempFiles['edgeops-plan-once.json']!).resources).toHaveLength(2);
      expect(run.outputs.summary).toBe('Drift on stack once: 2 resources differ from the manifests.');
    } finally {
      ws.dispose();
    }
  });
});
