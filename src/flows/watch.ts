// Watch something the service is doing until it ends: poll with a fixed
// interval, stop at a deadline. No terminal code: progress is a callback.
// States are read tolerantly (`state` or `status`; the spec does not show them).

export type WatchOutcome = 'succeeded' | 'failed' | 'timeout';

const SUCCESS = new Set(['succeeded', 'success', 'completed', 'complete', 'done', 'applied', 'ready']);
const FAILURE = new Set(['failed', 'failure', 'error', 'errored', 'rejected', 'cancelled', 'canceled']);

export function stateOf(value: unknown): string | undefined {
  if (!value || typeof value !== 'object') return undefined;
  const v = value as { state?: unknown; status?: unknown };
  const s = typeof v.state === 'string' ? v.state : typeof v.status === 'string' ? v.status : undefined;
  return s?.toLowerCase();
}

export function classify(value: unknown): WatchOutcome | 'running' {
  const s = stateOf(value);
  if (s && SUCCESS.has(s)) return 'succeeded';
  if (s && FAILURE.has(s)) return 'failed';
  return 'running';
}

export interface WatchOptions<T> {
  fetch: () => Promise<T>;
  timeoutMs: number;
  intervalMs: number;
  now: () => number;
  sleep: (ms: number, signal?: AbortSignal) => Promise<void>;
  signal?: AbortSignal;
  onPoll?: (value: T, state: string | undefined) => void;
}

export async function watchUntilDone<T>(opts: WatchOptions<T>): Promise<{ value: T; outcome: WatchOutcome }> {
  const deadline = opts.now() + opts.timeoutMs;
  for (;;) {
    const value = await opts.fetch();
    const outcome = classify(value);
    opts.onPoll?.(value, stateOf(value));
    if (outcome !== 'running') return { value, outcome };
    const left = deadline - opts.now();
    if (left <= 0) return { value, outcome: 'timeout' };
    await opts.sleep(Math.min(opts.intervalMs, left), opts.signal);
  }
}
