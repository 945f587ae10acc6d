// Transitional: `--wait` in commands/_shared/wait.ts still reads the outcome
// words succeeded/failed/timeout. Flows wait with the one waiter directly
// (client/waiter.ts: waitFor with STATE_ACCEPTORS and stateOf); once that
// command file does too, this file goes.
import { STATE_ACCEPTORS, stateOf, waitFor, type Acceptor } from '../client/waiter.js';

export type WatchOutcome = 'succeeded' | 'failed' | 'timeout';

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

const WORDS = { success: 'succeeded', failure: 'failed', timeout: 'timeout' } as const;

/** `value` is the last answer; undefined only on a timeout that came before any poll answered. */
export async function watchUntilDone<T>(opts: WatchOptions<T>): Promise<{ value: T | undefined; outcome: WatchOutcome }> {
  const { fetch, acceptors, onPoll, ...rest } = opts;
  const result = await waitFor(fetch, { ...rest, acceptors: acceptors ?? STATE_ACCEPTORS, onPoll: (v) => onPoll?.(v, stateOf(v)) });
  return { value: result.value, outcome: WORDS[result.outcome] };
}
