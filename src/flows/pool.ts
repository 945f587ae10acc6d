// Bounded concurrency for flows that send many independent requests (uploads, a plan's live
// reads and Insights, the polls of `mutations apply --wait`, apply's sends), and the id batches
// a request can carry.

/**
 * `count` workers at once, each until its `work` returns. The first that fails stops the rest from
 * starting more (the signal they get is aborted), every one is waited for, and then that first
 * failure is thrown. A pool that threw had nothing under way any more: no request of it goes out, no
 * journal line is noted and no row printed after its caller went on to close the journal, end the
 * output and exit (with Promise.all over the workers, the others went on until their loop ended).
 */
export async function runWorkers(count: number, work: (stop: AbortSignal) => Promise<void>): Promise<void> {
  const stop = new AbortController();
  let failure: { error: unknown } | undefined;
  await Promise.all(
    Array.from({ length: count }, () =>
      work(stop.signal).catch((error: unknown) => {
        failure ??= { error };
        stop.abort();
      }),
    ),
  );
  if (failure) throw failure.error;
}

/**
 * Run `fn` over items with at most `concurrency` at once; results in input order. Once `signal` is
 * aborted no item is started (those under way finish or fail on their own signal). The first item
 * that fails stops the pool as runWorkers does: `fn`'s own signal is aborted for the ones under way
 * (a poll waiting out its interval stops), none is started, and its failure is thrown once all ended.
 */
export async function runPool<T, R>(
  items: readonly T[],
  concurrency: number,
  fn: (item: T, stop: AbortSignal) => Promise<R>,
  signal?: AbortSignal,
): Promise<R[]> {
  const results = new Array<R>(items.length);
  let next = 0;
  await runWorkers(Math.max(1, Math.min(concurrency, items.length)), async (stop) => {
    while (next < items.length && !signal?.aborted && !stop.aborted) {
      const i = next++;
      results[i] = await fn(items[i]!, stop);
    }
  });
  return results;
}

/** `items` in batches of at most `size`, in order. */
export function batches<T>(items: readonly T[], size: number): T[][] {
  return Array.from({ length: Math.ceil(items.length / size) }, (_, i) => items.slice(i * size, (i + 1) * size));
}
