// `adops mutations apply FILE` from its own bundle (#37 session 6): a file of changes is a
// cron job's or a pipeline's step, and from main.js its start-up was the ESM loader resolving,
// reading and linking ~65 chunks before the first row was read. Here it runs from ONE CommonJS
// file (dist/bundle/apply-run.cjs, built by scripts/build.mjs, loaded with its code cache by
// bin/adops.js when the entry decision, cli/route.ts, says 'apply'), as assets/sync-run.ts does
// for a sync: the same runner (cli/run.ts) with a registry of the one command. What it cannot
// read plainly, a format drawn for a terminal, or a run that reads every target live first
// (--preview, --undo-file, --skip-unchanged: the contract's zod schemas, not bundled here), it
// declines before it has read, written or sent anything (false), and the whole CLI runs the argv.
import { runChosen, type BundleEnvironment } from '../../cli/one-command-bundle.js';
import { oneCommandRegistry } from '../../cli/one-command-registry.js';
import type { Registry } from '../../cli/registry.js';
import { mutationCommands } from './index.js';

/** The options that make apply read every row's target live (mutation-preview.ts): the whole CLI runs them. */
const LIVE_READS = ['preview', 'undoFile', 'skipUnchanged'] as const;

/** The registry to run this argv with, or undefined (nothing read, written or sent) when the whole CLI must run it. */
export const applyRegistry = (argv: readonly string[], envIn: BundleEnvironment): Registry | undefined =>
  oneCommandRegistry(
    { kind: 'apply', group: 'mutations', command: 'apply', commands: mutationCommands, declines: (opts) => LIVE_READS.some((o) => opts[o] !== undefined) },
    argv,
    envIn,
  );

/** bin/adops.js's entry: run this process's argv to its exit, or answer false (nothing done) for the whole CLI. */
export const runApply = (argv: readonly string[]): Promise<boolean> => runChosen(argv, applyRegistry);
