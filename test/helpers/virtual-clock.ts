// A clock for in-process runs (runAdopsInProcess's `clock`) whose sleeps only move it: a retry's 5 s and a
// poll's 2 s cost a turn of the event loop. A test that needs the times a wait spans reads them off this
// clock (a loopback server in the test's process can stamp its hits with `now`), not off the real one.
import type { Clock } from '../../src/cli/context.js';

export function virtualClock(start: number): Clock {
  let t = start;
  return {
    now: () => t,
    sleep: async (ms, signal) => {
      signal?.throwIfAborted();
      t += Math.max(0, ms);
      await new Promise((r) => setImmediate(r));
      signal?.throwIfAborted();
    },
  };
}
