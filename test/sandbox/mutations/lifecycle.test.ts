// A mutation's life over HTTP: accepted at once (202, pending), moved by the
// worker on the sandbox clock to running, then applied at the simulated
// provider (succeeded, with the provider's entity) or refused (failed, with the
// provider's error). Every action on each of provider_a..provider_d.
import { describe, expect, it } from 'vitest';
import { useTestSandbox } from '../../helpers/sandbox.js';
import { ManualClock } from '../clock.js';
import { mutationsWorld } from './world.js';
import { read, settle, start } from './helpers.js';

const clock = new ManualClock();
const sb = useTestSandbox({ world: mutationsWorld(), clock });
/** A sandbox started with its own delays (StartOptions.mutationDelaysMs). */
const paced = new ManualClock();
const sbPaced = useTestSandbox({ world: mutationsWorld(), clock: paced, mutationDelaysMs: { startMs: 1000, applyMs: 2000 } });

const campaign = (advertiserId: string, id: string) => ({ advertiserId, target: { type: 'campaign', id } });
const adGroup = (advertiserId: string, id: string) => ({ advertiserId, target: { type: 'ad_group', id } });

describe('states', () => {
  it('answers 202 pending at once, then moves only as the sandbox clock does', async () => {
    const res = await start(sb, { ...campaign('acc_a', '100'), action: 'pause' });
    expect(res.status).toBe(202);
    expect(res.body).toMatchObject({
      advertiserId: 'acc_a',
      provider: 'provider_a',
      target: { type: 'campaign', id: '100' },
      action: 'pause',
      changes: { status: 'PAUSED' },
      state: 'pending',
      error: null,
      entity: null,
      startedAt: null,
      completedAt: null,
    });
    expect(res.body.id).toMatch(/^mut_/);
    const id = res.body.id as string;

    // Reading takes the steps that are due; the clock has not moved, so none is.
    expect((await read(sb, id)).state).toBe('pending');

    clock.advance(199);
    expect((await read(sb, id)).state).toBe('pending');
    clock.advance(1);
    const running = await read(sb, id);
    expect(running).toMatchObject({ state: 'running', startedAt: clock.now() });
    expect((await read(sb, id)).state).toBe('running');

    clock.advance(299);
    expect((await read(sb, id)).state).toBe('running');
    clock.advance(1);
    const done = await read(sb, id);
    expect(done).toMatchObject({ state: 'succeeded', error: null, completedAt: clock.now() });
    expect(done.entity).toMatchObject({ id: '100', status: 'PAUSED' });

    // Activate it again.
    const back = await start(sb, { ...campaign('acc_a', '100'), action: 'activate' });
    const [after] = await settle(sb, clock, [back.body.id]);
    expect(after.entity).toMatchObject({ status: 'ACTIVE' });
  });
});

describe("a sandbox's own delays (mutationDelaysMs)", () => {
  it('pending for startMs, running for applyMs, then final: the same states, at its times', async () => {
    const res = await start(sbPaced, { ...campaign('acc_a', '101'), action: 'pause' });
    expect(res.body.state).toBe('pending');
    const id = res.body.id as string;
    paced.advance(999);
    expect((await read(sbPaced, id)).state).toBe('pending');
    paced.advance(1);
    expect(await read(sbPaced, id)).toMatchObject({ state: 'running', startedAt: paced.now() });
    paced.advance(1999);
    expect((await read(sbPaced, id)).state).toBe('running');
    paced.advance(1);
    expect(await read(sbPaced, id)).toMatchObject({ state: 'succeeded', completedAt: paced.now() });
  });
});

describe('every action on every provider', () => {
  it('provider_a: budgets and bids answered in whole units (as a live read), bid strategy and amount on an ad set, rename, archive, delete', async () => {
    const ids = [
      (await start(sb, { ...campaign('acc_a', '100'), action: 'set_budget', budget: { amount: 75.5 } })).body.id,
      (await start(sb, { ...adGroup('acc_a', '200'), action: 'set_bid', bidStrategy: 'COST_CAP', bidAmount: 2.25 })).body.id,
      (await start(sb, { ...adGroup('acc_a', '200'), action: 'set_budget', budget: { amount: 30, type: 'lifetime' } })).body.id,
      (await start(sb, { ...adGroup('acc_a', '200'), action: 'rename', name: 'Renamed ad set' })).body.id,
      (await start(sb, { ...campaign('acc_a', '101'), action: 'archive' })).body.id,
    ];
    const [budget, bid, lifetime, rename, archive] = await settle(sb, clock, ids);
    expect(budget).toMatchObject({ state: 'succeeded', changes: { budget: { amount: 75.5 } }, entity: { daily_budget: 75.5 } });
    expect(bid).toMatchObject({ state: 'succeeded', entity: { bid_strategy: 'COST_CAP', bid_amount: 2.25 } });
    // Only the keys the service requests from the provider (as a single live read).
    expect(budget.entity).not.toHaveProperty('internal_note');
    expect(lifetime.entity).toMatchObject({ lifetime_budget: 30 });
    expect(lifetime.entity.daily_budget).toBeUndefined();
    expect(rename.entity).toMatchObject({ name: 'Renamed ad set' });
    expect(archive.entity).toMatchObject({ status: 'ARCHIVED' });
  });

  it('provider_b: whole units and its own status words', async () => {
    const ids = [
      (await start(sb, { ...campaign('acc_b', '300'), action: 'set_budget', budget: { amount: 120, type: 'lifetime' } })).body.id,
      (await start(sb, { ...adGroup('acc_b', '301'), action: 'pause' })).body.id,
      (await start(sb, { ...campaign('acc_b', '300'), action: 'rename', name: 'B renamed' })).body.id,
    ];
    const [budget, pause, rename] = await settle(sb, clock, ids);
    expect(budget.entity).toMatchObject({ budget: 120, budget_mode: 'BUDGET_MODE_TOTAL' });
    expect(pause.entity).toMatchObject({ operation_status: 'DISABLE' });
    expect(rename.entity).toMatchObject({ campaign_name: 'B renamed' });
  });

  it('provider_c: micros; an ad group carries no budget, so that change fails with the provider’s refusal', async () => {
    const ids = [
      (await start(sb, { ...campaign('acc_c', '400'), action: 'set_budget', budget: { amount: 35 } })).body.id,
      (await start(sb, { ...adGroup('acc_c', '401'), action: 'pause' })).body.id,
      (await start(sb, { ...adGroup('acc_c', '401'), action: 'set_budget', budget: { amount: 5 } })).body.id,
    ];
    const [budget, pause, refused] = await settle(sb, clock, ids);
    expect(budget.entity).toMatchObject({ budgetAmountMicros: 35_000_000 });
    expect(pause.entity).toMatchObject({ status: 'PAUSED' });
    expect(refused).toMatchObject({ state: 'failed', entity: null, error: { error: 'budget_not_on_entity' } });
    expect(typeof refused.error.message).toBe('string');
  });

  it('provider_d: decimal strings; delete, after which the entity refuses changes', async () => {
    const ids = [
      (await start(sb, { ...campaign('acc_d', 'camp-d'), action: 'set_budget', budget: { amount: 42, type: 'daily' } })).body.id,
      (await start(sb, { ...adGroup('acc_d', 'grp-d'), action: 'delete' })).body.id,
    ];
    const [budget, del] = await settle(sb, clock, ids);
    expect(budget.entity).toMatchObject({ budget: { amount: '42.00', period: 'daily' } });
    expect(del).toMatchObject({ state: 'succeeded', entity: { state: 'deleted' } });
    const again = await start(sb, { ...adGroup('acc_d', 'grp-d'), action: 'rename', name: 'zombie' });
    const [failed] = await settle(sb, clock, [again.body.id]);
    expect(failed).toMatchObject({ state: 'failed', error: { error: 'invalid_transition' } });
  });

  it('fails with not_found when the provider holds no such entity', async () => {
    const res = await start(sb, { ...campaign('acc_a', '999999'), action: 'pause' });
    expect(res.status).toBe(202);
    const [failed] = await settle(sb, clock, [res.body.id]);
    expect(failed).toMatchObject({ state: 'failed', error: { error: 'not_found' } });
  });
});

describe('provider errors', () => {
  it('a provider that refuses fails the mutation with 502 provider_error, provider and platformError', async () => {
    const faults = await sb.req('PUT', '/_sandbox/faults/provider_a', { body: { errorRate: 1 } });
    expect(faults.status).toBe(200);
    try {
      const res = await start(sb, { ...campaign('acc_a', '100'), action: 'rename', name: 'never' });
      const [failed] = await settle(sb, clock, [res.body.id]);
      expect(failed.state).toBe('failed');
      expect(failed.error).toMatchObject({ error: 'provider_error', provider: 'provider_a' });
      expect(failed.error.platformError).toEqual(
        expect.objectContaining({ code: expect.anything(), error_subcode: expect.anything(), type: expect.any(String) }),
      );
    } finally {
      await sb.req('PUT', '/_sandbox/faults/provider_a', { body: { errorRate: 0 } });
    }
  });
});
