// The one context every command receives: streams with TTY flags, env,
// config, a lazily built API client, a prompter, a clock, output settings.
// Tests build it with buffers and TTY on or off; nothing global is patched.
import type { Readable, Writable } from 'node:stream';
import type { ApiClient } from '../client/http.js';
import type { RetryPolicy } from '../client/retry.js';
import type { ResolvedAuth } from '../config/resolve.js';
import type { ConfigStore } from '../config/store.js';
import type { OutputFormat } from './output/format.js';
import type { Prompter } from './prompter.js';

export interface Streams {
  stdin: Readable & { isTTY?: boolean };
  stdout: Writable & { isTTY?: boolean; columns?: number };
  stderr: Writable & { isTTY?: boolean };
}

export interface Clock {
  now(): number;
  sleep(ms: number, signal?: AbortSignal): Promise<void>;
}

export interface GlobalOptions {
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
}

export interface Spinner {
  update(text: string): void;
  stop(): void;
}

export interface CommandContext {
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
  note(message: string): void;
  warn(message: string): void;
  trace(line: string): void;
  spinner(text: string): Promise<Spinner>;
}
