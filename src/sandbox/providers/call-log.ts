// The calls one sandbox made to each simulated provider: counters, the
// recent-call window of its rate limit and its seeded error draw. In memory
// (a field of the sandbox's services); faults.ts decides with it.

export interface CallState {
  calls: number;
  /** Times (ms) of calls inside the last minute. */
  recent: number[];
  rng: () => number;
}

/** The calls one sandbox made to each provider (a field of its services). */
export class ProviderCallLog {
  readonly #byProvider = new Map<string, CallState>();

  state(provider: string, seed: number): CallState {
    let s = this.#byProvider.get(provider);
    if (!s) this.#byProvider.set(provider, (s = { calls: 0, recent: [], rng: seededRandom(seed) }));
    return s;
  }

  calls(provider: string): number {
    return this.#byProvider.get(provider)?.calls ?? 0;
  }
}

/** mulberry32: a small seeded PRNG, enough for a reproducible error draw. */
export function seededRandom(seed: number): () => number {
  let a = seed >>> 0;
  return () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}
