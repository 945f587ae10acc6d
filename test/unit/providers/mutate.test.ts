// applyProviderChange: units and words per provider, refusals, faults, and
// the edit stamp that budget-only edits leave alone (spec budget rule 5).
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { openDatabase } from '../../../src/sandbox/store/db.js';
import { loadWorld } from '../../../src/sandbox/fixtures/load.js';
import { parseWorld } from '../../../src/sandbox/fixtures/load.js';
import { ManualClock } from '../../sandbox/clock.js';
import { createServices } from '../../../src/sandbox/services.js';
import type { SandboxServices } from '../../../src/sandbox/services.js';
import { applyProviderChange } from '../../../src/sandbox/providers/mutate.js';
import { providerCallCount, setProviderFaults } from '../../../src/sandbox/providers/faults.js';
import { providerEntity } from '../../../src/sandbox/providers/store.js';
import { observeWorld } from '../../sandbox/observe/world.js';

/** No uploads here: a files directory that is never created. */
const NO_FILES = '/nonexistent/adops-test-files';

let services: SandboxServices;
let clock: ManualClock;
beforeEach(async () => {
  clock = new ManualClock(Date.UTC(2026, 9, 1, 12));
  services = createServices({ db: openDatabase(':memory:'), clock, secret: Buffer.alloc(32), dataDir: null, filesDir: NO_FILES });
  loadWorld(services, parseWorld(observeWorld()));
});
afterEach(() => services.db.close());

const entity = (adv: string, kind: 'campaign' | 'ad_group' | 'shared_budget', id: string) => providerEntity(services.db, adv, kind, id)!;

describe('conversions to the provider', () => {
  it('provider_a: whole units → minor-unit strings; status words as they are; updated_time moves', async () => {
    const r = await applyProviderChange(services, 'acc_a', { entityType: 'campaign', entityId: '1001', budget: { amount: 75.5 }, status: 'PAUSED' });
    expect(r).toMatchObject({ ok: true, entity: { daily_budget: 75.5, status: 'PAUSED', updated_time: '2026-10-01T12:00:00+0000' } });
    const lifetime = await applyProviderChange(services, 'acc_a', { entityType: 'ad_group', entityId: '2002', budget: { amount: 300, type: 'lifetime' } });
    expect(lifetime.ok && lifetime.entity).toMatchObject({ lifetime_budget: 300 });
    expect(lifetime.ok && 'daily_budget' in lifetime.entity).toBe(false);
  });

  it('provider_a: bid strategy words and bid amounts', async () => {
    expect(
      await applyProviderChange(services, 'acc_a', { entityType: 'ad_group', entityId: '2002', bidStrategy: 'LOWEST_COST_WITH_BID_CAP', bidAmount: 2.25 }),
    ).toMatchObject({ ok: true, entity: { bid_strategy: 'LOWEST_COST_WITH_BID_CAP', bid_amount: 2.25 } });
    expect(await applyProviderChange(services, 'acc_a', { entityType: 'ad_group', entityId: '2002', bidStrategy: 'MAXIMIZE_CLICKS' })).toMatchObject({
      ok: false,
      status: 422,
    });
  });

  it('provider_b: whole units unchanged, ENABLE/DISABLE words', async () => {
    expect(await applyProviderChange(services, 'acc_b', { entityType: 'campaign', entityId: '5001', budget: { amount: 80 }, status: 'ACTIVE' })).toMatchObject({
      ok: true,
      entity: { budget: 80, operation_status: 'ENABLE' },
    });
    expect(await applyProviderChange(services, 'acc_b', { entityType: 'ad_group', entityId: '6002', status: 'PAUSED' })).toMatchObject({
      ok: true,
      entity: { operation_status: 'DISABLE' },
    });
  });

  it('provider_c: micros; a shared budget changes for every campaign drawing on it; REMOVED; no archived state', async () => {
    expect((await applyProviderChange(services, 'acc_c', { entityType: 'campaign', entityId: '9001', budget: { amount: 150 } })).ok).toBe(true);
    expect(entity('acc_c', 'shared_budget', '8001').payload.amountMicros).toBe(150_000_000);
    expect(await applyProviderChange(services, 'acc_c', { entityType: 'campaign', entityId: '9004', budget: { amount: 1.5 } })).toMatchObject({
      ok: true,
      entity: { budgetTotalAmountMicros: 1_500_000 },
    });
    expect(await applyProviderChange(services, 'acc_c', { entityType: 'campaign', entityId: '9002', status: 'DELETED' })).toMatchObject({
      ok: true,
      entity: { status: 'REMOVED' },
    });
    expect(await applyProviderChange(services, 'acc_c', { entityType: 'campaign', entityId: '9001', status: 'ARCHIVED' })).toMatchObject({
      ok: false,
      status: 422,
    });
  });

  it('provider_d: decimal strings in whole units', async () => {
    expect(await applyProviderChange(services, 'acc_d', { entityType: 'campaign', entityId: 'cmp-1', budget: { amount: 12 }, status: 'PAUSED' })).toMatchObject(
      { ok: true, entity: { budget: { amount: '12.00', period: 'daily' }, state: 'paused' } },
    );
  });
});

describe('refusals', () => {
  it('invalid_amount: negative, NaN, more decimals than the currency, unknown currency', async () => {
    for (const [adv, type, id, amount] of [
      ['acc_a', 'campaign', '1001', -1],
      ['acc_a', 'campaign', '1001', Number.NaN],
      ['acc_a', 'campaign', '1001', 1.234],
      ['acc_a_jpy', 'campaign', '1201', 10.5],
      ['acc_a_nocur', 'campaign', '1101', 10],
      ['acc_c', 'campaign', '9004', 0.001],
    ] as const) {
      expect(await applyProviderChange(services, adv, { entityType: type, entityId: id, budget: { amount } })).toMatchObject({
        ok: false,
        status: 422,
        error: 'invalid_amount',
      });
    }
  });

  it('a budget where the entity carries none', async () => {
    const cases = [
      ['acc_a', 'campaign', '1002'],
      ['acc_a', 'ad_group', '2001'],
      ['acc_b', 'ad_group', '6001'],
      ['acc_c', 'ad_group', '9101'],
      ['acc_d', 'ad_group', 'grp-1'],
    ] as const;
    for (const [adv, type, id] of cases) {
      expect(await applyProviderChange(services, adv, { entityType: type, entityId: id, budget: { amount: 5 } })).toMatchObject({
        ok: false,
        status: 422,
        error: 'budget_not_on_entity',
      });
    }
  });

  it('bid strategy at providers that take none; unknown entity or advertiser; not connected; deleted entity', async () => {
    expect(await applyProviderChange(services, 'acc_b', { entityType: 'campaign', entityId: '5001', bidStrategy: 'X' })).toMatchObject({
      ok: false,
      status: 422,
      error: 'unsupported_change',
    });
    expect(await applyProviderChange(services, 'acc_a', { entityType: 'campaign', entityId: '424242', status: 'PAUSED' })).toMatchObject({
      ok: false,
      status: 404,
    });
    expect(await applyProviderChange(services, 'acc_nope', { entityType: 'campaign', entityId: '1001', status: 'PAUSED' })).toMatchObject({
      ok: false,
      status: 404,
    });
    expect(await applyProviderChange(services, 'acc_b_off', { entityType: 'campaign', entityId: '5101', status: 'PAUSED' })).toMatchObject({
      ok: false,
      status: 409,
      error: 'provider_not_connected',
      extra: { provider: 'provider_b' },
    });
    expect(await applyProviderChange(services, 'acc_b', { entityType: 'campaign', entityId: '5003', status: 'ACTIVE' })).toMatchObject({
      ok: false,
      status: 422,
      error: 'invalid_transition',
    });
  });
});

describe('faults and the edit stamp', () => {
  it('faults apply: 502 provider_error with the provider error object; nothing written', async () => {
    setProviderFaults(services, 'provider_a', { errorRate: 1, latencyMs: 0, rateLimitPerMinute: null, seed: 1 });
    const before = providerCallCount(services, 'provider_a');
    const r = await applyProviderChange(services, 'acc_a', { entityType: 'campaign', entityId: '1001', status: 'PAUSED' });
    expect(r).toMatchObject({ ok: false, status: 502, error: 'provider_error', extra: { provider: 'provider_a', platformError: { code: 2 } } });
    expect(providerCallCount(services, 'provider_a')).toBe(before + 1);
    expect(entity('acc_a', 'campaign', '1001').payload.status).toBe('ACTIVE');
  });

  it('a budget-only edit leaves the provider edit stamp; any other edit moves it', async () => {
    const stamp = entity('acc_a', 'campaign', '1001').stamp;
    clock.advance(5000);
    await applyProviderChange(services, 'acc_a', { entityType: 'campaign', entityId: '1001', budget: { amount: 10 } });
    expect(entity('acc_a', 'campaign', '1001').stamp).toBe(stamp);
    await applyProviderChange(services, 'acc_a', { entityType: 'campaign', entityId: '1001', name: 'New name' });
    expect(entity('acc_a', 'campaign', '1001').stamp).toBe(clock.now());
  });
});
