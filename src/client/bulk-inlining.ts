// How much V8's optimizing compiler inlines in a bulk run (#37 session 13): `mutations apply` sends a request per
// row through a few layers (the pool's worker, the start of a change, the client's attempt, node:http), and
// TurboFan inlines each layer's callees into it up to 920 bytes of bytecode a function (V8's default), so each of
// those few hot functions is one large compile (the pool's worker 36-66 ms of job time, startMutation 32-45 ms)
// on the cores the service shares. 400 bytes compiles less and runs as fast: the client's CPU of a
// whole apply 0.955x at 2,000 rows (14 alternating pairs, each below 1) and 0.963x at 20,000 (7 pairs); 200 bytes
// was 0.945x at 2,000 rows and 1.043x at 20,000 (slower code, longer run). Set once the bundle is compiled, as
// the young generation's hold is (young-generation.ts): V8 stamps a code cache with its flags' hash.
export const BULK_INLINING_FLAG = '--max-inlined-bytecode-size-cumulative=400';

let set: Promise<void> | undefined;

/** From here on in this process, TurboFan inlines at most 400 bytes of bytecode into each function it optimizes (920 by default). */
export function inlineLessForBulk(): Promise<void> {
  return (set ??= import('node:v8').then((v8) => v8.setFlagsFromString(BULK_INLINING_FLAG)));
}
