// The exit codes scripts branch on. Plain data: `adops --help` prints the table
// on its fast path, docs/exit-codes.md is checked against it by a test.
// Stable once documented: add codes, never renumber.
import { RETRYABLE_STATUSES } from '../contract/errors.js';

export const EXIT = {
  ok: 0,
  unexpected: 1,
  usage: 2,
  auth: 3,
  notFound: 4,
  conflict: 5,
  unavailable: 6,
  refused: 7,
  waitTimeout: 8,
  operationFailed: 9,
  interrupted: 130,
  terminated: 143,
  /** A change was sent and adops could not confirm whether it started (mutations). */
  outcomeUnknown: 10,
  /**
   * A check asked to fail on findings found some (like `git diff --exit-code`): `observe drift`, `plans verify`
   * and `plans pacing` with --exit-code. `drift` is its first name, kept for the callers that use it.
   */
  findings: 11,
  drift: 11,
} as const;

export type ExitCode = (typeof EXIT)[keyof typeof EXIT];

export const EXIT_CODE_TABLE: ReadonlyArray<readonly [ExitCode, string]> = [
  [EXIT.ok, 'success'],
  [EXIT.unexpected, 'unexpected failure (a bug, an unexpected answer such as 500 or a redirect; a local file the disk will not read or write)'],
  [EXIT.usage, 'usage error, caught before any request (bad flag, missing argument, insecure base URL, a config file adops cannot use as written)'],
  [EXIT.auth, "authentication, subscription or permission (401, 402, 403; no key configured; a proxy's 407)"],
  [EXIT.notFound, 'not found (404)'],
  [EXIT.conflict, 'conflict (409: revision_mismatch, slug_conflict, provider_not_connected)'],
  [EXIT.unavailable, 'provider, network or timeout failure after retries (408, 429, 502, 503, 504, connection, proxy); a refused TLS certificate'],
  [EXIT.refused, 'content refused by the service (400, 413, 415, 422, 431, 501; a Line Item not valid or not ready)'],
  [EXIT.waitTimeout, 'a waited-for operation was still running when the wait timed out'],
  [EXIT.operationFailed, 'a waited-for operation finished and failed'],
  [EXIT.outcomeUnknown, 'a change was sent but adops could not tell whether it started (retry with the printed --idempotency-key)'],
  [EXIT.findings, 'a check asked to fail on findings found some: observe drift, plans verify or plans pacing with --exit-code'],
  [EXIT.interrupted, 'interrupted (Ctrl-C / SIGINT)'],
  [EXIT.terminated, 'terminated (SIGTERM)'],
];

/** What any command may exit with; a command documents any other code it uses (CommandSpec.exits). */
export const COMMON_EXITS: readonly ExitCode[] = [
  EXIT.ok,
  EXIT.unexpected,
  EXIT.usage,
  EXIT.auth,
  EXIT.notFound,
  EXIT.conflict,
  EXIT.unavailable,
  EXIT.refused,
  EXIT.interrupted,
  EXIT.terminated,
];

/** A command's own exit codes, each with its meaning (for its help page and docs/cli.md). */
export function ownExitLines(exits: readonly number[]): string[] {
  return exits.map((code) => `${code}: ${EXIT_CODE_TABLE.find(([c]) => c === code)?.[1] ?? 'see docs/exit-codes.md'}`);
}

/** Exit code for an HTTP failure status from the service. */
export function exitCodeForStatus(status: number): ExitCode {
  if (status === 401 || status === 402 || status === 403 || status === 407) return EXIT.auth;
  if (status === 404) return EXIT.notFound;
  if (status === 409) return EXIT.conflict;
  // The answers the contract calls retryable (408, 429, 502, 503, 504): still failing after the retries.
  if (RETRYABLE_STATUSES.includes(status)) return EXIT.unavailable;
  if (status === 400 || status === 413 || status === 415 || status === 422 || status === 431 || status === 501) return EXIT.refused;
  return EXIT.unexpected;
}

/** The table as plain text, for the `--help` epilogue. */
export function exitCodeHelp(): string {
  return ['Exit codes:', ...EXIT_CODE_TABLE.map(([code, text]) => `  ${String(code).padStart(3)}  ${text}`)].join('\n');
}
