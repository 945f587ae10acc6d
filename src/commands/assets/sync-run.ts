// `adops assets sync` from its own bundle (#37): a re-run with nothing to send is a
// pipeline's every step, and from main.js its start-up was the ESM loader resolving,
// reading and linking ~60 chunks (~40% of the re-run's instructions). Here it runs from
// ONE CommonJS file (dist/bundle/sync-run.cjs, built by scripts/build.mjs, loaded with
// its code cache by bin/adops.js when the entry decision, cli/route.ts, says 'sync'),
// as commands/observe/fast-read.ts does for a stored read: the same runner (cli/run.ts)
// with a registry of the one command. What it cannot read plainly, or a format drawn
// for a terminal, it declines before it has written or sent anything (false), and the
// whole CLI runs the argv.
import { runChosen, type BundleEnvironment } from '../../cli/one-command-bundle.js';
import { oneCommandRegistry } from '../../cli/one-command-registry.js';
import type { Registry } from '../../cli/registry.js';
import { assetCommands } from './index.js';

/** The registry to run this argv with, or undefined (nothing written, nothing sent) when the whole CLI must run it. */
export const syncRegistry = (argv: readonly string[], envIn: BundleEnvironment): Registry | undefined =>
  oneCommandRegistry({ kind: 'sync', group: 'assets', command: 'sync', commands: assetCommands }, argv, envIn);

/** bin/adops.js's entry: run this process's argv to its exit, or answer false (nothing done) for the whole CLI. */
export const runSync = (argv: readonly string[]): Promise<boolean> => runChosen(argv, syncRegistry);
