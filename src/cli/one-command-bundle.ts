// What a one-command bundle (commands/observe/fast-read.ts, commands/assets/sync-run.ts; #16, #37) does around its
// own choice of registry: run the argv to the process's exit through the same runner as the whole CLI, and decline a
// format drawn for a terminal (cli-table3 and the Intl formatting of values.ts are not in those bundles). One place,
// so the two bundles cannot come to differ in when they decline or how they end the process.
import { chooseFormat } from './output/format.js';
import { drawsForTerminal } from './output/writers/formats.js';
import { guardProcess, processEnvironment } from './process-io.js';
import type { Registry } from './registry.js';
import { runCli, type RunEnvironment } from './run.js';
import { ConfigStore, configDir } from '../state/config-store.js';

/** The process's environment before a registry is chosen. */
export type BundleEnvironment = Omit<RunEnvironment, 'registry'>;

/**
 * bin/adops.js's entry for a one-command bundle: run this process's argv with the registry `choose` gives, to its
 * exit, or answer false (nothing written, nothing sent) when it gives none and the whole CLI must run the argv.
 */
export async function runChosen(
  argv: readonly string[],
  choose: (argv: readonly string[], envIn: BundleEnvironment) => Registry | undefined,
): Promise<boolean> {
  const chosen = choose(argv, processEnvironment({}));
  if (!chosen) return false;
  const finish = guardProcess();
  return finish(await runCli(argv, processEnvironment({ registry: chosen })));
}

/** Whether the runner would draw a table for a terminal (or cannot tell: an unknown format, an unreadable config). */
export function tableOrUnknown(opts: Record<string, unknown>, envIn: BundleEnvironment): boolean {
  try {
    const output = typeof opts.output === 'string' ? opts.output : undefined;
    const json = opts.json === true;
    // --json or --output decides alone (chooseFormat): the config file is read once, by the runner (#37).
    const configured = json || output !== undefined ? undefined : new ConfigStore(configDir(envIn.env)).read().settings.output;
    return drawsForTerminal(chooseFormat({ output, json, configured, stdoutIsTTY: envIn.stdout.isTTY === true }));
  } catch {
    return true; // an unknown format or an unreadable config: the whole CLI says what is wrong
  }
}
