// V8's old generation over a long page walk (#37): the other half of what
// young-generation.ts holds.
//
// With the young generation held at ~2 MiB, a walk scavenges every ~8 pages,
// and each scavenge promotes a few KiB that are garbage a page later (mostly
// each request's deadline AbortSignal, which outlives two scavenges though no
// one holds it after its page: a full GC finds 2 alive at any time). Nothing
// collects the old space until V8's first old-generation limit, which a walk
// of 200k rows reaches only near its end: old space 5.7 -> 11.6 MiB, peak RSS
// 60 -> 66 MiB against 20k rows, with the same ~6 MiB alive (measured with
// --trace-gc-nvp, v8.queryObjects and a sampling heap profile of the objects a
// full GC collects).
//
// Held here: once the old space has grown OLD_SLACK past what a full GC left
// (or what the walk started with), the next collection is a full one
// (`--gc-global`, read by V8 at each collection), and the flag is cleared as
// soon as a full collection is seen. A walk of 20k rows never gets there; one
// of 200k runs ~3 full collections of a ~6 MiB heap (a few ms each).

/** How far the old space may grow past its last full collection before the next collection is a full one. */
export const OLD_SLACK = 2 * 1024 * 1024;

let bounded: Promise<void> | undefined;

/** A long walk is under way: from here on, garbage promoted to the old space is collected every OLD_SLACK bytes. Once per process. */
export function boundOldGeneration(slack = OLD_SLACK): Promise<void> {
  return (bounded ??= watch(slack));
}

async function watch(slack: number): Promise<void> {
  const [v8, { PerformanceObserver, constants }] = await Promise.all([import('node:v8'), import('node:perf_hooks')]);
  const oldUsed = () => v8.getHeapSpaceStatistics().find((s) => s.space_name === 'old_space')?.space_used_size ?? 0;
  let base = oldUsed();
  let armed = false;
  const observer = new PerformanceObserver((list) => {
    for (const entry of list.getEntries()) {
      if (isMajor(entry, constants.NODE_PERFORMANCE_GC_MAJOR)) {
        base = oldUsed();
        if (armed) v8.setFlagsFromString('--no-gc-global');
        armed = false;
      } else if (!armed && oldUsed() > base + slack) {
        v8.setFlagsFromString('--gc-global');
        armed = true;
      }
    }
  });
  observer.observe({ entryTypes: ['gc'] });
}

/** A gc entry's detail names its kind (Node ≥ 16): a full (mark-compact) collection? */
function isMajor(entry: object, major: number): boolean {
  const detail: unknown = 'detail' in entry ? entry.detail : undefined;
  return detail !== null && typeof detail === 'object' && 'kind' in detail && detail.kind === major;
}
