// Entry point of the whole CLI (bundled into dist/bundle/main.js). bin/adops.js
// has usually answered `--version` and the help pages before this loads, and
// runs a stored list (`observe campaigns --json`) from its own CommonJS bundle,
// dist/bundle/fast-read.cjs (commands/observe/fast-read.ts, #16); what that
// declines comes here. `--version` and the top page (quick.ts) read
// package.json and the first level of the tree; command help reads the
// registry's data and nothing else (no commander, no undici, zod, ora,
// inquirer or cli-table3). Everything else goes to the runner. Nothing is
// imported statically but the process's streams and how it ends (process-io.ts).

import { guardProcess, processEnvironment } from './process-io.js';

// The composition root: every command group, listed once (src/commands/index.ts).
const loadRegistry = async () => (await import('../commands/index.js')).getRegistry();

async function main(argv: string[]): Promise<number> {
  // Shell completion (the scripts call it on TAB): before any help or version handling of its words.
  if (argv[0] === '__complete') return (await import('./complete.js')).complete(argv.slice(1), process.env, process.stdout, loadRegistry);
  const [{ preParse }, { quickAnswer }, { packageVersion }] = await Promise.all([import('./argv.js'), import('./quick.js'), import('./version.js')]);
  const quick = quickAnswer(argv, packageVersion);
  if (quick !== undefined) {
    process.stdout.write(quick);
    return 0;
  }
  const pre = preParse(argv);
  const isHelpWord = pre.words[0] === 'help';
  if (pre.help || isHelpWord || pre.words.length === 0) {
    const words = isHelpWord ? pre.words.slice(1) : pre.words;
    const registry = await loadRegistry();
    if (isHelpWord && pre.json) {
      process.stdout.write(JSON.stringify(registry.tree(), null, 2) + '\n');
      return 0;
    }
    const { helpFor } = await import('./help.js');
    const { text, known } = helpFor(registry, words, packageVersion());
    if (!known) {
      process.stderr.write(`error: unknown command "${words.join(' ')}"\n\n${text}`);
      return 2;
    }
    process.stdout.write(text);
    return 0;
  }
  const { runCli } = await import('./run.js');
  return runCli(argv, processEnvironment({ registry: await loadRegistry() }));
}

const finish = guardProcess();
await finish(await main(process.argv.slice(2)));
