// A small hand-written world for the Observe tests: every provider payload is
// spelled out so each expected number in the tests can be checked by eye.
import { minimalWorld, withAdvertiser, withOrganization } from '../../helpers/sandbox.js';
import type { WorldInput } from '../../../src/sandbox/fixtures/schema.js';

const T = '2026-08-01T10:00:00+0000';
const T2 = '2026-08-02T10:00:00+0000';

export const providerA = {
  campaigns: [
    {
      id: '1001',
      account_id: 'act_42',
      name: 'CBO sales',
      objective: 'OUTCOME_SALES',
      status: 'ACTIVE',
      daily_budget: '5000',
      bid_strategy: 'LOWEST_COST_WITH_BID_CAP',
      is_adset_budget_sharing_enabled: true,
      start_time: T,
      created_time: T,
      updated_time: T2,
      internal_note: 'not requested by the service',
    },
    { id: '1002', account_id: 'act_42', name: 'Ad set budgets', objective: 'OUTCOME_TRAFFIC', status: 'PAUSED', created_time: T, updated_time: T },
  ],
  adGroups: [
    { id: '2001', campaign_id: '1001', name: 'Under CBO', status: 'ACTIVE', bid_amount: '250', created_time: T, updated_time: T },
    {
      id: '2002',
      campaign_id: '1002',
      name: 'Own daily budget',
      status: 'ACTIVE',
      daily_budget: '1234',
      bid_strategy: 'COST_CAP',
      bid_amount: '150',
      start_time: '2026-08-01T00:00:00+0200',
      end_time: '2026-12-31T23:59:59+0200',
      created_time: T,
      updated_time: T,
    },
    {
      id: '2003',
      campaign_id: '1002',
      name: 'ROAS floor',
      status: 'ARCHIVED',
      lifetime_budget: '100000',
      bid_strategy: 'LOWEST_COST_WITH_MIN_ROAS',
      bid_constraints: { roas_average_floor: 15000 },
      created_time: T,
      updated_time: T,
    },
  ],
  ads: [{ id: '3001', adset_id: '2001', campaign_id: '1001', name: 'Ad one', status: 'ACTIVE', creative: { id: '4001' }, created_time: T, updated_time: T }],
  creatives: [
    {
      id: '4001',
      name: 'Creative one',
      status: 'ACTIVE',
      title: 'Hello',
      body: 'World',
      image_url: 'https://img.example/1.jpg',
      call_to_action_type: 'SHOP_NOW',
    },
  ],
  insights: [
    { date: '2026-09-28', campaignId: '1001', adGroupId: '2001', adId: '3001', spend: 1050, impressions: 1000, clicks: 10, reach: 800, conversions: 1 },
    { date: '2026-09-29', campaignId: '1001', adGroupId: '2001', adId: '3001', spend: 2000, impressions: 2000, clicks: 20, reach: 1500, conversions: 2 },
    { date: '2026-10-01', campaignId: '1002', adGroupId: '2002', spend: 99, impressions: 100, clicks: 1, reach: 90, conversions: 0 },
  ],
};

export const providerB = {
  campaigns: [
    {
      campaign_id: '5001',
      campaign_name: 'Campaign budget',
      objective_type: 'TRAFFIC',
      budget_mode: 'BUDGET_MODE_DAY',
      budget: 75,
      budget_optimize_on: true,
      operation_status: 'ENABLE',
      create_time: '2026-08-01 10:00:00',
      modify_time: '2026-08-02 10:00:00',
    },
    {
      campaign_id: '5002',
      campaign_name: 'Ad group budgets',
      objective_type: 'REACH',
      budget_mode: 'BUDGET_MODE_INFINITE',
      budget: 0,
      budget_optimize_on: false,
      operation_status: 'DISABLE',
      create_time: '2026-08-01 10:00:00',
      modify_time: '2026-08-01 10:00:00',
    },
    {
      campaign_id: '5003',
      campaign_name: 'Does not say',
      objective_type: 'CONVERSIONS',
      budget_mode: 'BUDGET_MODE_TOTAL',
      budget: 900,
      operation_status: 'DELETE',
      create_time: '2026-08-01 10:00:00',
      modify_time: '2026-08-01 10:00:00',
    },
    {
      campaign_id: '5004',
      campaign_name: 'Archived',
      objective_type: 'REACH',
      operation_status: 'ARCHIVE',
      create_time: '2026-08-01 10:00:00',
      modify_time: '2026-08-01 10:00:00',
    },
  ],
  adGroups: [
    {
      adgroup_id: '6001',
      campaign_id: '5001',
      adgroup_name: 'Under campaign budget',
      operation_status: 'ENABLE',
      budget_mode: 'BUDGET_MODE_INFINITE',
      budget: 0,
      create_time: '2026-08-01 10:00:00',
      modify_time: '2026-08-01 10:00:00',
    },
    {
      adgroup_id: '6002',
      campaign_id: '5002',
      adgroup_name: 'Own budget',
      operation_status: 'DISABLE',
      budget_mode: 'BUDGET_MODE_DAY',
      budget: 20.5,
      bid_type: 'BID_TYPE_CUSTOM',
      bid_price: 1.2,
      create_time: '2026-08-01 10:00:00',
      modify_time: '2026-08-01 10:00:00',
    },
  ],
  ads: [
    {
      ad_id: '7001',
      adgroup_id: '6001',
      campaign_id: '5001',
      ad_name: 'Video',
      operation_status: 'ENABLE',
      create_time: '2026-08-01 10:00:00',
      modify_time: '2026-08-01 10:00:00',
    },
  ],
  insights: [{ date: '2026-09-28', campaignId: '5001', adGroupId: '6001', adId: '7001', spend: 12.5, impressions: 500, clicks: 5, reach: 400, conversions: 0 }],
};

export const providerC = {
  sharedBudgets: [{ id: '8001', name: 'Shared', amountMicros: 120_000_000, explicitlyShared: true }],
  campaigns: [
    { id: '9001', name: 'Search shared 1', status: 'ENABLED', advertisingChannelType: 'SEARCH', campaignBudget: '8001' },
    { id: '9002', name: 'Search shared 2', status: 'PAUSED', advertisingChannelType: 'SEARCH', campaignBudget: '8001' },
    { id: '9003', name: 'Removed', status: 'REMOVED', advertisingChannelType: 'DISPLAY', budgetAmountMicros: 12_345_000 },
    { id: '9004', name: 'PMax', status: 'ENABLED', advertisingChannelType: 'PERFORMANCE_MAX', budgetTotalAmountMicros: 1_000_000_000 },
  ],
  adGroups: [{ id: '9101', campaignId: '9001', name: 'Ad group', status: 'ENABLED', cpcBidMicros: 500_000 }],
  ads: [{ adGroupId: '9101', status: 'ENABLED', ad: { id: '9201', name: 'RSA', finalUrls: ['https://shop.example/'] } }],
  assetGroups: [{ id: '9301', campaignId: '9004', name: 'Asset group', status: 'ENABLED', finalUrls: ['https://shop.example/'] }],
  insights: [
    {
      date: '2026-09-28',
      campaignId: '9001',
      adGroupId: '9101',
      adId: '9101~9201',
      spend: 3_333_333,
      impressions: 300,
      clicks: 3,
      reach: 250,
      conversions: 0.5,
    },
    { date: '2026-09-28', campaignId: '9004', spend: 7_000_000, impressions: 700, clicks: 7, reach: 600, conversions: 1 },
  ],
};

export const providerD = {
  campaigns: [
    {
      id: 'cmp-1',
      name: 'Assistant',
      state: 'active',
      goal: 'conversations',
      budget: { amount: '40.00', period: 'daily' },
      created_at: '2026-08-01T10:00:00Z',
      updated_at: '2026-08-01T10:00:00Z',
    },
  ],
  adGroups: [{ id: 'grp-1', campaign_id: 'cmp-1', name: 'Travel', state: 'active', created_at: '2026-08-01T10:00:00Z', updated_at: '2026-08-01T10:00:00Z' }],
  ads: [
    {
      id: 'ad-1',
      ad_group_id: 'grp-1',
      campaign_id: 'cmp-1',
      name: 'Answer ad',
      state: 'deleted',
      created_at: '2026-08-01T10:00:00Z',
      updated_at: '2026-08-01T10:00:00Z',
    },
  ],
};

/** org_test: acc_a (USD), acc_a_nocur (currency unknown), acc_a_jpy, acc_b (EUR), acc_c, acc_d, acc_b_off (not connected), acc_a_empty (no entities); org_other: acc_other. */
export function observeWorld(extra: Partial<WorldInput> = {}): WorldInput {
  let w = withOrganization(minimalWorld(), 'org_other');
  w = withAdvertiser(w, { id: 'acc_a', provider: 'provider_a', currency: 'USD', ...providerA } as never);
  w = withAdvertiser(w, {
    id: 'acc_a_nocur',
    provider: 'provider_a',
    currency: null,
    campaigns: [{ ...providerA.campaigns[0], id: '1101' }],
    adGroups: [{ ...providerA.adGroups[1], id: '2101', campaign_id: '1101', daily_budget: undefined, bid_strategy: undefined }],
    insights: [{ date: '2026-09-28', campaignId: '1101', spend: 500, impressions: 10, clicks: 1, reach: 5, conversions: 0 }],
  } as never);
  w = withAdvertiser(w, { id: 'acc_a_jpy', provider: 'provider_a', currency: 'JPY', campaigns: [{ ...providerA.campaigns[0], id: '1201' }] } as never);
  w = withAdvertiser(w, { id: 'acc_b', provider: 'provider_b', currency: 'EUR', ...providerB } as never);
  w = withAdvertiser(w, { id: 'acc_c', provider: 'provider_c', currency: 'USD', ...providerC } as never);
  w = withAdvertiser(w, { id: 'acc_d', provider: 'provider_d', currency: 'USD', ...providerD } as never);
  w = withAdvertiser(w, {
    id: 'acc_b_off',
    provider: 'provider_b',
    currency: 'EUR',
    connection: 'not_connected',
    campaigns: [{ ...providerB.campaigns[0], campaign_id: '5101' }],
  } as never);
  w = withAdvertiser(w, { id: 'acc_a_empty', provider: 'provider_a', currency: 'USD' });
  w = withAdvertiser(w, {
    id: 'acc_other',
    organization: 'org_other',
    provider: 'provider_a',
    currency: 'USD',
    campaigns: [{ ...providerA.campaigns[1], id: '1301' }],
  } as never);
  return { ...w, ...extra };
}

export const OTHER_KEY_LABEL = 'org-other';
