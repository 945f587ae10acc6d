// The exit codes scripts branch on. Plain data: `adops --help` prints the table
// on its fast path; docs/cli.md, docs/exit-codes.md and the man page are generated
// from it (npm run gen), and a test fails when one is stale.
// Stable once documented: add codes, never renumber.
import { ANSWER_TABLE, answerDisposition, type AnswerTable, type KnownErrorCode } from '../contract/errors.js';
// The help's table reads only the statuses' rows: `adops --help` bundles them, not the error codes.
import { STATUS_DISPOSITIONS, type AnswerExit, type StatusRow } from '../contract/status-dispositions.js';

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

type StatusRows = Readonly<Record<number, StatusRow>>;

/** The statuses whose row exits `exit`, as help text names them ("401, 402, 403, a proxy's 407"). */
export function statusesExiting(exit: AnswerExit, statuses: StatusRows = STATUS_DISPOSITIONS): string {
  return Object.entries(statuses)
    .filter(([, row]) => row.exit === exit)
    .map(([status, row]) => row.label ?? status)
    .join(', ');
}

// Examples only; typed, so a renamed code fails to compile here.
const CONFLICTS: readonly KnownErrorCode[] = ['revision_mismatch', 'slug_conflict', 'provider_not_connected'];

/** Each code with its meaning; the statuses each answer's exit names come from the contract's table. */
export function exitCodeTable(rows: StatusRows = STATUS_DISPOSITIONS): ReadonlyArray<readonly [ExitCode, string]> {
  const statuses = (exit: AnswerExit) => statusesExiting(exit, rows);
  return [
    [EXIT.ok, 'success'],
    [
      EXIT.unexpected,
      `unexpected failure (a bug, an unexpected answer such as ${statuses('unexpected')} or a redirect; a local file the disk will not read or write)`,
    ],
    [EXIT.usage, 'usage error, caught before any request (bad flag, missing argument, insecure base URL, a config file adops cannot use as written)'],
    [EXIT.auth, `authentication, subscription or permission (${statuses('auth')}; no key configured)`],
    [EXIT.notFound, `not found (${statuses('notFound')})`],
    [EXIT.conflict, `conflict (${statuses('conflict')}: ${CONFLICTS.join(', ')}, ...)`],
    [EXIT.unavailable, `provider, network or timeout failure after retries (${statuses('unavailable')}, connection, proxy); a refused TLS certificate`],
    [EXIT.refused, `content refused by the service (${statuses('refused')}; a Line Item not valid or not ready)`],
    [EXIT.waitTimeout, 'a waited-for operation was still running when the wait timed out'],
    [EXIT.operationFailed, 'a waited-for operation finished and failed'],
    [EXIT.outcomeUnknown, 'a change was sent but adops could not tell whether it started (retry with the printed --idempotency-key)'],
    [EXIT.findings, 'a check asked to fail on findings found some: observe drift, plans verify or plans pacing with --exit-code'],
    [EXIT.interrupted, 'interrupted (Ctrl-C / SIGINT)'],
    [EXIT.terminated, 'terminated (SIGTERM)'],
  ];
}

export const EXIT_CODE_TABLE = exitCodeTable();

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

/** Exit code for a failure the service answered: the `exit` cell of its row in the contract's table (only that column). */
export function exitCodeForStatus(status: number, code?: string, table: AnswerTable = ANSWER_TABLE): ExitCode {
  return EXIT[answerDisposition(status, code, table).exit];
}

/**
 * The exit code of a failure answer as a whole: one that is not the service's (not JSON, past the
 * size cap, breaking the contract: adops's own `unexpected_answer`) is 1 whatever its status; else
 * its row's cell (a redirect has no row: adops follows none, so it is 1 too).
 */
export function exitCodeOfAnswer(status: number, code?: string, table: AnswerTable = ANSWER_TABLE): ExitCode {
  return code === 'unexpected_answer' ? EXIT.unexpected : exitCodeForStatus(status, code, table);
}

/** The table as plain text, for the `--help` epilogue. */
export function exitCodeHelp(): string {
  return ['Exit codes:', ...EXIT_CODE_TABLE.map(([code, text]) => `  ${String(code).padStart(3)}  ${text}`)].join('\n');
}
