// The statuses' rows of the contract's answer table (with the error codes of
// ./errors.ts): what becomes of an answer of each status, whatever body it
// carries. A file of its own, plain data, because `adops --help` prints the exit
// codes with the statuses each one stands for and reads only this part of the
// table (the launcher's help bundle holds nothing else of the contract).

/**
 * What adops does with a failed answer, one column per meaning (issue 35: one list of statuses had
 * decided the retry, the exit code and the throttle waits at once, so changing one changed all three):
 * - retry: 'never' (the same request would fail the same way); 'transient' (a blip: sent again after
 *   a short backoff, --retries and --retry-budget); 'throttle' ("slow down": waited out on the
 *   throttle's longer schedule, and every request sharing a gate waits with it).
 * - exit: the name of the exit code a command ends with when this answer is its failure, after any
 *   retries. The numbers are EXIT's (src/cli/exit-codes.ts): the contract names them only.
 */
export type RetryDisposition = 'never' | 'transient' | 'throttle';
export type AnswerExit = 'unexpected' | 'auth' | 'notFound' | 'conflict' | 'unavailable' | 'refused';

export interface Disposition {
  retry: RetryDisposition;
  exit: AnswerExit;
}

/** A status's row: what any answer of that status gets unless it names a code the table holds at it. */
export interface StatusRow extends Disposition {
  /** The retry instead when the body names a code the table does not hold at this status (a gateway's body names none). */
  retryWhenCoded?: RetryDisposition;
  /** How help text names the status, when the number alone would mislead. */
  label?: string;
}

/**
 * Statuses, whatever body they carry: a gateway's or a proxy's answer names no code of the table, and a
 * code's row leaves to its status's what it does not say. Any status without a row is `otherwise`.
 */
export const STATUS_DISPOSITIONS = {
  400: { retry: 'never', exit: 'refused' },
  401: { retry: 'never', exit: 'auth' },
  402: { retry: 'never', exit: 'auth' },
  403: { retry: 'never', exit: 'auth' },
  404: { retry: 'never', exit: 'notFound' },
  407: { retry: 'never', exit: 'auth', label: "a proxy's 407" },
  408: { retry: 'transient', exit: 'unavailable' },
  409: { retry: 'never', exit: 'conflict' },
  413: { retry: 'never', exit: 'refused' },
  415: { retry: 'never', exit: 'refused' },
  422: { retry: 'never', exit: 'refused' },
  429: { retry: 'throttle', exit: 'unavailable' },
  431: { retry: 'never', exit: 'refused' },
  500: { retry: 'never', exit: 'unexpected' },
  501: { retry: 'never', exit: 'refused' },
  // The service's 502 is provider_error; a 502 naming another code is a refusal we cannot vouch for.
  502: { retry: 'transient', exit: 'unavailable', retryWhenCoded: 'never' },
  503: { retry: 'transient', exit: 'unavailable' },
  504: { retry: 'transient', exit: 'unavailable' },
} as const satisfies Record<number, StatusRow>;

/** Any status without a row (a 3xx included: adops follows no redirect). */
export const OTHER_STATUSES: Disposition = { retry: 'never', exit: 'unexpected' };
