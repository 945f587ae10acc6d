import { describe, expect, it } from 'vitest';
import { classify, watchUntilDone } from '../../../src/flows/watch.js';

function fakeTime() {
  let t = 0;
  return { now: () => t, sleep: async (ms: number) => void (t += ms) };
}

describe('watchUntilDone', () => {
  it('polls until a final state', async () => {
    const states = ['pending', 'running', 'succeeded'];
    let i = 0;
    const r = await watchUntilDone({ fetch: async () => ({ state: states[i++] }), timeoutMs: 10_000, intervalMs: 1000, ...fakeTime() });
    expect(r).toEqual({ value: { state: 'succeeded' }, outcome: 'succeeded' });
    expect(i).toBe(3);
  });
  it('reports failure and timeout', async () => {
    expect((await watchUntilDone({ fetch: async () => ({ state: 'failed' }), timeoutMs: 1, intervalMs: 1, ...fakeTime() })).outcome).toBe('failed');
    let polls = 0;
    const r = await watchUntilDone({ fetch: async () => (polls++, { state: 'running' }), timeoutMs: 2500, intervalMs: 1000, ...fakeTime() });
    expect(r.outcome).toBe('timeout');
    expect(polls).toBe(4);
  });
  it('reads state or status tolerantly', () => {
    expect(classify({ status: 'COMPLETED' })).toBe('succeeded');
    expect(classify({ state: 'weird' })).toBe('running');
    expect(classify(null)).toBe('running');
  });
});
