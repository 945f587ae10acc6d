// The runner: parse, build the context, apply the shared behaviour once
// (output selection, non-interactive detection, confirmation of destructive
// commands, prompting for missing arguments), run the command, and map every
// failure to a message and an exit code.
import type { Readable, Writable } from 'node:stream';
import type { ApiClient, ClientConfig, RetryWait } from '../client/http.js';
import { DEFAULT_RETRY, DEFAULT_THROTTLE, realRetryDeps, type RetryPolicy } from '../client/retry.js';
import type { Transport } from '../client/transport.js';
import { resolveAuth, type ResolvedAuth } from '../config/resolve.js';
import { ConfigStore, configDir } from '../state/config-store.js';
import type { Settings } from '../state/config-shape.js';
import { describeCommand, type CommandSpec, type Registry } from './registry.js';
import type { Clock, CommandContext, GlobalOptions, Spinner } from './context.js';
import { CliError, InterruptedError, UsageError } from './errors.js';
import { EXIT } from './exit-codes.js';
import { chooseColor, chooseFormat } from './output/format.js';
import { writesJson } from './output/writers/formats.js';
import { blockText, lineText } from './output/sanitize.js';
import { wrapWords } from './output/wrap.js';
import { inquirerPrompter, refusingPrompter, type Prompter } from './prompter.js';
import { formatReport, formatReportJson, toReport } from './report.js';
import { parse } from './program.js';
import { preParse } from './argv.js';
import { packageVersion, userAgent } from './version.js';
import { canPrompt, drawsOnStderr, dumbTerminal, flagSet, isCi } from './terminal.js';

export interface RunEnvironment {
  stdin: Readable & { isTTY?: boolean };
  /** Whether stdin is a terminal, when known without touching stdin (cli/process-io.ts); else stdin.isTTY. */
  stdinIsTTY?: boolean;
  stdout: Writable & { isTTY?: boolean };
  stderr: Writable & { isTTY?: boolean };
  env: Record<string, string | undefined>;
  /** Aborted on Ctrl-C; when absent the runner listens for SIGINT/SIGTERM itself. */
  signal?: AbortSignal;
  clock?: Clock;
  prompter?: Prompter;
  /** The commands (the entry passes the composition root's, src/commands/index.ts; tests their own). */
  registry: Registry;
  /** Where API requests go; the node:http transport when absent (tests pass a stub registry). */
  transport?: Transport;
  /**
   * Leave the shared HTTP pools open when the run ends: `adops mcp` runs commands concurrently in one process, and
   * one run closing the pools would cut another's requests (the server closes them when it stops).
   */
  keepPools?: boolean;
}

// The client (and node:http with it) loads on a command's first request:
// commands that send none (config, auth status, help of a group) skip it.
let clientModule: Promise<typeof import('../client/http.js')> | undefined;
const loadClient = () => (clientModule ??= import('../client/http.js'));

const realClock: Clock = { now: realRetryDeps.now, sleep: realRetryDeps.sleep };

const stdinIsTerminal = (envIn: RunEnvironment): boolean => envIn.stdinIsTTY ?? envIn.stdin.isTTY === true;

/** SIGTERM (a supervisor, `timeout`, `kill`): exit 128+15 as shells and supervisors expect, not Ctrl-C's 130. */
export class TerminatedError extends CliError {
  override readonly name = 'TerminatedError';
  constructor() {
    super('terminated', EXIT.terminated, undefined, 'terminated');
  }
}

/** The abort reason for a signal: its exit code travels with it to the report. */
export function abortReasonFor(name: NodeJS.Signals): CliError {
  return name === 'SIGTERM' ? new TerminatedError() : new InterruptedError();
}

function listenForSignals(): { signal: AbortSignal; dispose: () => void } {
  const controller = new AbortController();
  const onSignal = (name: NodeJS.Signals) => {
    // A second signal while we wind down: go now.
    if (controller.signal.aborted) process.exit(name === 'SIGINT' ? EXIT.interrupted : EXIT.terminated);
    controller.abort(abortReasonFor(name));
  };
  process.on('SIGINT', onSignal);
  process.on('SIGTERM', onSignal);
  return {
    signal: controller.signal,
    dispose: () => {
      process.off('SIGINT', onSignal);
      process.off('SIGTERM', onSignal);
    },
  };
}

export async function runCli(argv: readonly string[], envIn: RunEnvironment): Promise<number> {
  const { stderr } = envIn;
  const pre = preParse(argv);
  const signals = envIn.signal ? undefined : listenForSignals();
  const signal = envIn.signal ?? signals!.signal;
  let ctx: CommandContext | undefined;
  try {
    const { registry } = envIn;
    const found = registry.find(pre.words);
    if (found.group && found.depth === pre.words.length && !found.group.defaultCommand) {
      const { groupHelp } = await import('./help.js');
      envIn.stdout.write(groupHelp(registry, found.group.path, found.group.description));
      return EXIT.ok;
    }
    // --no-input is ours, not commander's (its attribute would clash with --input FILE).
    const dashdash = argv.indexOf('--');
    const head = dashdash === -1 ? argv : argv.slice(0, dashdash);
    const noInput = head.includes('--no-input');
    let rest = noInput ? [...head.filter((t) => t !== '--no-input'), ...(dashdash === -1 ? [] : argv.slice(dashdash))] : argv;
    // On a terminal an id flag given without its value (`--live`) is picked from a list; elsewhere commander says it is missing.
    const canAsk = canPrompt(envIn.env, stdinIsTerminal(envIn), stderr.isTTY === true, noInput);
    if (canAsk) {
      const { pickFlagValues } = await import('./pickers.js');
      rest = await pickFlagValues(registry, rest, { env: envIn.env, signal, prompter: envIn.prompter ?? inquirerPrompter(envIn.stdin, stderr, signal) });
    }
    let parsed;
    try {
      parsed = await parse(registry, rest);
    } catch (err) {
      const e = err as { code?: string; message?: string };
      if (typeof e.code === 'string' && e.code.startsWith('commander.')) {
        throw new UsageError(String(e.message ?? 'usage error').replace(/^error: /, ''), 'see `adops --help` or `adops <command> --help`');
      }
      throw err;
    }
    if (!parsed) throw new UsageError('no command given', 'see `adops --help`');
    const { spec, input } = parsed;
    ctx = buildContext(envIn, { ...(input.opts as GlobalOptions), ...(noInput ? { input: false } : {}) }, signal);

    // Shared behaviour, once for every command.
    for (const a of spec.args ?? []) {
      if (!a.required || input.args[a.name] !== undefined) continue;
      if (!ctx.interactive)
        throw new UsageError(`missing argument <${a.name}>`, `usage: adops ${spec.path.join(' ')} ${(spec.args ?? []).map((x) => `<${x.name}>`).join(' ')}`);
      const { argPicker, pick } = await import('./pickers.js');
      const kind = argPicker(spec.path, a.name);
      const where = { ...(ctx.globals.profile ? { profile: ctx.globals.profile } : {}), ...(ctx.globals.baseUrl ? { baseUrl: ctx.globals.baseUrl } : {}) };
      input.args[a.name] = kind
        ? await pick(kind, a.name, { env: ctx.env, prompter: ctx.prompter, signal, where })
        : (await ctx.prompter.text(`${a.name}:`)).trim();
      if (!input.args[a.name]) throw new UsageError(`missing argument <${a.name}>`);
    }
    if (isDestructive(spec, input) && !ctx.globals.yes) {
      const what = (spec.args ?? [])
        .map((a) => input.args[a.name])
        .filter((v) => v !== undefined)
        .join(' ');
      const shown = `adops ${spec.path.join(' ')}${what ? ` ${what}` : ''}`;
      if (!ctx.interactive) throw new UsageError(`"${lineText(shown)}" is destructive`, 'pass --yes to confirm when not on a terminal');
      // Name what is about to go (its slug, or its file name read from the service), so a person confirms the right thing.
      const module = await spec.load();
      const target = module.describeTarget ? await module.describeTarget(ctx, input, spec) : lineText(describeCommand(spec, input));
      const ok = await ctx.prompter.confirm(`${target}: delete it? This cannot be undone.`, false);
      if (!ok) {
        ctx.note('cancelled');
        return EXIT.usage;
      }
    }
    const module = await spec.load();
    const code = await module.run(ctx, input, spec);
    return code ?? EXIT.ok;
  } catch (err) {
    const report = toReport(signal.aborted && !(err instanceof CliError) ? signal.reason : err);
    const json = ctx ? ctx.output.explicit && writesJson(ctx.output.format) : pre.json;
    stderr.write(json ? formatReportJson(report) : wrapWords(formatReport(report), terminalWidth(stderr)));
    // A stack holds the message, which may be server text: sanitized like every other line.
    if (ctx?.debug && err instanceof Error && report.exitCode === EXIT.unexpected && err.stack) stderr.write(blockText(err.stack) + '\n');
    return report.exitCode;
  } finally {
    signals?.dispose();
    if (clientModule && envIn.keepPools !== true) await (await clientModule).closeAllPools();
  }
}

/** The columns of a terminal's stream, read when a line is written (the window may have been resized); undefined elsewhere. */
function terminalWidth(stream: { isTTY?: boolean; columns?: number }): number | undefined {
  return stream.isTTY === true && typeof stream.columns === 'number' && stream.columns > 0 ? stream.columns : undefined;
}

/** Every delete and detach; `adops api DELETE …` too. */
function isDestructive(spec: CommandSpec, input: { args: Record<string, unknown> }): boolean {
  if (spec.destructive) return true;
  const method = input.args.method;
  return spec.path.length === 1 && spec.path[0] === 'api' && typeof method === 'string' && method.toUpperCase() === 'DELETE';
}

/** 'provider_a is rate limiting (502 provider_error): waiting 10 s before retrying (attempt 3; 15 s so far)'. */
export function retryWaitNote(w: RetryWait): string {
  const who = w.provider ?? 'the service';
  const what = w.throttled ? `${who} is rate limiting` : `${w.method} failed`;
  return `${what} (${w.reason}): waiting ${Math.round(w.delayMs / 100) / 10} s before retrying (attempt ${w.attempt + 1}; ${Math.round(w.elapsedMs / 1000)} s so far)`;
}

/** What a client's configuration is made of besides the flags and settings: the run's own pieces. */
interface ClientParts {
  envIn: RunEnvironment;
  globals: GlobalOptions;
  settings: Settings;
  version: string;
  debug: boolean;
  clock: Clock;
  note: (m: string) => void;
}

/** The one place that turns flags, settings and the injected transport into a client configuration. */
function clientConfigOf(p: ClientParts, over: { baseUrl: string; apiKey?: string; retry?: Partial<RetryPolicy> }): ClientConfig {
  const { envIn, globals, settings, clock } = p;
  const seconds = (flag: number | undefined, setting: number | undefined, dflt: number) => Math.round((flag ?? setting ?? dflt) * 1000);
  const retries = globals.retries ?? settings.retries;
  const budget = globals.retryBudget ?? settings['retry-budget'];
  const maxAttempts = retries !== undefined ? Math.max(0, retries) + 1 : undefined;
  return {
    baseUrl: over.baseUrl,
    ...(over.apiKey !== undefined ? { apiKey: over.apiKey } : {}),
    userAgent: userAgent(p.version),
    requestTimeoutMs: seconds(globals.requestTimeout, settings['request-timeout'], 30),
    connectTimeoutMs: seconds(globals.connectTimeout, settings['connect-timeout'], 10),
    retry: {
      ...DEFAULT_RETRY,
      maxAttempts: maxAttempts ?? DEFAULT_RETRY.maxAttempts,
      budgetMs: seconds(globals.retryBudget, settings['retry-budget'], DEFAULT_RETRY.budgetMs / 1000),
      // --retries and --retry-budget bound throttling waits too; by default they may outlast a one-minute window.
      throttle: {
        ...DEFAULT_THROTTLE,
        ...(maxAttempts !== undefined ? { maxAttempts } : {}),
        ...(budget !== undefined ? { budgetMs: Math.round(budget * 1000) } : {}),
      },
      ...over.retry,
    },
    ...(p.debug ? { trace: (line: string) => envIn.stderr.write(`[debug] ${lineText(line)}\n`) } : {}),
    onRetryWait: (w) => {
      if (w.throttled || w.delayMs >= 1000) p.note(retryWaitNote(w));
    },
    ...(envIn.transport ? { transport: envIn.transport } : {}),
    env: envIn.env,
    // An injected clock (tests) also drives the retry waits.
    ...(envIn.clock ? { deps: { now: () => clock.now(), sleep: (ms, signal) => clock.sleep(ms, signal), random: realRetryDeps.random } } : {}),
  };
}

/** A spinner on stderr where one can be drawn (ora, loaded then); elsewhere one that shows nothing. */
async function spinnerOn(
  stderr: RunEnvironment['stderr'],
  draw: { fancy: boolean; color: boolean; env: RunEnvironment['env'] },
  text: string,
): Promise<Spinner> {
  // ora divides by the terminal width: a pty reporting 0 columns (script(1),
  // some CI runners) would make it redraw forever, so no spinner there.
  const columns = 'columns' in stderr && typeof stderr.columns === 'number' ? stderr.columns : 0;
  // TERM=dumb reads no escape sequence, and a spinner redraws its line with them.
  if (!draw.fancy || columns <= 0 || dumbTerminal(draw.env)) return { update: () => {}, stop: () => {} };
  const { default: ora } = await import('ora');
  const s = ora({ text, stream: stderr, color: draw.color ? 'cyan' : undefined, isEnabled: true, discardStdin: false }).start();
  return { update: (t) => void (s.text = lineText(t)), stop: () => void s.stop() };
}

export function buildContext(envIn: RunEnvironment, globals: GlobalOptions, signal: AbortSignal): CommandContext {
  const { stdout, stderr, env } = envIn;
  const ci = isCi(env);
  const stdinIsTTY = stdinIsTerminal(envIn);
  const stdoutIsTTY = stdout.isTTY === true;
  const stderrIsTTY = stderr.isTTY === true;
  const config = new ConfigStore(configDir(env));
  const settings = config.read().settings;
  const interactive = canPrompt(env, stdinIsTTY, stderrIsTTY, globals.input === false);
  // The spinner draws on stderr: coloured as chooseColor decides for that stream.
  const stderrColor = chooseColor({ env, stdoutIsTTY: stderrIsTTY, ci, flag: globals.color });
  const debug = globals.debug === true || flagSet(env.ADOPS_DEBUG);
  const fancy = drawsOnStderr(env, stderrIsTTY);
  const format = chooseFormat({ output: globals.output, json: globals.json, configured: settings.output, stdoutIsTTY });
  const clock = envIn.clock ?? realClock;
  let auth: ResolvedAuth | undefined;
  let client: ApiClient | undefined;
  const version = packageVersion();
  // The one printer of notes and warnings: through the boundary (masked, stripped, continuation lines indented).
  // On a terminal, wrapped at words to its width (a hint is often longer than 80 columns).
  const note = (m: string) => stderr.write(wrapWords(blockText(m), terminalWidth(stderr)) + '\n');
  const clientParts: ClientParts = { envIn, globals, settings, version, debug, clock, note };

  const ctx: CommandContext = {
    io: {
      // Made when a command reads it (process-io.ts).
      get stdin() {
        return envIn.stdin;
      },
      stdout,
      stderr,
      stdinIsTTY,
      stdoutIsTTY,
      stderrIsTTY,
    },
    registry: envIn.registry,
    env,
    config,
    globals,
    version,
    auth: () => (auth ??= resolveAuth(config, env, { profile: globals.profile, baseUrl: globals.baseUrl })),
    async client() {
      if (client) return client;
      const a = ctx.auth();
      if (!a.apiKey) {
        throw new CliError(
          `no API key for profile "${a.profile}"`,
          EXIT.auth,
          'run `adops auth login`, `adops sandbox serve --login`, or set ADOPS_API_KEY',
          'not_logged_in',
        );
      }
      client = await ctx.makeClient({ baseUrl: a.baseUrl, apiKey: a.apiKey });
      return client;
    },
    makeClient: async (over) => new (await loadClient()).ApiClient(clientConfigOf(clientParts, over)),
    prompter:
      envIn.prompter ??
      (interactive
        ? inquirerPrompter(envIn.stdin, stderr, signal)
        : refusingPrompter(ci ? 'CI is set' : globals.input === false ? '--no-input was given' : 'stdin or stderr is not a terminal')),
    clock,
    signal,
    output: {
      format,
      explicit: globals.output !== undefined || globals.json === true || settings.output !== undefined,
      fields: globals.fields,
      query: globals.query,
      color: chooseColor({ env, stdoutIsTTY, ci, flag: globals.color }),
    },
    interactive,
    fancy,
    debug,
    note,
    warn: (m) => note(`warning: ${m}`),
    trace: (line) => {
      if (debug) stderr.write(`[debug] ${lineText(line)}\n`);
    },
    spinner: (text) => spinnerOn(stderr, { fancy, color: stderrColor, env }, text),
  };
  return ctx;
}
