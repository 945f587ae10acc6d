// Run the CLI in this process (issue #26: command behaviour tested in process,
// in gh's style): the same argv, environment, stdin and result shape as
// runAdops (helpers/cli.ts), through the same entry decision the launcher takes
// (cli/route.ts). A stored read runs with the registry its own bundle would
// (commands/observe/fast-read.ts readRegistry), everything else with the whole
// registry, as main.ts does. What only the binary answers (help pages and
// --version from their CommonJS bundles, `__complete`), what an environment
// variable changes in Node itself (TZ, NODE_*) and the commands that run a
// server for the life of their process (`adops sandbox serve`, `adops demo`:
// the SQLite driver is chosen from the process's environment) still run the
// built binary. `adops sandbox keys` runs here: it takes the runner's env and
// notes as every command does.
//
// The streams are not terminals unless `tty` is given; stdin is a pipe holding
// `stdin` (empty when absent), as runAdops gives the child. Nothing here is
// process-global: the runner gets its own AbortSignal (no SIGINT/SIGTERM
// listeners), its env explicitly, and the shared HTTP transport is closed
// whenever no run is under way, so each run starts with fresh connections as a
// new process would (a keep-alive socket the server closed while idle between
// two tests is not reused: that gave ECONNRESET in process, never in the binary).
import { PassThrough } from 'node:stream';
import { afterAll } from 'vitest';
import { closeAllPools } from '../../src/client/http.js';
import { route } from '../../src/cli/route.js';
import type { Clock } from '../../src/cli/context.js';
import { runCli, type RunEnvironment } from '../../src/cli/run.js';
import type { Transport } from '../../src/client/transport.js';
import { readRegistry } from '../../src/commands/observe/fast-read.js';
import { getRegistry } from '../../src/commands/index.js';
import { baseEnv, runAdops, type RunOptions, type RunResult } from './cli.js';

afterAll(() => closeAllPools());

/** Variables Node itself reads at start-up (a clock zone, options, CA files): a run that sets one needs its own process. */
const NODE_LEVEL = /^(TZ|NODE_[A-Z_]+|UV_[A-Z_]+|SSL_CERT_(FILE|DIR))$/;
/** Commands that run a server for the life of their process. */
const OWN_PROCESS = new Set(['sandbox serve', 'demo']);
/** In-process runs under way; the shared transport is closed when the last one ends. */
let active = 0;

export interface InProcessOptions extends RunOptions {
  /** Terminal-on streams: stdin, stdout and stderr report isTTY and this many columns. */
  tty?: { columns: number };
  /** Where API requests go (an HttpStubs registry, the sandbox's app.fetch); node:http when absent. */
  transport?: Transport;
  /** The run's clock (its retry waits and polls sleep on it): a virtual one makes them instant. */
  clock?: Clock;
  /** Aborted: the run is cut as by its timeout (the contract fuzzer's request budget). */
  abort?: AbortSignal;
}

function stream(tty: InProcessOptions['tty']) {
  const s = new PassThrough();
  if (tty) Object.assign(s, { isTTY: true, columns: tty.columns, rows: 50 });
  return s;
}

/** Like runAdops (same result; `signal` is null unless the run was cut by timeoutMs), but in this process. */
export async function runAdopsInProcess(args: readonly string[], opts: InProcessOptions = {}): Promise<RunResult> {
  const env = baseEnv(opts.env);
  const decision = route(args, env, () => opts.tty !== undefined);
  const nodeLevel = Object.keys(opts.env ?? {}).some((k) => NODE_LEVEL.test(k));
  const binary = decision.kind === 'help' || decision.kind === 'version' || decision.kind === 'complete';
  if (binary || nodeLevel || OWN_PROCESS.has(args[0] ?? '') || OWN_PROCESS.has(args.slice(0, 2).join(' '))) {
    if (opts.transport || opts.tty || opts.clock)
      throw new Error(`runAdopsInProcess: ${args.join(' ')} needs the binary, which cannot take a transport, a tty or a clock`);
    return runAdops(args, opts);
  }
  const started = Date.now();
  const [stdin, stdout, stderr] = [stream(opts.tty), stream(opts.tty), stream(opts.tty)];
  let out = '';
  let err = '';
  stdout.on('data', (c) => (out += c));
  stderr.on('data', (c) => {
    err += c;
    opts.onStderr?.(err);
  });
  stdin.end(opts.stdin ?? '');
  const controller = new AbortController();
  let timedOut = false;
  const cut = () => {
    timedOut = true;
    controller.abort();
  };
  const timer = setTimeout(cut, opts.timeoutMs ?? 15_000);
  opts.abort?.addEventListener('abort', cut, { once: true });
  const io: Omit<RunEnvironment, 'registry'> = {
    stdin,
    stdinIsTTY: opts.tty !== undefined,
    stdout,
    stderr,
    env,
    signal: controller.signal,
    ...(opts.transport ? { transport: opts.transport } : {}),
    ...(opts.clock ? { clock: opts.clock } : {}),
  };
  active++;
  try {
    const registry = (decision.kind === 'stored-read' ? readRegistry(args, io) : undefined) ?? getRegistry();
    const code = await runCli(args, { ...io, registry });
    // What the command wrote is all in `out` once its streams have passed it on.
    await new Promise<void>((r) => setImmediate(r));
    return { code: timedOut ? null : code, signal: timedOut ? 'SIGKILL' : null, stdout: out, stderr: err, ms: Date.now() - started };
  } finally {
    clearTimeout(timer);
    opts.abort?.removeEventListener('abort', cut);
    if (--active === 0) await closeAllPools();
  }
}
