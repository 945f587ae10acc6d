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
// Held here: from the moment a caller says a long run is under way, V8's growth
// factor is set to 1 (`v8.setFlagsFromString`, read whenever V8 would grow new
// space), so the young generation keeps the size it has; or, when the caller
// names a size, it grows as V8 likes up to that size first. `--max-semi-space-size`
// would say the same, but V8 reads it only at start-up.
// - A page walk holds it from its second page (~2 MiB then): the page in hand
//   is all that survives a scavenge, and a walk held there is as fast.
// - `mutations apply` lets it reach 16 MiB (8 MiB semi-spaces, what a run of a
//   second or two reaches anyway): held at 1-2 MiB, each scavenge promotes the
//   requests in flight, and the old space grows with the run instead (old
//   space 13 -> 35 MiB, peak RSS 73 -> 100 MiB from 2k to 20k rows).

/** Room for a file of changes: new space (both semi-spaces) up to which the young generation still grows (see above). */
export const BULK_NEW_SPACE = 16 * 1024 * 1024;

let held: Promise<void> | undefined;

/**
 * A long run is under way: from here on the young generation grows no further than it is, or
 * than `growTo` bytes when it is smaller. Once per process (the first caller decides; later calls
 * share it); until `growTo` is reached, V8's collections are watched, then no longer.
 */
export function holdYoungGeneration(growTo = 0): Promise<void> {
  return (held ??= watch(growTo));
}

async function watch(growTo: number): Promise<void> {
  const [v8, { PerformanceObserver }] = await Promise.all([import('node:v8'), import('node:perf_hooks')]);
  const newSpace = () => v8.getHeapSpaceStatistics().find((s) => s.space_name === 'new_space')?.space_size ?? 0;
  const hold = () => v8.setFlagsFromString('--semi-space-growth-factor=1');
  if (newSpace() >= growTo) return hold();
  // V8 grows new space only during a collection: look after each one.
  const observer = new PerformanceObserver(() => {
    if (newSpace() < growTo) return;
    hold();
    observer.disconnect();
  });
  observer.observe({ entryTypes: ['gc'] });
}
