// The transport's abort watchers (src/client/abort-watchers.ts): one listener
// per signal, every watcher of the moment told once and in the order it came;
// a watcher that left is not told, and holds no other watcher (#37 session 5:
// a dead watcher pointing at later ones kept every request of a bulk run alive
// from the old space; h27-apply-memory measures that on the built binary).
import { describe, expect, it } from 'vitest';
import { unwatchAbort, watchAbort } from '../../../src/client/abort-watchers.js';

describe('abort watchers', () => {
  it('tells every watcher of the moment once, in the order they came; not one that left', () => {
    const ac = new AbortController();
    const told: string[] = [];
    const a = watchAbort(ac.signal, () => told.push('a'));
    const b = watchAbort(ac.signal, () => told.push('b'));
    watchAbort(ac.signal, () => told.push('c'));
    const d = watchAbort(ac.signal, () => told.push('d'));
    unwatchAbort(b);
    unwatchAbort(b); // again: nothing
    unwatchAbort(d); // the last one
    watchAbort(ac.signal, () => told.push('e'));
    ac.abort();
    ac.abort();
    expect(told).toEqual(['a', 'c', 'e']);
    unwatchAbort(a); // after it was told: nothing
    expect(told).toEqual(['a', 'c', 'e']);
  });

  it('a watcher that leaves mid-abort is still told, as a listener list is', () => {
    const ac = new AbortController();
    const told: string[] = [];
    const later: { watch?: ReturnType<typeof watchAbort> } = {};
    watchAbort(ac.signal, () => {
      told.push('first');
      if (later.watch) unwatchAbort(later.watch);
    });
    later.watch = watchAbort(ac.signal, () => told.push('second'));
    ac.abort();
    expect(told).toEqual(['first', 'second']);
  });

  it('signals are watched apart; one listener on each however many watch it', () => {
    const one = new AbortController();
    const two = new AbortController();
    let listeners = 0;
    const add = one.signal.addEventListener.bind(one.signal);
    one.signal.addEventListener = (...args: Parameters<AbortSignal['addEventListener']>) => {
      listeners++;
      add(...args);
    };
    const told: string[] = [];
    for (let i = 0; i < 100; i++) unwatchAbort(watchAbort(one.signal, () => told.push('dropped')));
    watchAbort(one.signal, () => told.push('one'));
    watchAbort(two.signal, () => told.push('two'));
    expect(listeners).toBe(1);
    two.abort();
    expect(told).toEqual(['two']);
    one.abort();
    expect(told).toEqual(['two', 'one']);
  });

  it('a watcher that left, or was told, holds no other watcher', () => {
    const ac = new AbortController();
    const watches = Array.from({ length: 5 }, () => watchAbort(ac.signal, () => undefined));
    // The middle, the first and the last leave: each of them points at nothing.
    for (const i of [2, 0, 4]) unwatchAbort(watches[i]!);
    for (const i of [2, 0, 4]) expect([watches[i]!.prev, watches[i]!.next, watches[i]!.list]).toEqual([undefined, undefined, undefined]);
    // The two left are linked to each other alone.
    expect(watches[1]!.next).toBe(watches[3]);
    expect(watches[3]!.prev).toBe(watches[1]);
    ac.abort();
    for (const w of watches) expect([w.prev, w.next, w.list]).toEqual([undefined, undefined, undefined]);
  });
});
