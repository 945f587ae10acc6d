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
  /** The last poll's body (a refusal's body when an error acceptor decided). */
  value: unknown;
  last: Poll;
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

/** Poll `fetch` until an acceptor says success or failure, or the timeout passes. */
export async function waitFor(fetch: () => Promise<Poll>, opts: WaitOptions): Promise<WaitResult> {
  const deadline = opts.now() + opts.timeoutMs;
  for (;;) {
    opts.signal?.throwIfAborted();
    const poll = await fetch();
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
export function pollRequest(client: ApiClient, req: ApiRequest): () => Promise<Poll> {
  return async () => {
    try {
      const res = await client.request(req);
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
