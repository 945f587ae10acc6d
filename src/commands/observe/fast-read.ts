// The stored reads' own bundle (#16): `adops observe <resource> [list] …` with
// argv of the plain shape (program.ts, plainParse) runs here, from ONE file
// (dist/bundle/fast-read.js, built apart by scripts/build.mjs), instead of
// the ~40 chunks the code-split build loads for it. It is the same runner
// (cli/run.ts) with a registry of the observe group only, composed here as the
// whole registry is for the whole CLI; argv it cannot read plainly (or another
// command) is left to the whole CLI: runRead answers undefined before it has
// written or sent anything.
import { chooseFormat } from '../../cli/output/format.js';
import { plainParse } from '../../cli/program.js';
import { Registry } from '../../cli/registry.js';
import { runCli, type RunEnvironment } from '../../cli/run.js';
import { TOP_LEVEL } from '../../cli/top-level.js';
import { ConfigStore, configDir } from '../../config/store.js';
import { observeCommands, observeGroups } from './index.js';

let registry: Registry | undefined;

/** The run's exit code, or undefined (nothing written, nothing sent) when the whole CLI must run it. */
export async function runRead(argv: readonly string[], envIn: Omit<RunEnvironment, 'registry'>): Promise<number | undefined> {
  // On a terminal's stderr a spinner may turn (and with stdin one too, a prompt or a picker): not bundled here.
  const ci = envIn.env.CI !== undefined && envIn.env.CI !== '' && envIn.env.CI !== '0' && envIn.env.CI.toLowerCase() !== 'false';
  if (envIn.stderr.isTTY === true && !ci) return undefined;
  // Through a proxy an https request tunnels (node:tls, undici): not bundled here either.
  if (['http_proxy', 'https_proxy', 'HTTP_PROXY', 'HTTPS_PROXY'].some((name) => envIn.env[name] !== undefined)) return undefined;
  registry ??= new Registry(
    [...TOP_LEVEL.filter((t) => t.name === 'observe').map((t) => ({ path: [t.name], description: t.description })), ...observeGroups],
    observeCommands,
  );
  const parsed = plainParse(registry, argv);
  // A stored list only: a live read, drift or insights take the usual way (they may ask, draw or wait); so does --query (JMESPath).
  if (!parsed || parsed.spec.path.at(-1) !== 'list' || parsed.input.opts.live !== undefined || parsed.input.opts.query !== undefined) return undefined;
  // A table (cli-table3, the Intl formatting of values.ts) is not bundled here: the format the runner will choose, from the same inputs.
  if (tableOrUnknown(parsed.input.opts, envIn)) return undefined;
  return runCli(argv, { ...envIn, registry });
}

function tableOrUnknown(opts: Record<string, unknown>, envIn: Omit<RunEnvironment, 'registry'>): boolean {
  try {
    const configured = new ConfigStore(configDir(envIn.env)).read().settings.output;
    const output = typeof opts.output === 'string' ? opts.output : undefined;
    return chooseFormat({ output, json: opts.json === true, configured, stdoutIsTTY: envIn.stdout.isTTY === true }) === 'table';
  } catch {
    return true; // an unknown format or an unreadable config: the runner says what is wrong
  }
}
