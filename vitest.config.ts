import { defineConfig } from 'vitest/config';

// Tests run the TypeScript sources directly; e2e tests run the CLI in process
// (test/helpers/run-in-process.ts) or the built binary (npm test builds first).
// Two cores here: keep the worker count modest.
// e2e files that run in one module graph per worker (the e2e-shared project below): each has passed there.
const SHARED_E2E = [
  'apply-concurrent',
  'apply-input',
  'as-of',
  'auth-profiles',
  'cli-commands',
  'data-dir',
  'drift',
  'fast-start',
  'h25-faith-answers',
  'h25-faith-list-cursor',
  'h25-store-journals',
  'h25-store-upload-pending',
  'h25-text-completion-pty',
  'h27-apply-memory',
  'h34-drift-hostile',
  'h34-key-forms-sinks',
  'h34-local-state-read',
  'h34-plans-hostile',
  'h34-request-parameters',
  'h34-retry-budget-zero',
  'mcp-flows-checks',
  'mcp-write',
  'mutations',
  'mutations-preview',
  'mutations-undo',
  'node-smoke',
  'observe-tree',
  'profiles',
  'proxy',
  'readme-recipes',
  'terminal',
  'unexpected-answers',
  'upload',
  'upload-concurrent',
  'upload-integrity',
  'w36-plans-fix',
].map((name) => `test/e2e/${name}.test.ts`);

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
          exclude: SHARED_E2E,
          // Isolated: the CLI runs in these files' processes, with its module state (the shared transport, held locks).
          setupFiles: ['./test/helpers/temp-setup.ts', './test/helpers/check-responses.ts'],
        },
      },
      {
        extends: true,
        test: {
          name: 'e2e-shared',
          include: SHARED_E2E,
          // One module graph per worker (#37): each isolated file imports src/ again (~0.5 s quiet, seconds under
          // load). The module state the CLI keeps per process is reset per file where it would leak (the redaction
          // masks: fresh-module-state.ts); the transport is closed after every in-process run, locks are released
          // with their run. Files move here once they have passed here.
          isolate: false,
          setupFiles: ['./test/helpers/temp-setup.ts', './test/helpers/check-responses.ts', './test/helpers/fresh-module-state.ts'],
        },
      },
    ],
  },
});
