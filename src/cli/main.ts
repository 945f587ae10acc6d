// Entry point. Fast paths first: `--version` reads package.json and nothing
// else; `--help` reads the registry's data and nothing else (no commander, no
// undici, zod, ora, inquirer or cli-table3). Everything else goes to the runner.
import { preParse } from './argv.js';
import { packageVersion } from './version.js';

async function main(argv: string[]): Promise<number> {
  const pre = preParse(argv);
  if (pre.version && pre.words.length === 0) {
    process.stdout.write(packageVersion() + '\n');
    return 0;
  }
  const isHelpWord = pre.words[0] === 'help';
  if (pre.help || isHelpWord || pre.words.length === 0) {
    const words = isHelpWord ? pre.words.slice(1) : pre.words;
    if (words.length === 0 && !pre.json) {
      // The top page needs only the first level: no definition file is loaded.
      const [{ topHelp }, { TOP_LEVEL }] = await Promise.all([import('./help.js'), import('./top-level.js')]);
      process.stdout.write(topHelp(TOP_LEVEL, packageVersion()));
      return 0;
    }
    const { getRegistry } = await import('./commands.js');
    const registry = getRegistry();
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
  return runCli(argv, { stdin: process.stdin, stdout: process.stdout, stderr: process.stderr, env: process.env });
}

function flushed(stream: NodeJS.WriteStream): Promise<void> {
  return new Promise((resolve) => stream.write('', () => resolve()));
}

const code = await main(process.argv.slice(2));
// Exit as soon as our output is handed to the OS: undici's sockets otherwise
// hold the event loop open for a few hundred ms after the last request.
await Promise.all([flushed(process.stdout), flushed(process.stderr)]);
process.exit(code);
