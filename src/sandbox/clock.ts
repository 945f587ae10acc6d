// The sandbox's time source. Every model reads time from the clock in its
// scope, so tests drive lifecycles with their own clock (test/sandbox/clock.ts)
// instead of sleeping or faking timers.
export interface Clock {
  /** Epoch milliseconds. */
  now(): number;
}

export const systemClock: Clock = { now: () => Date.now() };
