import { defineConfig } from 'vitest/config';

// Tests run the TypeScript sources directly; e2e tests run the built binary
// (npm test builds first). Two cores here: keep the worker count modest.
export default defineConfig({
  test: {
    include: ['test/**/*.test.ts'],
    testTimeout: 30_000,
    hookTimeout: 60_000,
    pool: 'forks',
    maxWorkers: 2,
    // Each file gets its own TMPDIR under one root for the run; what a file leaves there fails it.
    globalSetup: ['./test/helpers/temp-global.ts'],
    // Every answer a sandbox test sees is judged against the published OpenAPI documents.
    setupFiles: ['./test/helpers/temp-setup.ts', './test/helpers/check-responses.ts'],
    reporters: ['default', './test/helpers/summary-reporter.ts'],
  },
});
