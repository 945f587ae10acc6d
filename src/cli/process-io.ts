// The process a run of the CLI is in, for both entries: main.ts (the whole CLI)
// and the stored reads' bundle (commands/observe/fast-read.ts, which
// bin/adops.js requires without main.js): its streams and environment for the
// runner, and how the run ends (call guardProcess() before the command runs,
// then hand its code to the returned finish()).
import { isatty } from 'node:tty';

/**
 * The process's streams and environment, with `extra` (the registry). stdin stays untouched
 * until a command reads it: process.stdin, once made, loads the stream and readline modules
 * (a file or /dev/null) or a socket (a pipe), which a read that never takes input does not
 * need; its TTY flag comes from isatty(0), the same test Node makes it with.
 */
export function processEnvironment<T extends object>(extra: T) {
  return {
    get stdin() {
      return process.stdin;
    },
    stdinIsTTY: isatty(0),
    stdout: process.stdout,
    stderr: process.stderr,
    env: process.env,
    ...extra,
  };
}

/** Whether stderr is a terminal, for the entry decision (route.ts): the test Node makes process.stderr.isTTY with. */
export const stderrIsTerminal = (): boolean => isatty(2);

function flushed(stream: NodeJS.WriteStream): Promise<void> {
  return new Promise((resolve) => stream.write('', () => resolve()));
}

// A signal decides the exit code from then on, whatever stdout does: a reader
// that stalls must not hold the process (nor turn 143 into 0 when it leaves).
const SIGNAL_EXIT: Partial<Record<NodeJS.Signals, number>> = { SIGINT: 130, SIGTERM: 143 };

export function guardProcess(): (code: number) => Promise<never> {
  let signalled: number | undefined;
  let finishing = false;
  for (const name of ['SIGINT', 'SIGTERM'] as const) {
    process.on(name, () => {
      const first = signalled === undefined;
      signalled ??= SIGNAL_EXIT[name];
      // Still running a command: the runner's own listener aborts it and it ends with this code.
      // Already winding down (waiting for stdout to drain), a second signal, or no runner listening
      // (a TAB's `__complete`, its refresh: nothing would act on it until their own bound): go now.
      if (finishing || !first || process.listenerCount(name) === 1) process.exit(signalled);
    });
  }
  // The reader of our results left (`adops … | head -1`): it has what it wanted.
  // Stop quietly with 0, like the launcher's --help, instead of dying on an
  // unhandled EPIPE with a stack trace; no further page is fetched. After a signal, its code.
  process.stdout.on('error', (err: NodeJS.ErrnoException) => {
    if (err.code === 'EPIPE') process.exit(signalled ?? 0);
    throw err;
  });
  return async (code) => {
    finishing = true;
    // Interrupted: the output is cut anyway, and a stalled reader must not keep us (stderr has the message).
    if (signalled !== undefined) process.exit(code);
    // Exit as soon as our output is handed to the OS: idle keep-alive sockets otherwise
    // hold the event loop open for a few hundred ms after the last request.
    await Promise.all([flushed(process.stdout), flushed(process.stderr)]);
    process.exit(code);
  };
}
