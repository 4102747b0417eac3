import { defineConfig } from 'vitest/config';

// One run covers every suite: pure unit tests, integration tests against a real PostgreSQL
// (one embedded server per worker, one database per test file; test servers' databases are clones
// of one migrated at the run's start) and browser tests in headless Chromium.
export default defineConfig({
  test: {
    include: [
      'shared/src/**/*.test.ts',
      'services/*/{src,test}/**/*.test.ts',
      'projections/{src,test}/**/*.test.ts',
      'web/{src,e2e}/**/*.test.ts',
      'scripts/**/*.test.ts',
    ],
    // PostgreSQL first; then the migrated database test servers clone.
    globalSetup: ['services/postgres/src/testing/global-setup.ts', 'services/testing/src/template-database.ts'],
    pool: 'forks',
    // vitest's default on a 2-core machine is one file at a time; most files wait on PostgreSQL,
    // Chromium or timers rather than the CPU, so three at once keep both cores busy.
    maxWorkers: 3,
    // expect.poll's own default (1 s) is shorter than a page load or a read model's catch-up when
    // three files share two cores; 15 s as the browser tests' locators (web/e2e/harness.ts). A
    // poll still ends as soon as it passes.
    expect: { poll: { timeout: 15_000 } },
    testTimeout: 60_000,
    hookTimeout: 120_000,
    teardownTimeout: 60_000,
  },
});
