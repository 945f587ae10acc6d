// Whether an attempt's outcome is worth another try, decided as botocore's
// standard retry mode decides it (botocore/retries/standard.py): separate
// checkers, each for one kind of "try again", combined with OR.
// - transient: a connection failure, or a bare status the table calls transient
//   (botocore: TransientRetryableChecker, statuses and connection errors);
// - throttled: an answer the table calls throttle, or one whose body says a
//   provider's rate limit is used up (ThrottledRetryableChecker);
// - modeled: a code the table holds at its status, whose row calls it transient
//   (ModeledRetryableChecker: the service model's retryable trait).
// Each reads the contract's table (src/contract/errors.ts), passed in so a test
// can judge by a changed copy; none reads the exit column.

import { ANSWER_TABLE, answerDisposition, codeDisposition, codeRow, statusDisposition, type AnswerTable } from '../contract/errors.js';
import { isRecord } from './json.js';

export type AttemptOutcome =
  { kind: 'response'; status: number; code?: string; retryAfter?: string | null | undefined; throttled?: boolean } | { kind: 'network'; sent: boolean };

export interface RetryContext {
  /** Sending the request again after a lost answer is safe (a safe method; an upload PUT). */
  resendable: boolean;
  table: AnswerTable;
}

export type RetryChecker = (outcome: AttemptOutcome, context: RetryContext) => boolean;

// How providers word "rate limit used up" (sandbox and real platforms alike):
// provider_a code 17/4/32/613, provider_b 51021, provider_c RESOURCE_EXHAUSTED,
// provider_d rate_limit_exceeded; the words cover the rest.
const THROTTLE_WORDS = /rate.?limit|throttl|too many (calls|requests)|request limit|quota|resource_exhausted|resource_temporarily_exhausted/i;

/**
 * The one throttle detector: whether an answer says "slow down" rather than "failed": its row's
 * retry is 'throttle' (429), or it names a code whose throttle signal (provider_error's
 * platformError) has a rate-limit hint. The retry policy, the client's wait notes and
 * ApiError.throttled all ask it.
 */
export function isThrottleAnswer(status: number, body: unknown, table: AnswerTable = ANSWER_TABLE): boolean {
  const code = isRecord(body) && typeof body.error === 'string' ? body.error : undefined;
  if (answerDisposition(status, code, table).retry === 'throttle') return true;
  const signal = code === undefined ? undefined : codeRow(code, table)?.throttleSignal;
  if (!isRecord(body) || !signal?.statuses.includes(status)) return false;
  return THROTTLE_WORDS.test(JSON.stringify(body[signal.field] ?? {}));
}

/** Whether an attempt's outcome was a throttling answer (the table's word counts even when the caller did not run the detector on the body). */
export function isThrottled(outcome: AttemptOutcome, table: AnswerTable = ANSWER_TABLE): boolean {
  return outcome.kind === 'response' && (outcome.throttled === true || answerDisposition(outcome.status, outcome.code, table).retry === 'throttle');
}

export const transientChecker: RetryChecker = (outcome, { resendable, table }) => {
  if (outcome.kind === 'network') return !outcome.sent || resendable;
  return codeDisposition(outcome.status, outcome.code, table) === undefined && statusDisposition(outcome.status, outcome.code, table).retry === 'transient';
};

export const throttledChecker: RetryChecker = (outcome, { table }) => isThrottled(outcome, table);

export const modeledChecker: RetryChecker = (outcome, { table }) =>
  outcome.kind === 'response' && codeDisposition(outcome.status, outcome.code, table)?.retry === 'transient';

/** Retry when any of `checkers` says so (botocore: OrRetryChecker). */
export function orChecker(...checkers: readonly RetryChecker[]): RetryChecker {
  return (outcome, context) => checkers.some((check) => check(outcome, context));
}

/** The policy's question, before looking at time. */
export const standardChecker: RetryChecker = orChecker(transientChecker, throttledChecker, modeledChecker);
