// #27: the paginator's loop guard holds constant memory (the last RECENT_CURSORS
// cursors and one Brent checkpoint) and still refuses every loop: a short one at
// its first repeat, a long one within twice its length.
import { describe, expect, it } from 'vitest';
import { RepeatedCursorError } from '../../../src/client/errors.js';
import { CursorLoopGuard, RECENT_CURSORS } from '../../../src/client/pages-memory.js';

/** How many cursors the guard takes before it refuses one (Infinity: none refused). */
function stepsToRefusal(cursors: Iterable<string>, first?: string): number {
  const guard = new CursorLoopGuard('/observe/campaigns', first);
  let n = 0;
  for (const c of cursors) {
    try {
      guard.next(c);
    } catch (err) {
      expect(err).toBeInstanceOf(RepeatedCursorError);
      return n;
    }
    n++;
  }
  return Infinity;
}

function* cycle(prefix: number, length: number, total: number): Generator<string> {
  for (let i = 0; i < total; i++) yield i < prefix ? `p${i}` : `c${(i - prefix) % length}`;
}

describe('CursorLoopGuard', () => {
  it('lets 200,000 distinct cursors through', () => {
    expect(stepsToRefusal(cycle(200_000, 1, 200_000))).toBe(Infinity);
  });

  it('refuses a short loop at its first repeat, and the cursor it started from', () => {
    expect(stepsToRefusal(['a', 'b', 'a'])).toBe(2);
    expect(stepsToRefusal(['b', 'start'], 'start')).toBe(1);
    expect(stepsToRefusal(cycle(1000, 40, 2000))).toBe(1040);
  });

  it('refuses a loop longer than the cursors it keeps, within twice its length', () => {
    for (const length of [RECENT_CURSORS + 1, 1000, 5000]) {
      const prefix = 3000;
      const steps = stepsToRefusal(cycle(prefix, length, prefix + 10 * length));
      expect(steps).toBeLessThan(Infinity);
      expect(steps - prefix).toBeLessThanOrEqual(2 * (prefix + length));
    }
  });
});
