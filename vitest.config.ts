import { defineConfig } from 'vitest/config';

// Tests run the TypeScript sources directly; e2e tests run the CLI in process
// (test/helpers/run-in-process.ts) or the built binary (npm test builds first).
// Two cores here: keep the worker count modest.
export default defineConfig({
  test: {
    testTimeout: 30_000,
    hookTimeout: 60_000,
    pool: 'forks',
    // The compiled validators (src/contract/generated/*-validators.js, plain JavaScript importing nothing) are
    // loaded by Node as they are: vite's transform of their ~150 and ~320 KB took 2-4 s per file that loads one.
    server: { deps: { external: [/src\/contract\/generated\/[a-z-]+-validators\.js$/] } },
    maxWorkers: 2,
    // Each file gets its own TMPDIR under one root for the run; what a file leaves there fails it.
    globalSetup: ['./test/helpers/temp-global.ts'],
    reporters: ['default', './test/helpers/summary-reporter.ts'],
    projects: [
      {
        extends: true,
        test: {
          name: 'modules',
          include: ['test/unit/**/*.test.ts', 'test/sandbox/**/*.test.ts', 'test/wire/**/*.test.ts'],
          // One module graph per worker, not per file: importing src/ again for each of ~120 files cost
          // more than half of these files' time (measured: unit 30 s -> 16 s, sandbox+wire 64 s -> 41 s).
          isolate: false,
          // Every answer a sandbox test sees is judged against the published OpenAPI documents.
          setupFiles: ['./test/helpers/temp-setup.ts', './test/helpers/check-responses.ts'],
        },
      },
      {
        extends: true,
        test: {
          name: 'e2e',
          include: ['test/e2e/**/*.test.ts', 'test/fuzz/**/*.test.ts'],
          // One module graph per worker here too (#37): importing src/ again per file cost each of ~95 files its
          // import time (~0.5 s quiet, seconds under load). What the CLI keeps in module state between runs is
          // per process by design (the shared transport is closed after every in-process run, locks are released
          // with their run, per-file config and temp dirs), so files share it as a command's successive runs do.
          isolate: false,
          setupFiles: ['./test/helpers/temp-setup.ts', './test/helpers/check-responses.ts', './test/helpers/fresh-module-state.ts'],
        },
      },
    ],
  },
});
