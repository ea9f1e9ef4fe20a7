// examples/environments end to end, with the real CLI and a real service: each environment applies what it
// renders (a plan of the rendered documents as a plain stack is the stack's own plan, with its checksum, and
// after apply says No changes), a second plan says No changes, and production's key is read from its own
// variable only. render and render --diff are checked against goldens.
import { mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestService, type TestService } from '../helpers/service.ts';
import { startProxy } from '../support/round-robin-proxy.ts';
import { copyExample, edgeops, ROOT, type RunResult } from './run.ts';

const EXAMPLE = join(ROOT, 'examples/environments');
let service: TestService;
let example: { dir: string; dispose(): void };

beforeAll(async () => {
  service = await startTestService();
  example = copyExample('environments');
});
afterAll(async () => {
  await service.close();
  example.dispose();
});

/** The environment of a run against the test service with the key in the variable the stack reads. */
const envFor = (env: 'staging' | 'prod'): Record<string, string> => ({
  EDGEOPS_API_URL: service.url,
  ...(env === 'prod' ? { EDGEOPS_API_KEY_PROD: service.apiKey } : { EDGEOPS_API_KEY: service.apiKey }),
});

const ok = (r: RunResult): RunResult => {
  expect(r.stderr, r.stdout).toBe('');
  expect(r.code).toBe(0);
  return r;
};

/** A plan's JSON without what only names files (the documents' sources differ between a stack and its render). */
function planMeaning(text: string): { checksum: unknown; resources: unknown } {
  const plan = JSON.parse(text) as { checksum: unknown; resources: Record<string, unknown>[] };
  const resources = plan.resources.map(({ sources: _sources, source: _source, ...rest }) => rest);
  return { checksum: plan.checksum, resources };
}

/** `edgeops render DIR` written as a plain stack (the same stack name, no bases, no variables). */
function renderedStack(env: string, rendered: string, stack: string): string {
  const dir = join(example.dir, '..', `rendered-${env}`);
  mkdirSync(dir, { recursive: true });
  writeFileSync(join(dir, 'edgeops.yaml'), `stack: ${stack}\n`);
  writeFileSync(join(dir, 'documents.yaml'), rendered);
  return dir;
}

describe('examples/environments', () => {
  it('renders prod as plain documents, each with its sources', async () => {
    const r = ok(await edgeops(['render', 'prod'], { cwd: EXAMPLE }));
    expect(r.stdout).toBe(RENDERED_PROD);
  });

  it('render --format json gives the same documents as data, with their sources', async () => {
    const r = ok(await edgeops(['render', 'prod', '--format', 'json'], { cwd: EXAMPLE }));
    const json = JSON.parse(r.stdout) as { format_version: number; stack: string; environment: string; inputs: string[]; documents: { sources: string[]; document: Record<string, unknown> }[] };
    expect([json.format_version, json.stack, json.environment]).toEqual([1, 'edge-prod', 'prod']);
    // Every file the resolution reads: a change to any of them changes the stack.
    expect(json.inputs).toEqual(['base/access.yaml', 'base/backends.yaml', 'base/edgeops.yaml', 'base/edges.yaml', 'prod/edgeops.yaml', 'prod/patches.yaml']);
    expect(json.documents.find((d) => d.document.name === 'api')).toEqual({
      sources: ['base/edges.yaml:1:1', 'prod/patches.yaml:3:1'],
      document: { kind: 'HTTPSEdge', name: 'api', description: 'the API of example.com', hostports: ['api.example.com:443'], tls_termination: { min_version: '1.3' } },
    });
  });

  it('render --diff prints only what differs between staging and prod', async () => {
    const r = ok(await edgeops(['render', 'staging', 'prod', '--diff'], { cwd: EXAMPLE }));
    expect(r.stdout).toBe(DIFF);
  });

  it.each([['staging', 'edge-staging'], ['prod', 'edge-prod']] as const)('%s: the rendered documents plan as the stack, apply, and plan No changes', async (env, stack) => {
    const dir = join(example.dir, env);
    const rendered = ok(await edgeops(['render', dir])).stdout;
    const plain = renderedStack(env, rendered, stack);
    // The same key for both runs: the checksum is keyed with it.
    const asStack = ok(await edgeops(['plan', env, '--format', 'json'], { env: envFor(env), cwd: example.dir }));
    const asRendered = ok(await edgeops(['plan', plain, '--format', 'json'], { env: { EDGEOPS_API_URL: service.url, EDGEOPS_API_KEY: service.apiKey } }));
    expect(planMeaning(asRendered.stdout)).toEqual(planMeaning(asStack.stdout));
    expect(planMeaning(asStack.stdout).resources).not.toEqual([]);
    // The JSON plan names each resource's sources: its document, then the Patches that changed it.
    const sources = Object.fromEntries((JSON.parse(asStack.stdout) as { resources: { address: string; sources: string[] }[] }).resources.map((r) => [r.address, r.sources]));
    expect(sources['TCPEdge/ssh']).toEqual(['base/edges.yaml:15:1']);
    expect(sources['HTTPSEdge/api']).toEqual(env === 'prod' ? ['base/edges.yaml:1:1', 'prod/patches.yaml:3:1'] : ['base/edges.yaml:1:1']);

    const applied = ok(await edgeops(['apply', dir, '--auto-approve'], { env: envFor(env) }));
    expect(applied.stdout.split('\n')[0]).toBe(`stack ${stack} (environment ${env}) at ${service.url}`);
    const again = ok(await edgeops(['plan', dir], { env: envFor(env) }));
    expect(again.stdout).toContain('No changes.');
    expect(again.stdout.split('\n')[0]).toBe(`stack ${stack} (environment ${env}) at ${service.url}`);
    const drift = ok(await edgeops(['drift', dir], { env: envFor(env) }));
    expect(drift.stdout.split('\n')[0]).toBe(`stack ${stack} (environment ${env}) at ${service.url}`);
    // Live values are exactly the rendered ones: the rendered documents, planned as the stack, change nothing.
    const live = ok(await edgeops(['plan', plain], { env: { EDGEOPS_API_URL: service.url, EDGEOPS_API_KEY: service.apiKey } }));
    expect(live.stdout).toContain('No changes.');
  });

  it('a stack with api_key_env refuses EDGEOPS_API_KEY, naming its variable, before any request', async () => {
    const proxy = await startProxy();
    try {
      const r = await edgeops(['plan', join(example.dir, 'prod')], { env: { EDGEOPS_API_URL: proxy.url, EDGEOPS_API_KEY: 'staging-key' } });
      expect(r.code).toBe(1);
      expect(r.stderr).toContain('api_key_env: EDGEOPS_API_KEY_PROD, so this stack\'s key is read from EDGEOPS_API_KEY_PROD only, and it is not set (EDGEOPS_API_KEY is set, but a stack with api_key_env never reads it)');
      expect(r.stderr).not.toContain('staging-key');
      expect(proxy.requests).toEqual([]);
    } finally {
      await proxy.close();
    }
  });

  it('validate of the tree resolves every environment: a base change that breaks one environment\'s Patch fails', async () => {
    ok(await edgeops(['validate', '.'], { cwd: example.dir }));
    const changed = copyExample('environments');
    try {
      const edges = join(changed.dir, 'base/edges.yaml');
      writeFileSync(edges, readFileSync(edges, 'utf8').replace('name: api\n', 'name: public-api\n').replace('edge_id: api', 'edge_id: public-api'));
      const r = await edgeops(['validate', '.'], { cwd: changed.dir });
      expect(r.code).toBe(1);
      // The tree holds two stacks: each is validated on its own, and each line of a failure names its stack.
      expect(r.stderr).toContain('[edge-prod] prod/patches.yaml:4:9: Patch: target: no document HTTPSEdge/api in the bases or this stack to patch\n[edge-prod] edgeops: 1 problem in the manifests\n');
      expect(r.stderr).not.toContain('[edge-staging] prod/');
      // A base given itself is checked through the stacks that use it.
      expect((await edgeops(['validate', 'base'], { cwd: changed.dir })).stderr).toBe('prod/patches.yaml:4:9: Patch: target: no document HTTPSEdge/api in the bases or this stack to patch\nedgeops: 1 problem in the manifests\n');
    } finally {
      changed.dispose();
    }
  });

  it('plan of the base refuses, naming the stacks that use it', async () => {
    const r = await edgeops(['plan', 'base', '--local'], { cwd: example.dir });
    expect(r.code).toBe(1);
    expect(r.stderr).toContain('refusing to plan base: base is a base (its edgeops.yaml says role: base), not a stack; it is the base of prod, staging');
  });
});

const RENDERED_PROD = `# 6 documents of stack edge-prod (environment prod), resolved by edgeops render
# from base/access.yaml:1:1
kind: IPPolicy
name: office
description: the office network
---
# from base/access.yaml:5:1
kind: IPPolicyRule
name: office-v4
cidr: 203.0.113.0/24
ip_policy_id: office
action: allow
---
# from base/backends.yaml:1:1
kind: TunnelGroupBackend
name: web
description: web tier tunnels
labels:
  app: web
  env: prod
---
# from base/edges.yaml:1:1, prod/patches.yaml:3:1
kind: HTTPSEdge
name: api
description: the API of example.com
hostports:
  - api.example.com:443
tls_termination:
  min_version: "1.3"
---
# from base/edges.yaml:7:1
kind: HTTPSEdgeRoute
name: api-root
edge_id: api
match_type: path_prefix
match: /
backend:
  backend_id: web
ip_restriction:
  ip_policy_ids:
    - office
---
# from base/edges.yaml:15:1
kind: TCPEdge
name: ssh
description: SSH to the bastion hosts
hostports:
  - 1.tcp.example.com:20002
  - 2.tcp.example.com:20002
backend:
  backend_id: web
ip_restriction:
  ip_policy_ids:
    - office
`;
const DIFF = `--- staging (environment staging)
+++ prod (environment prod)
- HTTPResponseBackend/maintenance  # only in staging
~ HTTPSEdge/api
    ~ description: "the API of staging.example.com" -> "the API of example.com"
    ~ hostports: ["api.staging.example.com:443"] -> ["api.example.com:443"]
    ~ tls_termination.min_version: "1.2" -> "1.3"
~ IPPolicyRule/office-v4
    ~ cidr: "198.51.100.0/24" -> "203.0.113.0/24"
~ TCPEdge/ssh
    ~ hostports: ["1.tcp.example.com:20001"] -> ["1.tcp.example.com:20002", "2.tcp.example.com:20002"]
~ TunnelGroupBackend/web
    ~ labels.env: "staging" -> "prod"

5 documents differ; 2 the same.
`;
