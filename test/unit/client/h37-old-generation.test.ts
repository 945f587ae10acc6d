// #37: a long walk's old space is collected every OLD_SLACK bytes promoted
// (src/client/old-generation.ts). Objects that each live across a few
// scavenges and are then dropped (as a walk's deadline signals are) fill the
// old space; without the bound no full collection comes until V8's own limit,
// far above these few MiB. In this test's own worker: the bound is per process.
import { constants, PerformanceObserver } from 'node:perf_hooks';
import { describe, expect, it } from 'vitest';
import { boundOldGeneration } from '../../../src/client/old-generation.js';

const tick = () => new Promise((resolve) => setImmediate(resolve));

/** Kinds of the collections seen while `work` runs (gc entries arrive asynchronously: a few ticks after). */
async function collectionsDuring(work: () => Promise<void>): Promise<number[]> {
  const kinds: number[] = [];
  const observer = new PerformanceObserver((list) => {
    for (const e of list.getEntries()) {
      const detail: unknown = 'detail' in e ? e.detail : undefined;
      if (detail !== null && typeof detail === 'object' && 'kind' in detail && typeof detail.kind === 'number') kinds.push(detail.kind);
    }
  });
  observer.observe({ entryTypes: ['gc'] });
  await work();
  for (let i = 0; i < 5; i++) await tick();
  observer.disconnect();
  return kinds;
}

/** ~`mib` MiB promoted and dropped: batches kept across a few turns (and so a few scavenges), then let go. */
async function promoteAndDrop(mib: number): Promise<void> {
  const kept: unknown[][] = [];
  for (let i = 0; i < mib * 16; i++) {
    kept.push(Array.from({ length: 1024 }, (_, j) => ({ i, j })));
    for (let k = 0; k < 200; k++) Array.from({ length: 1000 }, (_, j) => `${j}`); // young garbage: scavenges
    if (kept.length > 8) kept.shift();
    await tick();
  }
}

describe('boundOldGeneration (#37)', () => {
  it('after 1 MiB promoted, the next collection is a full one, and the ones after are scavenges again', async () => {
    await boundOldGeneration(1024 * 1024);
    const kinds = await collectionsDuring(() => promoteAndDrop(12));
    const majors = kinds.filter((k) => k === constants.NODE_PERFORMANCE_GC_MAJOR).length;
    const minors = kinds.filter((k) => k === constants.NODE_PERFORMANCE_GC_MINOR).length;
    // ~12 MiB promoted against a 1 MiB slack: several full collections, each followed by scavenges (the flag cleared).
    expect(majors, `kinds ${kinds.join(',')}`).toBeGreaterThanOrEqual(3);
    expect(minors, `kinds ${kinds.join(',')}`).toBeGreaterThan(majors * 2);
  }, 60_000);
});
