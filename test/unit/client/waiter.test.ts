// The one waiter with the acceptors the flows use: state words (mutations,
// uploads) and readiness (a Line Item), on a fake clock.
import { describe, expect, it } from 'vitest';
import { STATE_ACCEPTORS, stateOf, valueAt, waitFor } from '../../../src/client/waiter.js';
import { READINESS_ACCEPTORS, type Readiness } from '../../../src/flows/plan-readiness.js';

function fakeTime() {
  let t = 0;
  return { now: () => t, sleep: async (ms: number) => void (t += ms) };
}

describe('waitFor with STATE_ACCEPTORS', () => {
  it('polls until a final state', async () => {
    const states = ['pending', 'running', 'succeeded'];
    let i = 0;
    const r = await waitFor(async () => ({ state: states[i++] }), { acceptors: STATE_ACCEPTORS, timeoutMs: 10_000, intervalMs: 1000, ...fakeTime() });
    expect(r).toEqual({ value: { state: 'succeeded' }, outcome: 'success' });
    expect(i).toBe(3);
  });

  it('reports failure and timeout', async () => {
    expect((await waitFor(async () => ({ state: 'failed' }), { acceptors: STATE_ACCEPTORS, timeoutMs: 1, intervalMs: 1, ...fakeTime() })).outcome).toBe(
      'failure',
    );
    let polls = 0;
    const r = await waitFor(async () => (polls++, { state: 'running' }), { acceptors: STATE_ACCEPTORS, timeoutMs: 2500, intervalMs: 1000, ...fakeTime() });
    expect(r.outcome).toBe('timeout');
    expect(polls).toBe(4);
  });

  it('reads state or status tolerantly, any case', async () => {
    expect((await waitFor(async () => ({ status: 'COMPLETED' }), { acceptors: STATE_ACCEPTORS, timeoutMs: 1, intervalMs: 1, ...fakeTime() })).outcome).toBe(
      'success',
    );
    expect(stateOf({ status: 'COMPLETED' })).toBe('completed');
    expect(stateOf({ state: 'weird' })).toBe('weird');
    expect(stateOf(null)).toBeUndefined();
  });
});

describe('readiness acceptors', () => {
  const r = (ready: boolean, ...codes: string[]): Readiness => ({ ready, missing: codes.map((code) => ({ code, message: code })) });

  it('ready ends the wait; an archived plan ends it as never; anything else waits', async () => {
    const answers = [r(false, 'plan_not_approved'), r(true)];
    let i = 0;
    expect(await waitFor(async () => answers[i++]!, { acceptors: READINESS_ACCEPTORS, timeoutMs: 10_000, intervalMs: 1000, ...fakeTime() })).toMatchObject({
      value: r(true),
      outcome: 'success',
    });
    expect(
      (await waitFor(async () => r(false, 'x', 'plan_archived'), { acceptors: READINESS_ACCEPTORS, timeoutMs: 10_000, intervalMs: 1000, ...fakeTime() }))
        .outcome,
    ).toBe('failure');
    expect((await waitFor(async () => r(false, 'plan_archived'), { acceptors: READINESS_ACCEPTORS, timeoutMs: 1, intervalMs: 1, ...fakeTime() })).outcome).toBe(
      'failure',
    );
    expect(
      (await waitFor(async () => r(false, 'missing_asset'), { acceptors: READINESS_ACCEPTORS, timeoutMs: 2000, intervalMs: 1000, ...fakeTime() })).outcome,
    ).toBe('timeout');
  });

  it('valueAt projects over a list with []', () => {
    expect(valueAt({ missing: [{ code: 'a' }, { code: 'b' }] }, 'missing[].code')).toEqual(['a', 'b']);
    expect(valueAt({ error: { code: 'x' } }, 'error.code')).toBe('x');
    expect(valueAt({ missing: 'no' }, 'missing[].code')).toBeUndefined();
  });
});
