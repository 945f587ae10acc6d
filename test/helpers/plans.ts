// A Line Item the plan tests share: a daily Social line on the demo world's provider_a advertiser, flying in
// October 2026 (one copy instead of one per test file).
export const SOCIAL_LINE_ITEM = {
  name: 'Social',
  provider: 'provider_a',
  advertiserId: 'acc_acme_a_001',
  budget: 100,
  budgetType: 'daily',
  startDate: '2026-10-01',
  endDate: '2026-10-31',
  objective: 'OUTCOME_SALES',
} as const;
