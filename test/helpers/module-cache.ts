// Where this run keeps the modules vite transformed (vitest.config.ts experimental.fsModuleCache). Each of
// the config's three projects is a vite environment of its own that transforms src/ again; with one cache on
// disk a module is transformed once per run and the other projects read it (measured in docs/performance.md,
// #37 session 7). One directory per run, named by the vitest process that runs it and removed at the run's
// end (temp-global.ts): no run reads another's transforms, so an edit, a rename or a branch switch can never
// be served a stale one (a cached transform is keyed on the file's own text, not on what its imports resolve
// to: vitest issue #11246). Read in vitest's main process only (the config and the global setup).
import { tmpdir } from 'node:os';
import { join } from 'node:path';

export const RUN_MODULE_CACHE = join(tmpdir(), `adops-test-run-modules-${process.pid}`);
