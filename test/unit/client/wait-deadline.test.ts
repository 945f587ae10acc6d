// Issue 13 item 21: the waiter's timeout bounds the poll in flight too.
import { describe, expect, it } from 'vitest';
import { STATE_ACCEPTORS, waitFor, WaitDeadline } from '../../../src/client/waiter.js';

const realClock = { now: () => Date.now(), sleep: (ms: number) => new Promise<void>((r) => setTimeout(r, ms)) };

describe('waitFor with a poll that does not answer', () => {
  it('ends at the timeout with the last answer, and aborts the poll in flight', async () => {
    let polls = 0;
    let aborted: unknown;
    const fetch = (signal: AbortSignal) =>
      new Promise<{ state: string }>((resolve, reject) => {
        polls++;
        if (polls === 1) return resolve({ state: 'running' });
        signal.addEventListener('abort', () => reject((aborted = signal.reason)));
      });
    const started = Date.now();
    const r = await waitFor(fetch, { acceptors: STATE_ACCEPTORS, timeoutMs: 300, intervalMs: 50, ...realClock });
    expect(r.outcome).toBe('timeout');
    expect(r.value).toEqual({ state: 'running' });
    expect(aborted).toBeInstanceOf(WaitDeadline);
    expect(Date.now() - started).toBeLessThan(1_000);
  });

  it('a first poll that never answers: timeout with no value', async () => {
    const r = await waitFor(() => new Promise<never>(() => {}), { acceptors: STATE_ACCEPTORS, timeoutMs: 100, intervalMs: 50, ...realClock });
    expect(r).toEqual({ outcome: 'timeout', value: undefined });
  });
});
