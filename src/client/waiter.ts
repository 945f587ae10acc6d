// The one waiter (AWS CLI style): a poll plus acceptors, data that map what
// came back — a value at a path of the answer, or the service's refusal (its
// HTTP status or error code) — to success, failure or retry. Every "wait
// until done" (mutations, uploads, readiness, `--wait`) is this loop with its
// own acceptors, and every caller reads the same three outcomes.
// Acceptors are tried in order; the first that matches decides. An answer no
// acceptor matches means "not yet"; a refusal no acceptor matches is thrown.
// A wait that names the operation it polls (`answer`) checks each answer
// first (client/answer-check.ts): one without a state of the contract, or of
// the wrong shape, ends the wait as an unexpected answer, never as success
// and never as "not yet" until the timeout.
import type { AnswerViewName } from '../contract/answer-views.js';
import { checkAnswer, MUTATION_STATE_WORDS } from './answer-check.js';
import { ApiError } from './errors.js';
import { pollGapMs, type PollPace } from './poll-pace.js';

export type AcceptorState = 'success' | 'failure' | 'retry';

export type Acceptor =
  /** The value at `path` ('state', 'error.code') equals `expected` (or one of them); strings compare case-insensitively. */
  | { state: AcceptorState; matcher: 'path'; path: string; expected: unknown }
  /** Some element of the list at `path` ('missing[].code') equals `expected` (or one of them). */
  | { state: AcceptorState; matcher: 'pathAny'; path: string; expected: unknown }
  /** A refusal's HTTP status. */
  | { state: AcceptorState; matcher: 'status'; expected: number }
  /** A refusal's `error` code. */
  | { state: AcceptorState; matcher: 'error'; expected: string };

/** One poll's result: an answer, or the service's refusal. */
type Poll<T> = { value: T; error?: undefined } | { value?: undefined; error: ApiError };

/** How far apart the polls are: the PollPace (poll-pace.ts) of its fields. */
export interface WaitOptions<T> extends PollPace {
  acceptors: readonly Acceptor[];
  timeoutMs: number;
  now: () => number;
  sleep: (ms: number, signal?: AbortSignal) => Promise<void>;
  signal?: AbortSignal | undefined;
  /** After each answered poll (progress for a person; no terminal code here). */
  onPoll?: (value: T) => void;
  /** What the wait reads of each answer (its view): checked before an acceptor decides (else UnexpectedAnswerError). */
  view?: AnswerViewName | undefined;
}

export type WaitOutcome = 'success' | 'failure' | 'timeout';

export interface WaitResult<T> {
  outcome: WaitOutcome;
  /** The last answer; undefined when no poll answered in time (or a refusal decided: see `error`). */
  value: T | undefined;
  /** The refusal an error or status acceptor decided on. */
  error?: ApiError;
}

/** The value at a dotted path; a `[]` segment ('missing[].code') projects over a list. */
export function valueAt(value: unknown, path: string): unknown {
  let v: unknown = value;
  const keys = path.split('.');
  for (const [i, key] of keys.entries()) {
    const list = key.endsWith('[]');
    const name = list ? key.slice(0, -2) : key;
    if (v === null || typeof v !== 'object') return undefined;
    v = name === '' ? v : Object.getOwnPropertyDescriptor(v, name)?.value;
    if (list) return Array.isArray(v) ? v.map((x) => valueAt(x, keys.slice(i + 1).join('.') || '')) : undefined;
  }
  return v;
}

const same = (a: unknown, b: unknown) => a === b || (typeof a === 'string' && typeof b === 'string' && a.toLowerCase() === b.toLowerCase());
const oneOf = (v: unknown, expected: unknown) => (Array.isArray(expected) ? expected.some((e) => same(v, e)) : same(v, expected));

function matches<T>(a: Acceptor, poll: Poll<T>): boolean {
  switch (a.matcher) {
    case 'status':
      return poll.error?.status === a.expected;
    case 'error':
      return poll.error?.code === a.expected;
    case 'path':
      return !poll.error && oneOf(valueAt(poll.value, a.path), a.expected);
    case 'pathAny': {
      const list = poll.error ? undefined : valueAt(poll.value, a.path);
      return Array.isArray(list) && list.some((v) => oneOf(v, a.expected));
    }
  }
}

/** The state the acceptors give this poll, or undefined when none matches. */
function accept<T>(acceptors: readonly Acceptor[], poll: Poll<T>): AcceptorState | undefined {
  return acceptors.find((a) => matches(a, poll))?.state;
}

const SUCCESS = ['succeeded', 'success', 'completed', 'complete', 'done', 'applied', 'ready'];
const FAILURE = ['failed', 'failure', 'error', 'errored', 'rejected', 'cancelled', 'canceled'];

/**
 * A mutation, an upload or any job with a state word is done when its state
 * says so; anything else is "still running". Read tolerantly (`state` or
 * `status`, any case): the spec does not show every word.
 */
export const STATE_ACCEPTORS: readonly Acceptor[] = [
  { state: 'success', matcher: 'path', path: 'state', expected: SUCCESS },
  { state: 'failure', matcher: 'path', path: 'state', expected: FAILURE },
  { state: 'success', matcher: 'path', path: 'status', expected: SUCCESS },
  { state: 'failure', matcher: 'path', path: 'status', expected: FAILURE },
];

/**
 * Acceptors of the contract's own state words, read from `state` only: the
 * words that end a wait well or badly. Any other word the check lets through
 * (a state of the contract that is not final) is "not yet".
 */
export function stateAcceptors(success: readonly string[], failure: readonly string[]): Acceptor[] {
  return [
    { state: 'success', matcher: 'path', path: 'state', expected: success },
    ...(failure.length ? [{ state: 'failure', matcher: 'path', path: 'state', expected: failure } as const] : []),
  ];
}

/** A mutation: succeeded or failed are final (schemas/mutations.ts); pending and running go on. */
export const MUTATION_ACCEPTORS: readonly Acceptor[] = stateAcceptors(
  MUTATION_STATE_WORDS.filter((s) => s === 'succeeded'),
  MUTATION_STATE_WORDS.filter((s) => s === 'failed'),
);

/** The state word of an answer (`state` or `status`), lower case. */
export function stateOf(value: unknown): string | undefined {
  const s = [valueAt(value, 'state'), valueAt(value, 'status')].find((v) => typeof v === 'string');
  return typeof s === 'string' ? s.toLowerCase() : undefined;
}

/** Thrown into a poll still in flight when the wait's time is up (it is aborted with this reason). */
export class WaitDeadline extends Error {
  override readonly name = 'WaitDeadline';
}

/**
 * One poll, given at most `ms`: its answer or refusal, or undefined when the
 * time ran out first, the request then aborted. A poll the service holds open
 * (a slow provider) cannot stretch the wait past its timeout (#13).
 */
async function pollWithin<T>(fetch: (signal: AbortSignal) => Promise<T>, ms: number, signal: AbortSignal | undefined): Promise<Poll<T> | undefined> {
  const inFlight = new AbortController();
  const stop = () => inFlight.abort(signal?.reason);
  signal?.addEventListener('abort', stop, { once: true });
  // A real timer, not opts.sleep: a poll in flight takes real time whatever clock the wait
  // runs on, and a test clock's sleep that returns at once must not beat an instant answer.
  let timer: NodeJS.Timeout | undefined;
  const expired = new Promise<undefined>((resolve) => (timer = setTimeout(() => resolve(undefined), ms)));
  const answer = fetch(inFlight.signal).then(
    (value): Poll<T> => ({ value }),
    (err: unknown): Poll<T> => {
      if (err instanceof ApiError) return { error: err };
      throw err;
    },
  );
  answer.catch(() => {}); // an answer aborted after the deadline is nobody's failure
  try {
    const first = await Promise.race([answer, expired]);
    if (first === undefined) inFlight.abort(new WaitDeadline('the wait timed out with a poll in flight'));
    return first;
  } finally {
    clearTimeout(timer);
    signal?.removeEventListener('abort', stop);
  }
}

/**
 * Poll `fetch` until an acceptor says success or failure, or the timeout
 * passes. The timeout bounds the whole wait, the poll in flight included:
 * `fetch` gets a signal that aborts at the deadline (and on the caller's).
 * A wait that ends before any poll answered has no value.
 */
export async function waitFor<T>(fetch: (signal: AbortSignal) => Promise<T>, opts: WaitOptions<T>): Promise<WaitResult<T>> {
  const deadline = opts.now() + opts.timeoutMs;
  let last: T | undefined;
  for (let polls = 0; ; polls++) {
    opts.signal?.throwIfAborted();
    const poll = await pollWithin(fetch, Math.max(0, deadline - opts.now()), opts.signal);
    opts.signal?.throwIfAborted();
    if (poll === undefined) return { outcome: 'timeout', value: last };
    const state = accept(opts.acceptors, poll);
    if (poll.error) {
      if (state === undefined) throw poll.error;
      if (state !== 'retry') return { outcome: state, value: undefined, error: poll.error };
    } else {
      if (opts.view) await checkAnswer(opts.view, poll.value);
      last = poll.value;
      opts.onPoll?.(poll.value);
      if (state === 'success' || state === 'failure') return { outcome: state, value: poll.value };
    }
    const left = deadline - opts.now();
    if (left <= 0) return { outcome: 'timeout', value: last };
    await opts.sleep(Math.min(pollGapMs(opts, polls), left), opts.signal);
  }
}
