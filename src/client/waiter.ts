// The one waiter (AWS CLI style): an operation to poll plus acceptors, data
// that map what came back — a value at a JSON path, an HTTP status, or an
// error code — to success, failure or retry. Every "wait until ready"
// (mutations, uploads, readiness) is this loop with its own acceptors.
// Acceptors are tried in order; the first that matches decides. A 2xx answer
// no acceptor matches means "not yet"; an error no acceptor matches is thrown.
import { ApiError } from './errors.js';
import type { ApiClient, ApiRequest } from './http.js';

export type AcceptorState = 'success' | 'failure' | 'retry';

export type Acceptor =
  /** The value at `path` ('state', 'error.code') equals `expected` (or one of them); strings compare case-insensitively. */
  | { state: AcceptorState; matcher: 'path'; path: string; expected: unknown | readonly unknown[] }
  /** The answer's HTTP status (an error answer's too). */
  | { state: AcceptorState; matcher: 'status'; expected: number }
  /** The service's `error` code of a failed poll. */
  | { state: AcceptorState; matcher: 'error'; expected: string };

/** One poll's result: a 2xx body, or the service's refusal. */
export type Poll = { status: number; body: unknown; error?: undefined } | { status: number; body: unknown; error: ApiError };

export interface WaitOptions {
  acceptors: readonly Acceptor[];
  timeoutMs: number;
  intervalMs: number;
  now: () => number;
  sleep: (ms: number, signal?: AbortSignal) => Promise<void>;
  signal?: AbortSignal;
  /** After each poll (progress for a person; no terminal code here). */
  onPoll?: (poll: Poll) => void;
}

export type WaitOutcome = 'success' | 'failure' | 'timeout';

export interface WaitResult {
  outcome: WaitOutcome;
  /** The last poll's body (a refusal's body when an error acceptor decided); undefined when no poll answered in time. */
  value: unknown;
  last?: Poll;
}

export function valueAt(value: unknown, path: string): unknown {
  let v: unknown = value;
  for (const key of path.split('.')) {
    if (v === null || typeof v !== 'object') return undefined;
    v = (v as Record<string, unknown>)[key];
  }
  return v;
}

const same = (a: unknown, b: unknown) => a === b || (typeof a === 'string' && typeof b === 'string' && a.toLowerCase() === b.toLowerCase());

function matches(a: Acceptor, poll: Poll): boolean {
  switch (a.matcher) {
    case 'status':
      return poll.status === a.expected;
    case 'error':
      return poll.error?.code === a.expected;
    case 'path': {
      if (poll.error) return false;
      const v = valueAt(poll.body, a.path);
      return Array.isArray(a.expected) ? a.expected.some((e) => same(v, e)) : same(v, a.expected);
    }
  }
}

/** The state the acceptors give this poll, or undefined when none matches. */
export function accept(acceptors: readonly Acceptor[], poll: Poll): AcceptorState | undefined {
  return acceptors.find((a) => matches(a, poll))?.state;
}

/** Thrown into a poll still in flight when the wait's time is up (it is aborted with this reason). */
export class WaitDeadline extends Error {
  override readonly name = 'WaitDeadline';
}

/**
 * One poll, given at most `ms`: its answer, or undefined when the time ran out
 * first, the request then aborted. A poll the service holds open (a slow
 * provider) cannot stretch the wait past its timeout (#13).
 */
async function pollWithin(fetch: (signal: AbortSignal) => Promise<Poll>, ms: number, opts: WaitOptions): Promise<Poll | undefined> {
  const inFlight = new AbortController();
  const stop = () => inFlight.abort(opts.signal?.reason);
  opts.signal?.addEventListener('abort', stop, { once: true });
  // A real timer, not opts.sleep: a poll in flight takes real time whatever clock the wait
  // runs on, and a test clock's sleep that returns at once must not beat an instant answer.
  let timer: NodeJS.Timeout | undefined;
  const expired = new Promise<undefined>((resolve) => (timer = setTimeout(() => resolve(undefined), ms)));
  const answer = fetch(inFlight.signal);
  answer.catch(() => {}); // an answer aborted after the deadline is nobody's failure
  try {
    const first = await Promise.race([answer, expired]);
    if (first === undefined) inFlight.abort(new WaitDeadline('the wait timed out with a poll in flight'));
    return first;
  } finally {
    clearTimeout(timer);
    opts.signal?.removeEventListener('abort', stop);
  }
}

/**
 * Poll `fetch` until an acceptor says success or failure, or the timeout
 * passes. The timeout bounds the whole wait, the poll in flight included:
 * `fetch` gets a signal that aborts at the deadline (and on the caller's).
 * A wait that ends before any poll answered has no `last` poll.
 */
export async function waitFor(fetch: (signal: AbortSignal) => Promise<Poll>, opts: WaitOptions): Promise<WaitResult> {
  const deadline = opts.now() + opts.timeoutMs;
  let last: Poll | undefined;
  for (;;) {
    opts.signal?.throwIfAborted();
    const poll = await pollWithin(fetch, Math.max(0, deadline - opts.now()), opts);
    opts.signal?.throwIfAborted();
    if (poll === undefined) return { outcome: 'timeout', value: last?.body, ...(last ? { last } : {}) };
    last = poll;
    opts.onPoll?.(poll);
    const state = accept(opts.acceptors, poll);
    if (state === 'success' || state === 'failure') return { outcome: state, value: poll.body, last: poll };
    if (state === undefined && poll.error) throw poll.error;
    const left = deadline - opts.now();
    if (left <= 0) return { outcome: 'timeout', value: poll.body, last: poll };
    await opts.sleep(Math.min(opts.intervalMs, left), opts.signal);
  }
}

/** A poll of one request: its 2xx answer, or an ApiError as a poll (network failures are thrown after the client's retries). */
export function pollRequest(client: ApiClient, req: ApiRequest): (signal?: AbortSignal) => Promise<Poll> {
  return async (signal) => {
    try {
      const res = await client.request({ ...req, ...(signal ? { signal } : {}) });
      return { status: res.status, body: res.body };
    } catch (err) {
      if (err instanceof ApiError) return { status: err.status, body: { error: err.code, message: err.message, ...err.extra }, error: err };
      throw err;
    }
  };
}

/** wait(client, request, acceptors...): the AWS-style waiter over one operation. */
export function waitUntil(client: ApiClient, req: ApiRequest, opts: WaitOptions): Promise<WaitResult> {
  return waitFor(pollRequest(client, { ...req, ...(opts.signal ? { signal: opts.signal } : {}) }), opts);
}
