// ToolEnv.run: `adops <argv…>` in this process, as the tests' run-in-process
// helper does, through the CLI's own runner: the same parse, checks, transport,
// retries, caps, redaction and exit codes as at a prompt. Streams are captured
// (none is a terminal, so nothing prompts or draws), --no-input is added, and
// the global flags the server was started with (--profile, --base-url, the
// timeouts and retries) are passed on, so the key comes from the same profile or
// environment and never travels in argv. Runs overlap (an agent may call tools
// concurrently): the shared HTTP pools stay open after each (keepPools) and the
// server closes them when it stops. With `adops mcp --debug` (or ADOPS_DEBUG)
// every run gets --debug too, and its `[debug] …` lines are taken out of what
// it wrote on stderr (which a tool result may quote) and handed, line by line as
// they come, to `trace`: the server's stderr, never stdout (on stdio that is the
// protocol stream), through the CLI's boundary (key masked, controls stripped).
import { PassThrough } from 'node:stream';
import type { Clock, GlobalOptions } from '../cli/context.js';
import type { Registry } from '../cli/registry.js';
import { runCli } from '../cli/run.js';
import type { CommandRun, ToolEnv } from './tool-def.js';

export interface RunnerSetup {
  registry: Registry;
  env: Record<string, string | undefined>;
  /** The server's own global flags, passed on to every run. */
  globals: GlobalOptions;
  /** Aborted when the server stops. */
  signal: AbortSignal;
  /** The runs' clock (tests: a virtual one, so retry waits and polls cost nothing); the real one when absent. */
  clock?: Clock | undefined;
  /** Where the runs' --debug lines go (the server's own trace); without it, runs trace nothing. */
  trace?: ((line: string) => void) | undefined;
}

const DEBUG_PREFIX = '[debug] ';

/**
 * A run's stderr, split: its `[debug] ` lines to `trace` as each line completes, the rest kept (the text
 * a tool result may quote). A line cut across chunks is held until its end arrives.
 */
function stderrSplitter(trace: ((line: string) => void) | undefined): { write(chunk: string): void; kept(): string } {
  let kept = '';
  let partial = '';
  const line = (text: string, end: string) => {
    if (text.startsWith(DEBUG_PREFIX)) trace?.(text.slice(DEBUG_PREFIX.length));
    else kept += text + end;
  };
  return {
    write(chunk) {
      const lines = (partial + chunk).split('\n');
      partial = lines.pop() ?? '';
      for (const text of lines) line(text, '\n');
    },
    kept() {
      if (partial) line(partial, '');
      partial = '';
      return kept;
    },
  };
}

/** The global flags a run inherits from the server (--output and the like are the tool's choice). */
export function inheritedFlags(g: GlobalOptions): string[] {
  const flags: string[] = [];
  const add = (name: string, v: string | number | undefined) => {
    if (v !== undefined) flags.push(`--${name}=${String(v)}`);
  };
  add('profile', g.profile);
  add('base-url', g.baseUrl);
  add('request-timeout', g.requestTimeout);
  add('connect-timeout', g.connectTimeout);
  add('retries', g.retries);
  add('retry-budget', g.retryBudget);
  return flags;
}

/** argv with `extra` placed before a `--` (after it, every word is a positional). */
function withFlags(argv: readonly string[], extra: readonly string[]): string[] {
  const at = argv.indexOf('--');
  return at === -1 ? [...argv, ...extra] : [...argv.slice(0, at), ...extra, ...argv.slice(at)];
}

export function commandRunner(setup: RunnerSetup): ToolEnv['run'] {
  const inherited = [...inheritedFlags(setup.globals), '--no-input', ...(setup.trace ? ['--debug'] : [])];
  return async (argv, opts = {}) => {
    const [stdin, stdout, stderr] = [new PassThrough(), new PassThrough(), new PassThrough()];
    let out = '';
    const err = stderrSplitter(setup.trace);
    stdout.setEncoding('utf8').on('data', (c: string) => (out += c));
    stderr.setEncoding('utf8').on('data', (c: string) => err.write(c));
    stdin.end(opts.stdin ?? '');
    const signal = opts.signal ? AbortSignal.any([opts.signal, setup.signal]) : setup.signal;
    const code = await runCli(withFlags(argv, inherited), {
      stdin,
      stdinIsTTY: false,
      stdout,
      stderr,
      env: setup.env,
      signal,
      registry: setup.registry,
      keepPools: true,
      ...(setup.clock ? { clock: setup.clock } : {}),
    });
    // What the command wrote is all collected once its streams have passed it on.
    await new Promise<void>((resolve) => setImmediate(resolve));
    const run: CommandRun = { code, stdout: out, stderr: err.kept() };
    return run;
  };
}
