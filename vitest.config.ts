import { defineConfig } from 'vitest/config';
import { RUN_MODULE_CACHE } from './test/helpers/module-cache.js';
import SlowestFirst from './test/helpers/slowest-first.js';

// Tests run the TypeScript sources directly; e2e tests run the CLI in process
// (test/helpers/run-in-process.ts) or the built binary (npm test builds first).
// Two cores here: keep the worker count modest (three: see maxWorkers).
// e2e files that run in one module graph per worker (the e2e-shared project below): each has passed there.
// Left isolated (the e2e project): completion, package, demo and fast-path-modules (binary spawns that hit their
// timeouts at load ~20 when last tried shared, not attributed) and code-cache (it loads a bundle into require.cache).
const SHARED_E2E = [
  'apply-concurrent',
  'apply-run-bundle',
  'apply-input',
  'as-of',
  'auth-profiles',
  'cli-commands',
  'cli-exit-codes',
  'cli-login-auth',
  'cli-output',
  'client-faults',
  'client-hardening',
  'data-dir',
  'destructive',
  'drift',
  'edit',
  'edit-editor',
  'every-command',
  'fast-start',
  'gen-before-types',
  'h25-faith-answers',
  'h25-faith-list-cursor',
  'h25-faith-signals',
  'h25-faith-upload-answers',
  'h25-store-config',
  'h25-store-disk',
  'h25-store-journals',
  'h25-store-upload-pending',
  'h25-text-completion-pty',
  'h25-text-key-echo',
  'h25-transport-hostile',
  'h25-transport-pages',
  'h25-transport-upload',
  'h26-validate-contract',
  'h27-apply-memory',
  'h27-pages-memory',
  'h28-demo-plan',
  'h28-plans-verify-pacing',
  'h29-action',
  'h29-install-check',
  'h29-polish-terminal',
  'h29-step-summary',
  'h34-drift-hostile',
  'h34-key-forms-sinks',
  'h34-local-state-read',
  'h34-plans-hostile',
  'h34-proc-config-dir',
  'h34-proxy-userinfo',
  'h34-request-parameters',
  'h34-retry-budget-zero',
  'h34-step-summary',
  'ingest-schedule',
  'lazy-crypto',
  'mcp-flows-changes',
  'mcp-flows-checks',
  'mcp-flows-server',
  'mcp-http',
  'mcp-read',
  'mcp-write',
  'mutation-wait-timeout',
  'mutations',
  'mutations-apply',
  'mutations-preview',
  'mutations-undo',
  'mutations-undo-kill',
  'node-smoke',
  'observe-tree',
  'pickers',
  'poll-pace',
  'plans',
  'plans-apply-leftover',
  'profiles',
  'proxy',
  'readme-recipes',
  'sandbox-boot-modules',
  'sandbox-fixtures',
  'stalled-stdout',
  'terminal',
  'unexpected-answers',
  'upload',
  'upload-concurrent',
  'upload-integrity',
  'upload-large',
  'upload-local-state',
  'w36-plans-fix',
  'w36-plans-suggest',
  'w36-plans-suggest-demo',
  'wal-fsync-before-send',
  'build-dist',
  'mcp-debug',
  'code-cache-build-temp',
]
  .map((name) => `test/e2e/${name}.test.ts`)
  // The fuzzers run every command in process, on the modules the other shared files import too (session 4). The contract fuzzer's change of the working directory is the worker process's only, made in
  // its beforeAll and undone in its afterAll; a forks worker runs one file at a time.
  .concat(['answers', 'contract-fuzz', 'mcp-fuzz', 'proposals'].map((name) => `test/fuzz/${name}.test.ts`));

// Unit files that judge state V8 or Node keeps once per process: a shared worker has it set already by an earlier
// file (boundOldGeneration is once per process, and a --all walk in any earlier file sets it with its own slack,
// which made h37-old-generation see 2 full collections where its 1 MiB slack gives >= 3): run in a process of their own.
const PROCESS_STATE_UNITS = ['test/unit/client/h37-old-generation.test.ts'];

export default defineConfig({
  test: {
    testTimeout: 30_000,
    hookTimeout: 60_000,
    pool: 'forks',
    // The compiled validators (src/contract/generated/*-validators.js, plain JavaScript importing nothing) are
    // loaded by Node as they are: vite's transform of their ~150 and ~320 KB took 2-4 s per file that loads one.
    server: { deps: { external: [/src\/contract\/generated\/[a-z-]+-validators\.js$/] } },
    // One transform of each module for the three projects, kept for this run only (test/helpers/module-cache.ts).
    experimental: { fsModuleCache: true, fsModuleCachePath: RUN_MODULE_CACHE },
    // Three on two cores (#37 session 9): with the waits taken out, a third worker fills the time the others spend
    // waiting on their children and servers. Paired whole runs, 3 against 2, in both orders: 188.3 / 194.9 s and
    // 178.1 / 193.1 s, CPU no higher (session 8 measured 3 worse, 346 against 279 s, on the suite before its cuts).
    maxWorkers: 3,
    // Each file gets its own TMPDIR under one root for the run; what a file leaves there fails it.
    globalSetup: ['./test/helpers/temp-global.ts'],
    reporters: ['default', './test/helpers/summary-reporter.ts'],
    // The longest files of each project first, from a committed table when vitest has no timings (a clean clone).
    sequence: { sequencer: SlowestFirst },
    projects: [
      {
        extends: true,
        test: {
          name: 'modules',
          include: ['test/unit/**/*.test.ts', 'test/sandbox/**/*.test.ts', 'test/wire/**/*.test.ts'],
          exclude: PROCESS_STATE_UNITS,
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
          include: ['test/e2e/**/*.test.ts', 'test/fuzz/**/*.test.ts', ...PROCESS_STATE_UNITS],
          exclude: SHARED_E2E,
          // Isolated: a fresh module graph per file (see SHARED_E2E for why these few stay so).
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
