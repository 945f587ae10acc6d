// The clock tests drive: it moves only when told to, so a test decides exactly
// when each lifecycle step falls due (and never waits on real time).
import type { Clock } from '../../src/sandbox/clock.js';

export class ManualClock implements Clock {
  #now: number;
  constructor(start: number = Date.UTC(2026, 9, 1, 12, 0, 0)) {
    this.#now = start;
  }
  now(): number {
    return this.#now;
  }
  set(ms: number): void {
    this.#now = ms;
  }
  advance(ms: number): void {
    this.#now += ms;
  }
}
