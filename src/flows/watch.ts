// Watch something the service is doing until it ends: the client's waiter
// (src/client/waiter.ts) with acceptors for the states a change goes
// through. No terminal code: progress is a callback. States are read
// tolerantly (`state` or `status`, any case; the spec does not show them).
import { waitFor, type Acceptor, type Poll } from '../client/waiter.js';

export type WatchOutcome = 'succeeded' | 'failed' | 'timeout';

const SUCCESS = ['succeeded', 'success', 'completed', 'complete', 'done', 'applied', 'ready'];
const FAILURE = ['failed', 'failure', 'error', 'errored', 'rejected', 'cancelled', 'canceled'];

/** A mutation (or any job with a state word) is done when its state says so; anything else is "still running". */
export const STATE_ACCEPTORS: readonly Acceptor[] = [
  { state: 'success', matcher: 'path', path: 'state', expected: SUCCESS },
  { state: 'failure', matcher: 'path', path: 'state', expected: FAILURE },
  { state: 'success', matcher: 'path', path: 'status', expected: SUCCESS },
  { state: 'failure', matcher: 'path', path: 'status', expected: FAILURE },
];

export function stateOf(value: unknown): string | undefined {
  if (!value || typeof value !== 'object') return undefined;
  const v = value as { state?: unknown; status?: unknown };
  const s = typeof v.state === 'string' ? v.state : typeof v.status === 'string' ? v.status : undefined;
  return s?.toLowerCase();
}

export function classify(value: unknown): WatchOutcome | 'running' {
  const s = stateOf(value);
  if (s && SUCCESS.includes(s)) return 'succeeded';
  if (s && FAILURE.includes(s)) return 'failed';
  return 'running';
}

export interface WatchOptions<T> {
  /** One poll; `signal` aborts it when the wait's time is up (pass it to the request). */
  fetch: (signal: AbortSignal) => Promise<T>;
  timeoutMs: number;
  intervalMs: number;
  now: () => number;
  sleep: (ms: number, signal?: AbortSignal) => Promise<void>;
  signal?: AbortSignal;
  onPoll?: (value: T, state: string | undefined) => void;
  /** What ends the watch; STATE_ACCEPTORS when absent. */
  acceptors?: readonly Acceptor[];
}

/** `value` is the last answer; undefined only on a timeout that came before any poll answered. */
export async function watchUntilDone<T>(opts: WatchOptions<T>): Promise<{ value: T | undefined; outcome: WatchOutcome }> {
  const poll = async (signal: AbortSignal): Promise<Poll> => ({ status: 200, body: await opts.fetch(signal) });
  const result = await waitFor(poll, {
    acceptors: opts.acceptors ?? STATE_ACCEPTORS,
    timeoutMs: opts.timeoutMs,
    intervalMs: opts.intervalMs,
    now: opts.now,
    sleep: opts.sleep,
    ...(opts.signal ? { signal: opts.signal } : {}),
    onPoll: (p) => opts.onPoll?.(p.body as T, stateOf(p.body)),
  });
  const outcome = result.outcome === 'success' ? 'succeeded' : result.outcome === 'failure' ? 'failed' : 'timeout';
  return { value: result.value as T | undefined, outcome };
}
