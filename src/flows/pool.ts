// Bounded concurrency for flows that send many independent requests (uploads, a plan's live
// reads and Insights), and the id batches a request can carry.

/**
 * Run `fn` over items with at most `concurrency` at once; results in input order. Once `signal` is
 * aborted no item is started (those under way finish or fail on their own signal).
 */
export async function runPool<T, R>(items: readonly T[], concurrency: number, fn: (item: T) => Promise<R>, signal?: AbortSignal): Promise<R[]> {
  const results = new Array<R>(items.length);
  let next = 0;
  const worker = async () => {
    while (next < items.length && !signal?.aborted) {
      const i = next++;
      results[i] = await fn(items[i]!);
    }
  };
  await Promise.all(Array.from({ length: Math.max(1, Math.min(concurrency, items.length)) }, worker));
  return results;
}

/** `items` in batches of at most `size`, in order. */
export function batches<T>(items: readonly T[], size: number): T[][] {
  return Array.from({ length: Math.ceil(items.length / size) }, (_, i) => items.slice(i * size, (i + 1) * size));
}
