// The arithmetic of `plans pacing --suggest` (issue #36): the split of a day's
// target over the entities carrying a budget, and the target itself.
import { describe, expect, it } from 'vitest';
import { dailyTarget, splitMinor } from '../../../src/flows/plan-suggest.js';
import { minorUnits, wholeOf } from '../../../src/flows/plan-proposal.js';
import type { PacingRow } from '../../../src/flows/plan-pacing.js';

describe('splitMinor', () => {
  it('parts in proportion, summing to the target exactly (largest remainder), ties to the first', () => {
    expect(splitMinor(100, [1, 1, 1])).toEqual([34, 33, 33]);
    expect(splitMinor(1001, [3000, 1000])).toEqual([751, 250]);
    expect(splitMinor(7, [1])).toEqual([7]);
    for (const [target, weights] of [
      [123457, [5, 7, 11, 13]],
      [99, [1e6, 1, 1]],
    ] as const) {
      const parts = splitMinor(target, weights);
      if (parts) expect(parts.reduce((a, b) => a + b, 0)).toBe(target);
    }
  });

  it('no split when a part would be 0, the target is not positive, or a weight is not one', () => {
    expect(splitMinor(2, [1, 1, 1])).toBeUndefined();
    expect(splitMinor(99, [1e6, 1, 1])).toBeUndefined();
    expect(splitMinor(0, [1])).toBeUndefined();
    expect(splitMinor(10, [1, 0])).toBeUndefined();
    expect(splitMinor(10, [1, Number.NaN])).toBeUndefined();
  });
});

const row = (over: Partial<PacingRow>): PacingRow => ({
  lineItemId: 'li',
  name: null,
  currency: 'USD',
  budgetType: 'daily',
  budget: 100,
  startDate: '2026-09-01',
  endDate: '2026-09-30',
  asOf: '2026-09-10',
  daysElapsed: 10,
  flightDays: 30,
  spend: 500,
  expected: 1000,
  pace: 50,
  projected: 1500,
  inBand: false,
  note: null,
  ...over,
});

describe('dailyTarget', () => {
  it('what is left of the planned total over the days left; a lifetime budget, a flight over or a total spent: why none', () => {
    expect(dailyTarget(row({}))).toEqual({ target: (3000 - 500) / 20, daysLeft: 20 });
    expect(dailyTarget(row({ budgetType: 'lifetime' }))).toMatch(/lifetime/);
    expect(dailyTarget(row({ daysElapsed: 30 }))).toMatch(/flight is over/);
    expect(dailyTarget(row({ spend: 3000 }))).toMatch(/spent its planned total/);
  });
});

describe('minor units', () => {
  it('JPY has none, USD two, KWD three; more decimals than the currency is no amount', () => {
    expect([minorUnits(205.9, 'USD'), minorUnits(1000, 'JPY'), minorUnits(1.234, 'KWD')]).toEqual([20590, 1000, 1234]);
    expect([minorUnits(1.5, 'JPY'), minorUnits(0.001, 'USD'), minorUnits(0, 'USD'), minorUnits(-1, 'USD')]).toEqual([
      undefined,
      undefined,
      undefined,
      undefined,
    ]);
    expect([wholeOf(20590, 'USD'), wholeOf(1999, 'USD'), wholeOf(7, 'JPY')]).toEqual([205.9, 19.99, 7]);
  });
});
