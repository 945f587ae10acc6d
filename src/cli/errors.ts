// Failures the CLI raises itself (as opposed to ApiError, which the service sent).
// Each carries its exit code so the runner maps every failure in one place.
import { EXIT, type ExitCode } from './exit-codes.js';

export class CliError extends Error {
  override readonly name: string = 'CliError';
  constructor(
    message: string,
    readonly exitCode: ExitCode,
    readonly hint?: string,
    /** Stable code for `--output json` errors, like the service's `error`. */
    readonly code: string = 'cli_error',
  ) {
    super(message);
  }
}

/** Wrong flags or arguments, found before any request was sent. */
export class UsageError extends CliError {
  override readonly name = 'UsageError';
  constructor(message: string, hint?: string) {
    super(message, EXIT.usage, hint, 'usage_error');
  }
}

/** Raised when the user interrupts (SIGINT) so the runner exits 130. */
export class InterruptedError extends CliError {
  override readonly name = 'InterruptedError';
  constructor() {
    super('interrupted', EXIT.interrupted, undefined, 'interrupted');
  }
}

/** What went wrong, in words: an Error's message (a thrown non-Error as text). */
export function messageOf(err: unknown): string {
  return err instanceof Error ? err.message : String(err);
}

/** The errno code of a failed file or socket call ('ENOENT'), if it has one. */
export function errnoCode(err: unknown): string | undefined {
  return err instanceof Error && 'code' in err && typeof err.code === 'string' ? err.code : undefined;
}
