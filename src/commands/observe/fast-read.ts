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
import { chooseFormat } from '../../cli/output/format.js';
import { drawsForTerminal } from '../../cli/output/writers/formats.js';
import { plainParse } from '../../cli/program.js';
import { guardProcess, processEnvironment } from '../../cli/process-io.js';
import { Registry } from '../../cli/registry.js';
import { route } from '../../cli/route.js';
import { runCli, type RunEnvironment } from '../../cli/run.js';
import { TOP_LEVEL } from '../../cli/top-level.js';
import { ConfigStore, configDir } from '../../state/config-store.js';
import { observeResource } from './index.js';

type ReadEnvironment = Omit<RunEnvironment, 'registry'>;

/** The registry to run this argv with, or undefined (nothing written, nothing sent) when the whole CLI must run it. */
export function readRegistry(argv: readonly string[], envIn: ReadEnvironment): Registry | undefined {
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
export async function runFast(argv: readonly string[]): Promise<boolean> {
  const io = processEnvironment({});
  const chosen = readRegistry(argv, io);
  if (!chosen) return false;
  const finish = guardProcess();
  return finish(await runCli(argv, processEnvironment({ registry: chosen })));
}

function tableOrUnknown(opts: Record<string, unknown>, envIn: ReadEnvironment): boolean {
  try {
    const output = typeof opts.output === 'string' ? opts.output : undefined;
    const json = opts.json === true;
    // --json or --output decides alone (chooseFormat): the config file is read once, by the runner (#37).
    const configured = json || output !== undefined ? undefined : new ConfigStore(configDir(envIn.env)).read().settings.output;
    return drawsForTerminal(chooseFormat({ output, json, configured, stdoutIsTTY: envIn.stdout.isTTY === true }));
  } catch {
    return true; // an unknown format or an unreadable config: the runner says what is wrong
  }
}
