// The one retry policy of adops. Pure decisions (what to retry, how long to
// wait) plus a small loop with injected sleep/random/clock so tests are exact.
//
// What is retried is the checkers' (./retry-checkers.ts), reading the retry
// column of the contract's answer table: for every method, the answers it calls
// transient or throttle, and connection failures before the request was sent;
// only for safe methods, a request that was sent but whose answer was lost.
// Waits use exponential backoff with full jitter above a floor (the base
// delay), Retry-After when the server sends one (never below that floor), and
// stop when the attempts or the total time budget run out.
//
// Throttling (the table's 'throttle', or a provider_error whose provider says
// its rate limit is used up) is not a blip: providers count every call in a
// per-minute window, refused ones included, so quick retries keep the window
// full. Those waits follow `policy.throttle`: seconds, doubling, with a budget
// long enough to outlast a one-minute window, each wait announced (onRetry).

import { ANSWER_TABLE, type AnswerTable } from '../contract/errors.js';
import { isThrottled, standardChecker, type AttemptOutcome } from './retry-checkers.js';

export { isThrottleAnswer, isThrottled, type AttemptOutcome } from './retry-checkers.js';

export interface RetryPolicy {
  /** Total tries including the first. 1 disables retries. */
  maxAttempts: number;
  baseDelayMs: number;
  maxDelayMs: number;
  /** Bound on the whole call, retries and waits included. */
  budgetMs: number;
  /** Waits after a throttling answer; DEFAULT_THROTTLE when absent. */
  throttle?: ThrottlePolicy;
}

export interface ThrottlePolicy {
  maxAttempts: number;
  baseDelayMs: number;
  maxDelayMs: number;
  budgetMs: number;
}

/**
 * 5, 10, 20, 30, 30 s, each stretched by 0-20% (never shortened): the 4th retry
 * comes more than a minute after the first refusal, when a per-minute window
 * that was full has emptied, having spent only 4 calls against it.
 */
export const DEFAULT_THROTTLE: ThrottlePolicy = { maxAttempts: 6, baseDelayMs: 5_000, maxDelayMs: 30_000, budgetMs: 120_000 };

export const DEFAULT_RETRY: RetryPolicy = { maxAttempts: 4, baseDelayMs: 250, maxDelayMs: 8_000, budgetMs: 30_000 };

/**
 * Requests that share a gate wait out each other's throttling: when one is
 * told to slow down, the others hold their next attempt until its wait ends
 * (a pool of workers spends one provider window, not one each). Each request
 * still keeps its own bound on attempts.
 */
export class ThrottleGate {
  private until = 0;

  /** Hold every request through this gate until `atMs`. */
  hold(atMs: number): void {
    this.until = Math.max(this.until, atMs);
  }

  /** Whether a hold is in force at `nowMs` (a request then waits in `pass`). */
  holds(nowMs: number): boolean {
    return this.until > nowMs;
  }

  /** Resolve once no hold is in force (sleeping through it). */
  async pass(deps: Pick<RetryDeps, 'now' | 'sleep'>, signal?: AbortSignal): Promise<void> {
    for (let wait = this.until - deps.now(); wait > 0; wait = this.until - deps.now()) await deps.sleep(wait, signal);
  }
}

const SAFE_METHODS = new Set(['GET', 'HEAD', 'OPTIONS']);

function isSafeMethod(method: string): boolean {
  return SAFE_METHODS.has(method.toUpperCase());
}

/**
 * Whether this outcome is worth another try, before looking at time.
 * `resendable`: sending the request again after a lost answer is safe (a safe
 * method; an upload PUT, which the storage takes once and answers 409 after).
 */
export function isRetryable(outcome: AttemptOutcome, method: string, resendable = isSafeMethod(method), table: AnswerTable = ANSWER_TABLE): boolean {
  return standardChecker(outcome, { resendable, table });
}

/** Retry-After as milliseconds from now: delta-seconds or an HTTP-date. undefined if absent/unreadable. */
export function parseRetryAfter(value: string | null | undefined, nowMs: number): number | undefined {
  if (value === null || value === undefined) return undefined;
  const text = value.trim();
  if (/^\d+$/.test(text)) return Number(text) * 1000;
  const at = Date.parse(text);
  if (Number.isNaN(at)) return undefined;
  return Math.max(0, at - nowMs);
}

export type RetryDecision = { retry: true; delayMs: number } | { retry: false; reason: string };

/**
 * Decide the wait before attempt `attempt + 1`, given `attempt` tries done and
 * `elapsedMs` spent: whether the outcome is worth another try (the checkers),
 * under which limits (the throttle's after a throttling answer), how long to
 * wait (scheduledWaitMs, raised to Retry-After) and whether the budget allows it.
 */
export function decideRetry(input: {
  outcome: AttemptOutcome;
  method: string;
  attempt: number;
  elapsedMs: number;
  nowMs: number;
  policy: RetryPolicy;
  random: () => number;
  /** A lost answer may be sent again (see isRetryable). */
  resendable?: boolean;
  /** The answer table to judge by (the contract's when absent). */
  table?: AnswerTable;
}): RetryDecision {
  const { outcome, attempt, policy } = input;
  const table = input.table ?? ANSWER_TABLE;
  if (!isRetryable(outcome, input.method, input.resendable, table)) return { retry: false, reason: 'not retryable' };
  const throttled = isThrottled(outcome, table);
  const limits = throttled ? (policy.throttle ?? DEFAULT_THROTTLE) : policy;
  if (attempt >= limits.maxAttempts) return { retry: false, reason: `gave up after ${attempt} attempts` };
  const { delayMs, floor } = scheduledWaitMs(limits, attempt, throttled, input.random);
  const asked = outcome.kind === 'response' ? parseRetryAfter(outcome.retryAfter, input.nowMs) : undefined;
  // Retry-After raises or lowers the wait, never below the schedule's floor.
  return withinBudget(asked !== undefined ? Math.max(floor, asked) : delayMs, asked, limits.budgetMs - input.elapsedMs);
}

/**
 * The schedule's wait before attempt `attempt + 1`. Full jitter, uniform in [floor, ceiling] with
 * ceiling = min(max, base * 2^(attempt-1)); throttled, the ceiling stretched by 0-20%, never sooner.
 */
function scheduledWaitMs(limits: ThrottlePolicy, attempt: number, throttled: boolean, random: () => number): { delayMs: number; floor: number } {
  const ceiling = Math.min(limits.maxDelayMs, limits.baseDelayMs * 2 ** (attempt - 1));
  // The schedule's minimum (its base delay) floors every wait, Retry-After's too: `0`, a date in
  // the past or a negative number would otherwise retry at once, again and again.
  const floor = Math.min(limits.baseDelayMs, ceiling);
  // Throttled: never sooner than the schedule (an early call is one more spent against the limit).
  const delayMs = throttled ? Math.floor(ceiling * (1 + 0.2 * random())) : Math.max(floor, Math.floor(random() * ceiling));
  return { delayMs, floor };
}

/** Retry after `delayMs` if it ends inside the budget's `remainingMs`; `asked`: the wait the service asked for, if any. */
function withinBudget(delayMs: number, asked: number | undefined, remainingMs: number): RetryDecision {
  if (delayMs < remainingMs) return { retry: true, delayMs };
  if (asked !== undefined && asked >= remainingMs) {
    return { retry: false, reason: `the service asked to wait ${Math.ceil(asked / 1000)} s, longer than the remaining retry budget` };
  }
  return { retry: false, reason: 'retry budget exhausted' };
}

export interface RetryDeps {
  now: () => number;
  sleep: (ms: number, signal?: AbortSignal) => Promise<void>;
  random: () => number;
}

/** A signal's reason as a rejection (an Error: AbortController's default reason is a DOMException, one too). */
export const abortReason = (signal: AbortSignal): Error => (signal.reason instanceof Error ? signal.reason : new Error(String(signal.reason)));

export const realRetryDeps: RetryDeps = {
  now: () => Date.now(),
  sleep: (ms, signal) =>
    new Promise((resolve, reject) => {
      if (signal?.aborted) return reject(abortReason(signal));
      const timer = setTimeout(() => {
        signal?.removeEventListener('abort', onAbort);
        resolve();
      }, ms);
      const onAbort = () => {
        clearTimeout(timer);
        if (signal) reject(abortReason(signal));
      };
      signal?.addEventListener('abort', onAbort, { once: true });
    }),
  random: Math.random,
};

/** The most sends of one request under `policy`: its attempts, or its throttle attempts when more (6 by default). */
export function maxSends(policy: RetryPolicy): number {
  return Math.max(1, policy.maxAttempts, policy.throttle?.maxAttempts ?? DEFAULT_THROTTLE.maxAttempts);
}

/** The time one request may take under `policy`, retries included: its budget, or its throttle budget after a throttling answer. */
export function budgetFor(policy: RetryPolicy, throttled: boolean): number {
  return throttled ? Math.max(policy.budgetMs, (policy.throttle ?? DEFAULT_THROTTLE).budgetMs) : policy.budgetMs;
}

/**
 * What one request has spent, shared by every loop that sends it: the
 * client's retries and a flow's resends (a change in doubt resent with its
 * Idempotency-Key) draw from the same count and the same clock. So "at most
 * maxSends(policy) sends of one request" holds whoever loops (issue 25: a
 * gateway 503 to POST /mutations was sent 4 times for each of 4 resends).
 */
export class SendBudget {
  /** Sends made so far. */
  made = 0;
  /** A throttling answer came: the throttle's longer budget applies from then on. */
  throttled = false;
  private startedAt: number | undefined;

  constructor(
    readonly policy: RetryPolicy,
    private readonly now: () => number,
  ) {}

  /** When the first send started (now, if none has). */
  start(): number {
    return (this.startedAt ??= this.now());
  }

  elapsedMs(): number {
    return this.startedAt === undefined ? 0 : this.now() - this.startedAt;
  }

  /** Time left before the request's deadline. */
  remainingMs(): number {
    return budgetFor(this.policy, this.throttled) - this.elapsedMs();
  }

  /**
   * Start the clock again: the upload PUT's budget bounds the waits between
   * its attempts, not the time its bytes take (a long upload is not a retry).
   */
  restartClock(): void {
    this.startedAt = this.now();
  }

  /** Whether one more send is allowed (count and time). The first always is: a deadline bounds it, never stops it. */
  left(): boolean {
    return this.made === 0 || (this.made < maxSends(this.policy) && this.remainingMs() > 0);
  }

  /**
   * How long the send just counted may take: what is left before the request's deadline. A budget
   * of 0 is no deadline for the first send (a deadline of 0 would cut it before a byte left): it goes
   * once, bounded by its own --connect-timeout and --request-timeout, and nothing is left for a
   * retry or a resend.
   */
  attemptBoundMs(): number {
    return this.made <= 1 && budgetFor(this.policy, this.throttled) === 0 ? Number.POSITIVE_INFINITY : this.remainingMs();
  }
}

/** A send past the request's budget was asked for: a loop that does not check SendBudget.left() (a bug, never sent). */
export class SendsSpentError extends Error {
  override readonly name = 'SendsSpentError';
}

/**
 * Run `attemptFn` until its outcome is final: a success, an answer not worth
 * another try, or no attempt or time left. With `sends`, attempts continue its
 * count and clock (a flow's resend).
 */
export async function runWithRetry<T>(opts: {
  method: string;
  policy: RetryPolicy;
  deps: RetryDeps;
  signal?: AbortSignal | undefined;
  /** Shared with other requests: wait out their throttling before each attempt, and hold them through ours. */
  gate?: ThrottleGate | undefined;
  /** The request's sends so far (a flow resending it shares one); a new one when absent. */
  sends?: SendBudget | undefined;
  /** A lost answer may be sent again (an upload PUT). */
  resendable?: boolean;
  /** The answer table to judge outcomes by (the contract's when absent). */
  table?: AnswerTable;
  /** `remainingMs`: time left before the request's deadline (Infinity: none); the attempt in flight ends there. */
  attemptFn: (attempt: number, remainingMs: number) => Promise<{ outcome: AttemptOutcome; result: T }>;
  onRetry?: (info: RetryInfo) => void;
}): Promise<RetryRun<T>> {
  const sends = opts.sends ?? new SendBudget(opts.policy, opts.deps.now);
  const table = opts.table ?? ANSWER_TABLE;
  sends.start();
  for (;;) {
    // Ctrl-C before (re)sending stops here: nothing more goes out.
    opts.signal?.throwIfAborted();
    // Awaited only while a hold is in force (#37: no promise and microtask per request of a bulk run otherwise).
    if (opts.gate?.holds(opts.deps.now())) await opts.gate.pass(opts.deps, opts.signal);
    if (!sends.left()) throw new SendsSpentError(`${opts.method}: no send left of ${maxSends(opts.policy)} (${sends.made} made)`);
    const attempt = ++sends.made;
    const { outcome, result } = await opts.attemptFn(attempt, sends.attemptBoundMs());
    // An outcome no checker retries (a 2xx, a 4xx, a lost POST) ends here, judged once (#37: a bulk run's
    // every answer went through the checkers three times, and a decision's input object). Not throttled
    // either: the throttle checker is one of those that would retry it.
    if (!isRetryable(outcome, opts.method, opts.resendable, table))
      return finalRun(result, attempt, sends.elapsedMs(), 'not retryable', outcome.kind === 'network');
    const throttled = isThrottled(outcome, table);
    if (throttled) sends.throttled = true;
    const decision = decideRetry({
      outcome,
      method: opts.method,
      attempt,
      elapsedMs: sends.elapsedMs(),
      nowMs: opts.deps.now(),
      policy: opts.policy,
      random: opts.deps.random,
      table,
      ...(opts.resendable !== undefined ? { resendable: opts.resendable } : {}),
    });
    const elapsedMs = sends.elapsedMs();
    // A failure the policy would retry (the early return above took every other): given up, not never retried.
    if (!decision.retry) return finalRun(result, attempt, elapsedMs, decision.reason, true);
    opts.onRetry?.({ attempt, delayMs: decision.delayMs, outcome, elapsedMs });
    if (throttled) opts.gate?.hold(opts.deps.now() + decision.delayMs);
    await opts.deps.sleep(decision.delayMs, opts.signal);
  }
}

/** A wait about to happen: the attempt that failed (1-based), the wait, the outcome, the time spent so far. */
export interface RetryInfo {
  attempt: number;
  delayMs: number;
  outcome: AttemptOutcome;
  elapsedMs: number;
}

export interface RetryRun<T> {
  result: T;
  attempts: number;
  /** Why the policy stopped retrying an outcome that had failed (absent: it succeeded, or failed in a way never retried). */
  gaveUp?: string;
  elapsedMs: number;
}

/** The loop's result. `failed`: the last outcome was a failure the policy would retry, had it time and attempts left. */
function finalRun<T>(result: T, attempts: number, elapsedMs: number, reason: string, failed: boolean): RetryRun<T> {
  // Given up: after retries, or at once because the wait the service asked for is longer than the budget.
  const gaveUp = failed && (attempts > 1 || reason.startsWith('the service asked'));
  return { result, attempts, elapsedMs, ...(gaveUp ? { gaveUp: reason } : {}) };
}
