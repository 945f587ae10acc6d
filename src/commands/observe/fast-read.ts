// The stored reads' own bundle (#16): `adops observe <resource> [list] …` with
// argv of the plain shape (program.ts, plainParse) runs here, from ONE
// CommonJS file (dist/bundle/fast-read.cjs, built apart by scripts/build.mjs)
// that bin/adops.js requires when the entry decision (cli/route.ts, #26) says
// 'stored-read': no ESM loader, no main.js, none of the ~40 chunks the
// code-split build loads for it. It is the same runner (cli/run.ts) with a
// registry of the one observe resource argv names, composed here as the whole
// registry is for the whole CLI; argv it cannot read plainly is left to the
// whole CLI: runFast answers false before it has written or sent anything, and
// bin/adops.js imports main.js.
import { runChosen, tableOrUnknown, type BundleEnvironment } from '../../cli/one-command-bundle.js';
import { plainParse } from '../../cli/program.js';
import { Registry } from '../../cli/registry.js';
import { route } from '../../cli/route.js';
import { TOP_LEVEL } from '../../cli/top-level.js';
import { observeResource } from './index.js';

/** The registry to run this argv with, or undefined (nothing written, nothing sent) when the whole CLI must run it. */
export function readRegistry(argv: readonly string[], envIn: BundleEnvironment): Registry | undefined {
  // The launcher asked already; asked again (the same function) so this bundle never runs what it was not built for
  // (a terminal's spinner or prompt, a proxy's tunnel, help): its stubs would throw.
  if (route(argv, envIn.env, () => envIn.stderr.isTTY === true).kind !== 'stored-read') return undefined;
  // Of observe, the resource argv names (`observe campaigns …`) and nothing else: any other word, or an option first, is declined.
  const resource = observeResource(argv[1]);
  if (!resource) return undefined;
  const registry = new Registry(
    [...TOP_LEVEL.filter((t) => t.name === 'observe').map((t) => ({ path: [t.name], description: t.description })), resource.group],
    resource.commands,
  );
  const parsed = plainParse(registry, argv);
  // A stored list only: a live read, drift or insights take the usual way (they may ask, draw or wait); so does --query (JMESPath).
  if (!parsed || parsed.spec.path.at(-1) !== 'list' || parsed.input.opts.live !== undefined || parsed.input.opts.query !== undefined) return undefined;
  // A table (cli-table3, the Intl formatting of values.ts) is not bundled here: the format the runner will choose, from the same inputs.
  if (tableOrUnknown(parsed.input.opts, envIn)) return undefined;
  return registry;
}

/** bin/adops.js's entry: run this process's argv to its exit, or answer false (nothing done) for the whole CLI. */
export const runFast = (argv: readonly string[]): Promise<boolean> => runChosen(argv, readRegistry);
