// GET /observe/insights (our design, docs/decisions.md): a required
// date range, level, time grain, breakdown, filters, spend in whole units.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { insightRowSchema } from '../../../src/contract/schemas/observe.js';
import { startTestSandbox } from '../../helpers/sandbox.js';
import type { TestSandbox } from '../../helpers/sandbox.js';
import { OTHER_KEY_LABEL, observeWorld } from './world.js';

let sb: TestSandbox;
beforeAll(async () => {
  sb = await startTestSandbox({ world: observeWorld() });
});
afterAll(() => sb.close());

const RANGE = { since: '2026-09-01', until: '2026-09-30' };
const get = (query: Record<string, string | number | undefined>, key = sb.keys.full) =>
  sb.req('GET', '/observe/insights', { key, query: { limit: 500, ...query } });

describe('the date range', () => {
  it('is required: a missing since or until is 400 invalid_request naming the field', async () => {
    const none = await get({});
    expect(none.status).toBe(400);
    expect(none.body.issues.map((i: { path: string }) => i.path).sort()).toEqual(['/since', '/until']);
    const noUntil = await get({ since: '2026-09-01' });
    expect(noUntil.body.issues).toEqual([expect.objectContaining({ in: 'query', path: '/until' })]);
  });

  it('refuses impossible dates and a range that ends before it starts', async () => {
    for (const q of [
      { since: '2026-02-30', until: '2026-03-01' },
      { since: '2026/09/01', until: '2026-09-30' },
      { since: '2026-09-30', until: '2026-09-01' },
    ]) {
      const r = await get(q);
      expect([r.status, r.body.error]).toEqual([400, 'invalid_request']);
    }
  });

  it('only days inside the range count (inclusive on both ends)', async () => {
    const r = await get({ since: '2026-09-29', until: '2026-09-29', advertiserId: 'acc_a' });
    expect(r.body.data).toEqual([expect.objectContaining({ impressions: 2000, spend: 20, dateStart: '2026-09-29', dateStop: '2026-09-29' })]);
  });
});

describe('rows', () => {
  it('advertiser level (default), whole range: one row per advertiser, spend in whole units of its currency', async () => {
    const r = await get(RANGE);
    expect(r.status).toBe(200);
    for (const row of r.body.data) expect(() => insightRowSchema.parse(row)).not.toThrow();
    const by = Object.fromEntries(r.body.data.map((x: { advertiserId: string }) => [x.advertiserId, x]));
    expect(by.acc_a).toMatchObject({
      level: 'advertiser',
      provider: 'provider_a',
      currency: 'USD',
      spend: 30.5,
      impressions: 3000,
      clicks: 30,
      reach: 2300,
      conversions: 3,
      dateStart: '2026-09-01',
      dateStop: '2026-09-30',
    });
    expect(by.acc_b).toMatchObject({ currency: 'EUR', spend: 12.5 });
    expect(by.acc_c).toMatchObject({ spend: 10.333333, conversions: 1.5 });
    expect(by.acc_a_nocur).toMatchObject({ currency: null, spend: null, impressions: 10 });
    expect(by.acc_other).toBeUndefined();
  });

  it('campaign, ad_group and ad levels: one row per entity; automated campaigns have no ad group or ad rows', async () => {
    const campaigns = await get({ ...RANGE, level: 'campaign', advertiserId: 'acc_c' });
    expect(campaigns.body.data.map((x: { entityId: string; entityType: string; spend: number }) => [x.entityType, x.entityId, x.spend]).sort()).toEqual([
      ['campaign', '9001', 3.333333],
      ['campaign', '9004', 7],
    ]);
    const adGroups = await get({ ...RANGE, level: 'ad_group', advertiserId: 'acc_c' });
    expect(adGroups.body.data.map((x: { entityId: string; entityType: string }) => [x.entityType, x.entityId])).toEqual([['ad_group', '9101']]);
    const ads = await get({ ...RANGE, level: 'ad', provider: 'provider_a' });
    expect(ads.body.data.map((x: { entityId: string; entityType: string }) => [x.entityType, x.entityId])).toEqual([['ad', '3001']]);
    const idsFilter = await get({ ...RANGE, level: 'campaign', ids: '9004' });
    expect(idsFilter.body.data.map((x: { entityId: string }) => x.entityId)).toEqual(['9004']);
  });

  it('timeGrain day, week (Monday first) and month; newest period first', async () => {
    const day = await get({ since: '2026-09-28', until: '2026-10-01', timeGrain: 'day', advertiserId: 'acc_a' });
    expect(day.body.data.map((x: { dateStart: string; impressions: number }) => [x.dateStart, x.impressions])).toEqual([
      ['2026-10-01', 100],
      ['2026-09-29', 2000],
      ['2026-09-28', 1000],
    ]);
    // 2026-09-28 is a Monday: one week row holds all three days, clipped to the range.
    const week = await get({ since: '2026-09-29', until: '2026-10-04', timeGrain: 'week', advertiserId: 'acc_a' });
    expect(week.body.data.map((x: { dateStart: string; dateStop: string; impressions: number }) => [x.dateStart, x.dateStop, x.impressions])).toEqual([
      ['2026-09-29', '2026-10-04', 2100],
    ]);
    const month = await get({ since: '2026-09-01', until: '2026-10-31', timeGrain: 'month', advertiserId: 'acc_a' });
    expect(month.body.data.map((x: { dateStart: string; dateStop: string; impressions: number }) => [x.dateStart, x.dateStop, x.impressions])).toEqual([
      ['2026-10-01', '2026-10-31', 100],
      ['2026-09-01', '2026-09-30', 3000],
    ]);
  });

  it('breakdown by provider, advertiser or entity type; rows never mix currencies', async () => {
    const byProvider = await get({ ...RANGE, breakdown: 'provider' });
    for (const row of byProvider.body.data) expect(row).toMatchObject({ advertiserId: null, entityType: null, entityId: null });
    const a = byProvider.body.data.filter((x: { provider: string }) => x.provider === 'provider_a');
    expect(a.map((x: { currency: string | null; impressions: number }) => [x.currency, x.impressions]).sort()).toEqual(
      [
        ['USD', 3000],
        [null, 10],
      ].sort(),
    );
    const byAdvertiser = await get({ ...RANGE, level: 'ad', breakdown: 'advertiser' });
    expect(byAdvertiser.body.data.map((x: { advertiserId: string }) => x.advertiserId).sort()).toEqual(['acc_a', 'acc_b', 'acc_c']);
    const byType = await get({ ...RANGE, level: 'ad_group', breakdown: 'entity_type' });
    expect(byType.body.data.map((x: { entityType: string; currency: string }) => `${x.entityType}/${x.currency}`).sort()).toEqual([
      'ad_group/USD',
      'adgroup/EUR',
      'adset/USD',
    ]);
  });

  it('pages like other lists, cursor bound to the query', async () => {
    const all = await get({ ...RANGE, timeGrain: 'day', level: 'ad' });
    const seen: unknown[] = [];
    let cursor: string | undefined;
    do {
      const r = await get({ ...RANGE, timeGrain: 'day', level: 'ad', limit: 1, cursor });
      seen.push(...r.body.data);
      cursor = r.body.nextCursor;
    } while (cursor);
    expect(seen).toEqual(all.body.data);
    const first = await get({ ...RANGE, limit: 1 });
    expect((await get({ ...RANGE, level: 'campaign', limit: 1, cursor: first.body.nextCursor })).body.error).toBe('invalid_cursor');
  });

  it("another organization's advertiser: empty list", async () => {
    expect((await get({ ...RANGE, advertiserId: 'acc_a' }, sb.key(OTHER_KEY_LABEL))).body.data).toEqual([]);
  });
});
