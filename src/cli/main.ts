// Entry point of the whole CLI (bundled into dist/bundle/main.js). bin/adops.js
// has usually answered `--version` and the help pages before this loads, and
// runs a stored list (`observe campaigns --json`) from its own CommonJS bundle,
// dist/bundle/fast-read.cjs (commands/observe/fast-read.ts, #16); what that
// declines comes here. Both take the same entry decision (route.ts, #26): here
// it is asked again for main.js run alone. `--version` and the top page
// (quick.ts) read package.json and the first level of the tree; command help
// reads the registry's data and nothing else (no commander, no undici, zod, ora,
// inquirer or cli-table3). Everything else goes to the runner. Nothing is
// imported statically but the process's streams and how it ends (process-io.ts).

import { guardProcess, processEnvironment, stderrIsTerminal } from './process-io.js';
import type { HelpRoute } from './route.js';

// The composition root: every command group, listed once (src/commands/index.ts).
const loadRegistry = async () => (await import('../commands/index.js')).getRegistry();

async function main(argv: string[]): Promise<number> {
  const decision = (await import('./route.js')).route(argv, process.env, stderrIsTerminal);
  switch (decision.kind) {
    case 'complete':
      return (await import('./complete.js')).completeEntry(argv, process.env, process.stdout, loadRegistry);
    case 'version':
      process.stdout.write((await import('./version.js')).packageVersion() + '\n');
      return 0;
    case 'help':
      return help(decision, (await import('./version.js')).packageVersion);
    default:
      // A stored read too: main.js has no stored-read bundle of its own, the runner reads it.
      return (await import('./run.js')).runCli(argv, processEnvironment({ registry: await loadRegistry() }));
  }
}

async function help(decision: HelpRoute, version: () => string): Promise<number> {
  const quick = (await import('./quick.js')).helpPage(decision, version);
  if (quick !== undefined) {
    process.stdout.write(quick);
    return 0;
  }
  const registry = await loadRegistry();
  if (decision.tree) {
    process.stdout.write(JSON.stringify(registry.tree(), null, 2) + '\n');
    return 0;
  }
  const { helpFor } = await import('./help.js');
  const { text, known } = helpFor(registry, decision.words, version());
  if (!known) {
    process.stderr.write(`error: unknown command "${decision.words.join(' ')}"\n\n${text}`);
    return 2;
  }
  process.stdout.write(text);
  return 0;
}

const finish = guardProcess();
await finish(await main(process.argv.slice(2)));
