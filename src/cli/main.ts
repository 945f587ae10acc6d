// Entry point (bundled into dist/bundle/main.js; bin/adops.js has usually
// answered `--version` and the help pages before this loads). Fast paths
// first: a stored list goes to its own one-file bundle (commands/observe/fast-read.ts, #16);
// `--version` and the top page (quick.ts) read package.json and the first
// level of the tree; command help reads the registry's data and nothing else
// (no commander, no undici, zod, ora, inquirer or cli-table3). Everything
// else goes to the runner. Nothing is imported statically: a stored read
// loads this file and fast-read.js, and no chunk.

const HELP_OR_VERSION = new Set(['-h', '--help', '-V', '--version']);

// The composition root: every command group, listed once (src/commands/index.ts).
const loadRegistry = async () => (await import('../commands/index.js')).getRegistry();

async function main(argv: string[]): Promise<number> {
  // Shell completion (the scripts call it on TAB): before any help or version handling of its words.
  if (argv[0] === '__complete') return (await import('./complete.js')).complete(argv.slice(1), process.env, process.stdout, loadRegistry);
  const io = { stdin: process.stdin, stdout: process.stdout, stderr: process.stderr, env: process.env };
  // A stored list (`observe campaigns --json`, the loop of many scripts). Help or version anywhere: not this way.
  if (argv[0] === 'observe' && !argv.some((a) => HELP_OR_VERSION.has(a))) {
    const code = await (await import('../commands/observe/fast-read.js')).runRead(argv, io);
    if (code !== undefined) return code;
  }
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
  return runCli(argv, { ...io, registry: await loadRegistry() });
}

function flushed(stream: NodeJS.WriteStream): Promise<void> {
  return new Promise((resolve) => stream.write('', () => resolve()));
}

// A signal decides the exit code from then on, whatever stdout does: a reader
// that stalls must not hold the process (nor turn 143 into 0 when it leaves).
const SIGNAL_EXIT: Partial<Record<NodeJS.Signals, number>> = { SIGINT: 130, SIGTERM: 143 };
let signalled: number | undefined;
for (const name of ['SIGINT', 'SIGTERM'] as const) {
  process.on(name, () => {
    const first = signalled === undefined;
    signalled ??= SIGNAL_EXIT[name];
    // Still running a command: the runner's own listener aborts it and it ends with this code.
    // Already winding down (waiting for stdout to drain), or a second signal: go now.
    if (finishing || !first) process.exit(signalled);
  });
}
let finishing = false;

// The reader of our results left (`adops … | head -1`): it has what it wanted.
// Stop quietly with 0, like the launcher's --help, instead of dying on an
// unhandled EPIPE with a stack trace; no further page is fetched. After a signal, its code.
process.stdout.on('error', (err: NodeJS.ErrnoException) => {
  if (err.code === 'EPIPE') process.exit(signalled ?? 0);
  throw err;
});

const code = await main(process.argv.slice(2));
finishing = true;
// Interrupted: the output is cut anyway, and a stalled reader must not keep us (stderr has the message).
if (signalled !== undefined) process.exit(code);
// Exit as soon as our output is handed to the OS: idle keep-alive sockets otherwise
// hold the event loop open for a few hundred ms after the last request.
await Promise.all([flushed(process.stdout), flushed(process.stderr)]);
process.exit(code);
