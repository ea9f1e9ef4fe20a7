// The tests run the bin as users do, and the bin runs the built CLI: build dist/ from the sources once, before
// any test, so a fresh clone needs no build step and no test ever runs a stale build.
// Tests against a real PostgreSQL get its URL from inject('pgUrl') (or process.env.EDGEOPS_TEST_PG): the server
// named by EDGEOPS_TEST_PG when that is set, else a throwaway cluster started here and stopped at teardown.
// Each test project (sqlite, postgres) runs this file; the build and the cluster are made once for all of them
// (kept on globalThis, as each project may load this module anew) and stopped after the last project's teardown.
// The compiled code the CLI keeps between runs (src/launch/code-cache.ts) goes to a directory of the test run's,
// removed at the end: the many copies of the CLI the tests install each get a cache of their own, which would
// otherwise stay in the user's. Tests hand it to the processes they start as NODE_COMPILE_CACHE (cleanEnv), not
// to vitest's own workers: Node 22+ would fill it with theirs as they exit, after the teardown.
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { TestProject } from 'vitest/node';
import { buildCli } from '../scripts/build.ts';
import { startPostgresCluster, type PostgresCluster } from './support/postgres-cluster.ts';

interface Shared {
  ready: Promise<{ url: string; cluster?: PostgresCluster }>;
  users: number;
  compileCache: string;
}

const KEY = Symbol.for('edgeops.test.global-setup');
const holder = globalThis as unknown as Record<symbol, Shared | undefined>;

async function prepare(): Promise<{ url: string; cluster?: PostgresCluster }> {
  const given = process.env.EDGEOPS_TEST_PG || undefined;
  // Both at once: the build and the cluster's start take a second or two each.
  const [built, started] = await Promise.allSettled([buildCli(), given ? undefined : startPostgresCluster()]);
  if (started.status === 'rejected') throw started.reason;
  const cluster: PostgresCluster | undefined = started.value;
  if (built.status === 'rejected') {
    await cluster?.stop();
    throw built.reason;
  }
  return { url: given ?? cluster!.url, cluster };
}

export default async function setup(project: TestProject): Promise<() => Promise<void>> {
  const shared = (holder[KEY] ??= { ready: prepare(), users: 0, compileCache: mkdtempSync(join(tmpdir(), 'edgeops-test-compile-cache-')) });
  process.env.EDGEOPS_TEST_COMPILE_CACHE = shared.compileCache;
  shared.users++;
  const { url, cluster } = await shared.ready;
  project.provide('pgUrl', url);
  process.env.EDGEOPS_TEST_PG = url;
  return async () => {
    if (--shared.users > 0) return;
    holder[KEY] = undefined;
    if (cluster) delete process.env.EDGEOPS_TEST_PG;
    delete process.env.EDGEOPS_TEST_COMPILE_CACHE;
    rmSync(shared.compileCache, { recursive: true, force: true });
    await cluster?.stop();
  };
}
