// runPool and runWorkers after a failure: nothing of the pool goes on once it has thrown. With Promise.all over
// the workers, the others kept taking items (requests, journal lines, printed rows) after the caller had closed
// its journal and ended its output; the contract fuzzer saw a poll of one in-process run answered during the next.
import { setTimeout as sleep } from 'node:timers/promises';
import { describe, expect, it } from 'vitest';
import { runPool, runWorkers } from '../../../src/flows/pool.js';

describe('runPool', () => {
  it('results in input order, at most `concurrency` at once', async () => {
    let running = 0;
    let most = 0;
    const out = await runPool([5, 1, 4, 2, 3], 2, async (n) => {
      most = Math.max(most, ++running);
      await sleep(n);
      running--;
      return n * 10;
    });
    expect(out).toEqual([50, 10, 40, 20, 30]);
    expect(most).toBe(2);
  });

  it('the first failure: no item starts after it, those under way end first (their signal aborted), then it is thrown', async () => {
    const started: number[] = [];
    const ended: number[] = [];
    const aborted: number[] = [];
    const failing = runPool([0, 1, 2, 3, 4, 5, 6, 7], 3, async (n, stop) => {
      started.push(n);
      if (n === 1) {
        await sleep(5);
        throw new Error('item 1 failed');
      }
      // Under way when item 1 fails: waits for its signal (a poll's interval), or 40 ms.
      await Promise.race([sleep(40), new Promise((resolve) => stop.addEventListener('abort', resolve, { once: true }))]);
      if (stop.aborted) aborted.push(n);
      ended.push(n);
      return n;
    });
    await expect(failing).rejects.toThrow('item 1 failed');
    const seen = { started: [...started], ended: [...ended] };
    expect(seen.started).toEqual([0, 1, 2]);
    expect(seen.ended.sort()).toEqual([0, 2]); // ended before the pool threw
    expect(aborted.sort()).toEqual([0, 2]);
    await sleep(80);
    expect(started).toEqual(seen.started); // nothing started afterwards
  });

  it('an aborted caller signal starts nothing more', async () => {
    const caller = new AbortController();
    const started: number[] = [];
    await runPool(
      [0, 1, 2, 3],
      1,
      async (n) => {
        started.push(n);
        if (n === 1) caller.abort();
      },
      caller.signal,
    );
    expect(started).toEqual([0, 1]);
  });
});

describe('runWorkers', () => {
  it('throws the first failure once every other worker has returned', async () => {
    let n = 0;
    const returned: number[] = [];
    const run = runWorkers(3, async () => {
      const me = n++;
      if (me === 0) throw new Error('first');
      await sleep(20);
      returned.push(me);
    });
    await expect(run).rejects.toThrow('first');
    expect(returned.sort()).toEqual([1, 2]);
  });
});
