// Normalized rows over HTTP, field by field (spec: "Common fields of a
// normalized Observe row", budget rules 1-4, campaign and ad group extras,
// live single-campaign payloads and the money rule). Every row is also parsed
// with the contract's strict schema: a missing or extra key fails.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { adGroupRowSchema, adRowSchema, assetGroupRowSchema, campaignRowSchema, creativeRowSchema } from '../../../src/contract/schemas/observe.js';
import { startTestSandbox } from '../../helpers/sandbox.js';
import type { TestSandbox } from '../../helpers/sandbox.js';
import { observeWorld } from './world.js';

let sb: TestSandbox;
let key: string;
beforeAll(async () => {
  sb = await startTestSandbox({ world: observeWorld() });
  key = sb.keys.full!;
});
afterAll(() => sb.close());

async function rows(path: string, query: Record<string, string | number> = {}): Promise<any[]> {
  const r = await sb.req('GET', path, { key, query: { limit: 500, ...query } });
  expect(r.status, JSON.stringify(r.body)).toBe(200);
  return r.body.data;
}
const byId = (list: any[], id: string) => {
  const row = list.find((x) => x.id === id);
  if (!row) throw new Error(`no row ${id}`);
  return row;
};
const stored = (resource: string, advertiserId: string) => rows(`/observe/${resource}`, { advertiserId });
const live = (resource: string, advertiserId: string) => rows(`/observe/${advertiserId}/${resource}`);

describe('exact field sets (strict schemas) on every stored and live row', () => {
  const cases = [
    ['campaigns', campaignRowSchema],
    ['ad-groups', adGroupRowSchema],
    ['ads', adRowSchema],
    ['creatives', creativeRowSchema],
    ['asset-groups', assetGroupRowSchema],
  ] as const;
  for (const [resource, schema] of cases) {
    it(`${resource}`, async () => {
      const all = await rows(`/observe/${resource}`);
      expect(all.length).toBeGreaterThan(0);
      for (const row of all) {
        expect(() => schema.parse(row)).not.toThrow();
        expect(row.deletedAt).toBeNull();
        expect(typeof row.createdAt).toBe('number');
      }
      for (const adv of ['acc_a', 'acc_b', 'acc_c', 'acc_d']) {
        const r = await sb.req('GET', `/observe/${adv}/${resource}`, { key });
        if (r.status === 501) continue;
        for (const row of r.body.data) {
          expect(() => schema.parse(row)).not.toThrow();
          expect([row.createdAt, row.updatedAt, row.deletedAt]).toEqual([null, null, null]);
        }
      }
    });
  }
});

describe('provider_a', () => {
  it('campaign carrying the budget: minor units → whole units; bidStrategy and adsetBudgetSharing only live', async () => {
    const s = byId(await stored('campaigns', 'acc_a'), '1001');
    expect(s).toMatchObject({
      budget: 50,
      budgetLevel: 'campaign',
      budgetType: 'daily',
      bidStrategy: null,
      adsetBudgetSharing: null,
      objective: 'OUTCOME_SALES',
      type: 'campaign',
      path: '1001',
      status: 'ACTIVE',
      currency: 'USD',
      provider: 'provider_a',
    });
    expect(s.createdTime).toBe(Date.parse('2026-08-01T10:00:00Z'));
    expect(s.updatedTime).toBe(Date.parse('2026-08-02T10:00:00Z'));
    const l = byId(await live('campaigns', 'acc_a'), '1001');
    expect(l).toMatchObject({ budget: 50, budgetLevel: 'campaign', bidStrategy: 'LOWEST_COST_WITH_BID_CAP', adsetBudgetSharing: true });
  });

  it('campaign whose ad sets carry the budget: budget null, budgetLevel ad_group, budgetType null (rules 1, 2)', async () => {
    for (const row of [byId(await stored('campaigns', 'acc_a'), '1002'), byId(await live('campaigns', 'acc_a'), '1002')]) {
      expect(row).toMatchObject({ budget: null, budgetLevel: 'ad_group', budgetType: null, bidStrategy: null, status: 'PAUSED' });
    }
  });

  it('ad set under a campaign budget: null budget, level campaign; live bid cap from the campaign strategy', async () => {
    expect(byId(await stored('ad-groups', 'acc_a'), '2001')).toMatchObject({
      type: 'adset',
      budget: null,
      budgetLevel: 'campaign',
      budgetType: null,
      bidStrategy: null,
      bidAmount: null,
      campaignId: '1001',
      path: '1001/2001',
    });
    expect(byId(await live('ad-groups', 'acc_a'), '2001')).toMatchObject({
      budget: null,
      budgetLevel: 'campaign',
      bidStrategy: null,
      bidAmount: 2.5,
      roasFloor: null,
    });
  });

  it('ad set with its own budget: bidStrategy sits there; bidAmount, startTime, endTime only live, unchanged format', async () => {
    expect(byId(await stored('ad-groups', 'acc_a'), '2002')).toMatchObject({
      budget: 12.34,
      budgetLevel: 'ad_group',
      budgetType: 'daily',
      bidStrategy: 'COST_CAP',
      bidAmount: null,
      roasFloor: null,
      startTime: null,
      endTime: null,
    });
    expect(byId(await live('ad-groups', 'acc_a'), '2002')).toMatchObject({
      budget: 12.34,
      budgetLevel: 'ad_group',
      bidStrategy: 'COST_CAP',
      bidAmount: 1.5,
      roasFloor: null,
      startTime: '2026-08-01T00:00:00+0200',
      endTime: '2026-12-31T23:59:59+0200',
    });
  });

  it('MIN_ROAS ad set: roasFloor as a ratio on live rows, bidAmount null; ARCHIVED kept', async () => {
    expect(byId(await live('ad-groups', 'acc_a'), '2003')).toMatchObject({
      budget: 1000,
      budgetType: 'lifetime',
      bidStrategy: 'LOWEST_COST_WITH_MIN_ROAS',
      roasFloor: 1.5,
      bidAmount: null,
      endTime: null,
      status: 'ARCHIVED',
    });
    expect(byId(await stored('ad-groups', 'acc_a'), '2003')).toMatchObject({ roasFloor: null });
  });

  it('currency unknown: budget and bidAmount null, budgetType still says what the provider has (rule 3)', async () => {
    const c = byId(await stored('campaigns', 'acc_a_nocur'), '1101');
    expect(c).toMatchObject({ currency: null, budget: null, budgetLevel: 'campaign', budgetType: 'daily' });
    expect(byId(await live('ad-groups', 'acc_a_nocur'), '2101')).toMatchObject({ currency: null, bidAmount: null });
    const single = await sb.req('GET', '/observe/acc_a_nocur/campaigns/1101', { key });
    expect(single.body.daily_budget).toBeNull();
  });

  it('a currency without minor units (JPY): 5000 minor units are 5000 yen', async () => {
    expect(byId(await stored('campaigns', 'acc_a_jpy'), '1201').budget).toBe(5000);
  });

  it('ads and creatives: path oldest first, creative link', async () => {
    expect(byId(await stored('ads', 'acc_a'), '3001')).toMatchObject({
      type: 'ad',
      path: '1001/2001/3001',
      campaignId: '1001',
      adGroupId: '2001',
      creativeId: '4001',
    });
    expect(byId(await stored('creatives', 'acc_a'), '4001')).toMatchObject({
      type: 'creative',
      path: '4001',
      title: 'Hello',
      imageUrl: 'https://img.example/1.jpg',
      callToAction: 'SHOP_NOW',
      createdTime: null,
    });
  });

  it('single live campaign: the provider payload, requested keys only, money in whole units', async () => {
    const r = await sb.req('GET', '/observe/acc_a/campaigns/1001', { key });
    expect(r.status).toBe(200);
    expect(r.body).toEqual({
      id: '1001',
      account_id: 'act_42',
      name: 'CBO sales',
      objective: 'OUTCOME_SALES',
      status: 'ACTIVE',
      daily_budget: 50,
      bid_strategy: 'LOWEST_COST_WITH_BID_CAP',
      is_adset_budget_sharing_enabled: true,
      start_time: '2026-08-01T10:00:00+0000',
      created_time: '2026-08-01T10:00:00+0000',
      updated_time: '2026-08-02T10:00:00+0000',
    });
    const adSet = await sb.req('GET', '/observe/acc_a/ad-groups/2002', { key });
    expect(adSet.body).toMatchObject({ daily_budget: 12.34, bid_amount: 1.5 });
  });
});

describe('provider_b', () => {
  it('ENABLE/DISABLE read ACTIVE/PAUSED; DELETE/ARCHIVE read DELETED/ARCHIVED', async () => {
    const list = await stored('campaigns', 'acc_b');
    expect(['5001', '5002', '5003', '5004'].map((id) => byId(list, id).status)).toEqual(['ACTIVE', 'PAUSED', 'DELETED', 'ARCHIVED']);
  });

  it('budget in whole units at the campaign with budget_optimize_on; null level when the payload does not say', async () => {
    const list = await live('campaigns', 'acc_b');
    expect(byId(list, '5001')).toMatchObject({
      budget: 75,
      budgetLevel: 'campaign',
      budgetType: 'daily',
      bidStrategy: null,
      adsetBudgetSharing: null,
      objective: 'TRAFFIC',
      currency: 'EUR',
    });
    expect(byId(list, '5002')).toMatchObject({ budget: null, budgetLevel: 'ad_group', budgetType: null });
    expect(byId(list, '5003')).toMatchObject({ budget: null, budgetLevel: null, budgetType: null });
  });

  it('ad groups: type adgroup; own budget with bid type; live rows carry no bidAmount or schedule', async () => {
    const list = await live('ad-groups', 'acc_b');
    expect(byId(list, '6001')).toMatchObject({ type: 'adgroup', budget: null, budgetLevel: 'campaign', bidStrategy: null });
    expect(byId(list, '6002')).toMatchObject({
      budget: 20.5,
      budgetLevel: 'ad_group',
      budgetType: 'daily',
      bidStrategy: 'BID_TYPE_CUSTOM',
      bidAmount: null,
      startTime: null,
      endTime: null,
    });
  });

  it('single live campaign: the payload unchanged (amounts already whole units)', async () => {
    const r = await sb.req('GET', '/observe/acc_b/campaigns/5001', { key });
    expect(r.body).toEqual({
      campaign_id: '5001',
      campaign_name: 'Campaign budget',
      objective_type: 'TRAFFIC',
      budget_mode: 'BUDGET_MODE_DAY',
      budget: 75,
      budget_optimize_on: true,
      operation_status: 'ENABLE',
      create_time: '2026-08-01 10:00:00',
      modify_time: '2026-08-02 10:00:00',
    });
  });
});

describe('provider_c', () => {
  it('micros → whole units; a shared budget answers the whole amount on each campaign (rule 4)', async () => {
    const list = await stored('campaigns', 'acc_c');
    expect(byId(list, '9001')).toMatchObject({ budget: 120, budgetLevel: 'campaign', budgetType: 'daily' });
    expect(byId(list, '9002')).toMatchObject({ budget: 120, status: 'PAUSED' });
    expect(byId(list, '9003')).toMatchObject({ budget: 12.345, status: 'DELETED' }); // not rounded to cents
    expect(byId(list, '9004')).toMatchObject({ budget: 1000, budgetType: 'lifetime' });
  });

  it('objective, bidStrategy, adsetBudgetSharing, provider times: null on every campaign', async () => {
    for (const row of [...(await stored('campaigns', 'acc_c')), ...(await live('campaigns', 'acc_c'))]) {
      expect(row).toMatchObject({ objective: null, bidStrategy: null, adsetBudgetSharing: null, createdTime: null, updatedTime: null });
    }
  });

  it('ad groups never carry a budget; ads are ad_group_ad links with composite ids', async () => {
    expect(byId(await stored('ad-groups', 'acc_c'), '9101')).toMatchObject({
      type: 'ad_group',
      budget: null,
      budgetLevel: 'campaign',
      budgetType: null,
      bidStrategy: null,
      path: '9001/9101',
    });
    expect(byId(await stored('ads', 'acc_c'), '9101~9201')).toMatchObject({
      type: 'ad_group_ad',
      path: '9001/9101/9101~9201',
      campaignId: '9001',
      adGroupId: '9101',
      name: 'RSA',
    });
  });

  it('automated campaign: asset groups, and the ad-groups read answers nothing for it', async () => {
    expect(await rows('/observe/ad-groups', { campaignId: '9004' })).toEqual([]);
    expect(await rows('/observe/ads', { campaignId: '9004' })).toEqual([]);
    const groups = await rows('/observe/asset-groups', { campaignId: '9004' });
    expect(groups.map((g) => [g.id, g.type, g.path, g.campaignId])).toEqual([['9301', 'asset_group', '9004/9301', '9004']]);
  });

  it('single live campaign: Micros stay micros, shared budget amount shown on the campaign', async () => {
    const r = await sb.req('GET', '/observe/acc_c/campaigns/9001', { key });
    expect(r.body).toEqual({ id: '9001', name: 'Search shared 1', status: 'ENABLED', advertisingChannelType: 'SEARCH', budgetAmountMicros: 120_000_000 });
    const pmax = await sb.req('GET', '/observe/acc_c/campaigns/9004', { key });
    expect(pmax.body.budgetTotalAmountMicros).toBe(1_000_000_000);
  });
});

describe('provider_d (our design)', () => {
  it('is never stored; live rows carry provider_d, its budget in whole units on the campaign', async () => {
    expect(await stored('campaigns', 'acc_d')).toEqual([]);
    expect(await rows('/observe/campaigns', { provider: 'provider_d' })).toEqual([]);
    expect(byId(await live('campaigns', 'acc_d'), 'cmp-1')).toMatchObject({
      provider: 'provider_d',
      budget: 40,
      budgetLevel: 'campaign',
      budgetType: 'daily',
      objective: 'conversations',
    });
    expect(byId(await live('ad-groups', 'acc_d'), 'grp-1')).toMatchObject({ type: 'ad_group', budget: null, budgetLevel: 'campaign', path: 'cmp-1/grp-1' });
  });
});
