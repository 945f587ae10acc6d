// The one context every command receives: streams with TTY flags, env,
// config, a lazily built API client, a prompter, a clock, output settings.
// Tests build it with buffers and TTY on or off; nothing global is patched.
// What a command is (its spec, input and module) is declared here too: a spec's
// handler takes the context, and the context holds the command tree of the run.
import type { Readable, Writable } from 'node:stream';
import type { ApiClient } from '../client/http.js';
import type { RetryPolicy } from '../client/retry.js';
import type { ResolvedAuth } from '../config/resolve.js';
import type { OperationId } from '../contract/operations.js';
import type { ConfigStore } from '../state/config-store.js';
import type { OutputFormat } from './output/format.js';
import type { Prompter } from './prompter.js';

export interface Streams {
  stdin: Readable & { isTTY?: boolean };
  stdout: Writable & { isTTY?: boolean; columns?: number };
  stderr: Writable & { isTTY?: boolean };
}

/** Function properties, not methods: flows take `ctx.clock.now` and `.sleep` on their own. */
export interface Clock {
  now: () => number;
  sleep: (ms: number, signal?: AbortSignal) => Promise<void>;
}

// A type, not an interface: with the declared options it forms a handler's input, which must fit a plain record.
export type GlobalOptions = {
  output?: string;
  json?: boolean;
  fields?: string[];
  query?: string;
  profile?: string;
  baseUrl?: string;
  requestTimeout?: number;
  connectTimeout?: number;
  retries?: number;
  retryBudget?: number;
  debug?: boolean;
  color?: boolean;
  input?: boolean;
  yes?: boolean;
};

/** The global flags as a handler's input carries them (commander's; --no-input is the runner's own, in ctx.globals). */
export type ParsedGlobals = Omit<GlobalOptions, 'input'>;

export interface Spinner {
  update(text: string): void;
  stop(): void;
}

export interface CommandContext {
  /** The commands of this run (the composition root's registry, src/commands/index.ts). */
  registry: CommandTree;
  io: Streams & { stdinIsTTY: boolean; stdoutIsTTY: boolean; stderrIsTTY: boolean };
  env: Record<string, string | undefined>;
  config: ConfigStore;
  globals: GlobalOptions;
  version: string;
  /** Profile, base URL and key after flags > env > file. */
  auth(): ResolvedAuth;
  /** The API client for the resolved profile; built (and node:http loaded) on first use, on the injected transport. */
  client(): Promise<ApiClient>;
  /** A client for another base URL or key (auth login's check), with the same transport, settings and notes. */
  makeClient(over: { baseUrl: string; apiKey?: string; retry?: Partial<RetryPolicy> }): Promise<ApiClient>;
  prompter: Prompter;
  clock: Clock;
  /** Aborted on Ctrl-C. */
  signal: AbortSignal;
  /** `explicit`: the format was asked for (flag or config), not guessed from the TTY; errors are JSON only then. */
  output: { format: OutputFormat; explicit: boolean; fields: string[] | undefined; query: string | undefined; color: boolean };
  /** Prompts allowed: stdin and stderr are TTYs, CI unset, no --no-input. */
  interactive: boolean;
  /** Spinners, colour and redraws allowed on stderr. */
  fancy: boolean;
  debug: boolean;
  /** A message for the person: stderr, control characters stripped. */
  note: (message: string) => void;
  warn: (message: string) => void;
  trace: (line: string) => void;
  spinner(text: string): Promise<Spinner>;
}

export interface ArgSpec {
  name: string;
  description: string;
  required?: boolean;
  variadic?: boolean;
}

export interface OptionSpec {
  /** Commander flags, e.g. '-o, --output <format>' or '--all'. */
  flags: string;
  description: string;
  choices?: readonly string[];
  /** How the value is parsed; 'repeat' collects every occurrence into an array. */
  /** number: 0 or more; positive: more than 0 (an amount the service refuses at 0). */
  type?: 'string' | 'int' | 'number' | 'positive' | 'list' | 'boolean' | 'repeat';
  defaultValue?: string | number | boolean;
  hidden?: boolean;
  /** The operation field this flag sends (derived flags of operation commands), and where. */
  field?: string;
  in?: 'query' | 'body';
  /**
   * Handled by the runner before commander sees argv. Used for `--no-input`,
   * whose commander attribute (`input`) would collide with `--input <file>`.
   */
  preParsed?: boolean;
}

/**
 * What a handler receives. The parser builds it from the command's declared
 * args and options; `command()` (src/cli/command-input.ts) types it from them.
 */
export interface CommandInput<Opts = Record<string, unknown>, Args = Record<string, string | string[] | undefined>> {
  args: Args;
  /** Command options merged with the global ones, camelCased like commander. */
  opts: Opts;
}

/**
 * A handler module as the registry holds it. Method syntax on purpose: every
 * typed module (command() checked its input against its declarations) fits here.
 */
export interface CommandModule<Input = CommandInput> {
  /** Returns an exit code (default 0); failures are thrown and mapped by the runner. */
  run(ctx: CommandContext, input: Input, spec: CommandSpec): Promise<number | void>;
  /** What a destructive command is about to delete, for the confirmation question (default: its description and arguments). */
  describeTarget?(ctx: CommandContext, input: Input, spec: CommandSpec): Promise<string>;
}

export interface CommandSpec {
  path: readonly string[];
  description: string;
  args?: readonly ArgSpec[];
  options?: readonly OptionSpec[];
  examples?: readonly string[];
  /** The service operation this command performs, from src/contract/operations.ts. */
  operationId?: OperationId;
  /** Other operations it performs when a flag says so (e.g. `--live` reads live). */
  alternates?: ReadonlyArray<{ operationId: OperationId; when: string }>;
  /** Operations a flow command performs (e.g. upload: reserve, finalize, register). */
  flowOperations?: readonly OperationId[];
  /** Asks for confirmation on a TTY, needs --yes elsewhere. */
  destructive?: boolean;
  /**
   * Exit codes it may end with besides the common ones every command may (0-7, 130, 143: src/cli/exit-codes.ts
   * COMMON_EXITS): a wait's 8 and 9, a change in doubt's 10, a check's 11. Shown on its help page and in
   * docs/cli.md; the contract fuzzer fails a run that exits with a code its command does not document.
   */
  exits?: readonly number[];
  hidden?: boolean;
  /** Extra text for the help page. */
  notes?: string;
  load: () => Promise<CommandModule>;
  /** Per-command data handed to the generic handler (e.g. an operation command's spec). */
  data?: unknown;
}

export interface GroupSpec {
  path: readonly string[];
  description: string;
  /** The verb run when the group is named with no verb (`adops observe campaigns --live acc_1` lists). */
  defaultCommand?: string;
}

/** The command tree as commands see it (src/cli/registry.ts builds it). */
export interface CommandTree {
  readonly groups: readonly GroupSpec[];
  readonly commands: readonly CommandSpec[];
  /** Machine-readable command tree (`adops help --json`). */
  tree(): unknown;
}
