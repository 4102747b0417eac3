import { defineConfig } from 'vitest/config';

// One run covers every suite: pure unit tests, integration tests against a real PostgreSQL
// (one embedded server per run, one database per test file) and browser tests in headless Chromium.
export default defineConfig({
  test: {
    include: [
      'shared/src/**/*.test.ts',
      'services/*/{src,test}/**/*.test.ts',
      'projections/{src,test}/**/*.test.ts',
      'web/{src,e2e}/**/*.test.ts',
      'scripts/**/*.test.ts',
    ],
    globalSetup: ['services/postgres/src/testing/global-setup.ts'],
    pool: 'forks',
    testTimeout: 60_000,
    hookTimeout: 120_000,
    teardownTimeout: 60_000,
  },
});
