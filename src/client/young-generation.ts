// V8's young generation over a long run (#27): the one decision, for every
// command whose work outlasts its start-up (a page walk, a file of changes).
//
// Each page's rows, each row's request, are garbage once handled, but the bytes
// still alive at each scavenge (what is in flight) add up, and V8 doubles the
// semi-spaces each time that total passes their capacity, up to 16 MiB each,
// however little is kept. So a longer run peaked higher for no live byte more:
// `--all` over 200k rows 58 -> 76 MiB against 20k, `mutations apply` of 20k
// rows 83 -> 107 MiB against 2k (its live heap flat: ~9 MiB after a full GC).
//
// Held here: the young generation grows as V8 likes up to HELD_NEW_SPACE (8 MiB
// semi-spaces, what a run of a second or two reaches anyway), then V8's growth
// factor is set to 1 (`v8.setFlagsFromString`, read whenever V8 would grow new
// space), so it keeps that size. Not smaller: a young generation held at 1-2 MiB
// promotes what is in flight at each scavenge, and the old space then grows with
// the run instead (apply: old space 13 -> 35 MiB from 2k to 20k rows).
// `--max-semi-space-size` would say the same, but V8 reads it only at start-up.

/** New space (both semi-spaces) at which growth stops. */
export const HELD_NEW_SPACE = 16 * 1024 * 1024;

let held: Promise<void> | undefined;

/**
 * A long run is under way: from here on the young generation grows to HELD_NEW_SPACE at most.
 * Once per process (later calls share the first); watches V8's collections until that size is
 * reached, then stops watching.
 */
export function holdYoungGeneration(): Promise<void> {
  return (held ??= watch());
}

async function watch(): Promise<void> {
  const [v8, { PerformanceObserver }] = await Promise.all([import('node:v8'), import('node:perf_hooks')]);
  const newSpace = () => v8.getHeapSpaceStatistics().find((s) => s.space_name === 'new_space')?.space_size ?? 0;
  const hold = () => v8.setFlagsFromString('--semi-space-growth-factor=1');
  if (newSpace() >= HELD_NEW_SPACE) return hold();
  // V8 grows new space only during a collection: look after each one.
  const observer = new PerformanceObserver(() => {
    if (newSpace() < HELD_NEW_SPACE) return;
    hold();
    observer.disconnect();
  });
  observer.observe({ entryTypes: ['gc'] });
}
