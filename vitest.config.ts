import { defineConfig } from 'vitest/config';

/**
 * Tests that exercise the service's store run twice: on SQLite (with every other test) and on PostgreSQL. Those
 * that look into an SQLite file itself, or test what only the embedded store does, run on SQLite only.
 */
const STORE_TESTS = ['test/service/**/*.test.ts', 'test/e2e/**/*.test.ts', 'test/lock/**/*.test.ts', 'test/scale/**/*.test.ts'];
const SQLITE_ONLY = ['test/service/persistence.test.ts', 'test/service/postgres-cluster.test.ts', 'test/service/postgres-store.test.ts'];

export default defineConfig({
  test: {
    globalSetup: ['test/global-setup.ts'],
    setupFiles: ['test/setup-files.ts'],
    testTimeout: 60_000,
    hookTimeout: 60_000,
    pool: 'forks',
    // A worker imports the sources once for all its files, not once per file: no test changes anything
    // process-wide (environment, working directory, timers, module mocks), and each closes what it starts.
    isolate: false,
    // Most files wait on processes, sockets and timers rather than the CPU: more forks than cores keep both busy.
    maxWorkers: 4,
    projects: [
      { extends: true, test: { name: 'sqlite', include: ['test/**/*.test.ts'], exclude: ['test/scale/**'] } },
      { extends: true, test: { name: 'postgres', include: STORE_TESTS, exclude: SQLITE_ONLY, env: { EDGEOPS_TEST_STORE: 'postgres' } } },
    ],
  },
});
