// The rules of `plans verify` and `plans pacing` (issue #28) as pure functions:
// the flight both ends inclusive, budget only where the entity carries it and
// only in one currency, and the pacing formulas.
import { describe, expect, it } from 'vitest';
import type { PlanLineItem } from '../../../src/flows/plan-checked.js';
import { compareEntity, inFlight } from '../../../src/flows/plan-verify.js';
import { daysElapsed, expectedSpend, flightDays } from '../../../src/flows/plan-pacing.js';

const li = (over: Partial<PlanLineItem> = {}): PlanLineItem => ({
  lineItemId: 'li_1',
  planSlug: 'p',
  name: 'n',
  provider: 'provider_a',
  advertiserId: 'acc_1',
  budget: 50,
  budgetType: 'daily',
  startDate: '2026-09-01',
  endDate: '2026-09-30',
  objective: 'OUTCOME_SALES',
  lastValidation: null,
  executions: [],
  revision: 1,
  createdAt: 0,
  updatedAt: 0,
  ...over,
});
const exec = (entityType: 'campaign' | 'ad_group' | 'ad' = 'campaign') =>
  ({
    executionId: 'e',
    lineItemId: 'li_1',
    provider: 'provider_a',
    entityType,
    entityId: '42',
    mutationId: null,
    recordedAt: 0,
  }) satisfies PlanLineItem['executions'][number];
const live = (over: Record<string, unknown> = {}) => ({
  id: '42',
  status: 'ACTIVE',
  currency: 'USD',
  budget: 50,
  budgetLevel: 'campaign',
  budgetType: 'daily',
  objective: 'OUTCOME_SALES',
  ...over,
});
const fields = (rows: ReturnType<typeof compareEntity>) => rows.map((r) => [r.field, r.planned, r.live, r.note]);

describe('plans verify rules', () => {
  it('the flight includes its first and its last day', () => {
    expect(inFlight(li(), '2026-08-31')).toBe(false);
    expect(inFlight(li(), '2026-09-01')).toBe(true);
    expect(inFlight(li(), '2026-09-30')).toBe(true);
    expect(inFlight(li(), '2026-10-01')).toBe(false);
    expect(fields(compareEntity(li(), exec(), live(), 'USD', '2026-09-30'))).toEqual([]);
    expect(fields(compareEntity(li(), exec(), live(), 'USD', '2026-10-01'))).toEqual([
      ['status', 'not ACTIVE', 'ACTIVE', '2026-10-01 is outside the flight 2026-09-01 to 2026-09-30'],
    ]);
  });

  it('amounts are compared in one currency only: another currency or none known is "not comparable", never converted', () => {
    expect(fields(compareEntity(li(), exec(), live({ currency: 'EUR', budget: 46 }), 'USD', '2026-09-10'))).toEqual([
      ['budget', 50, 46, 'not comparable: the plan is in USD, the advertiser in EUR (never converted)'],
    ]);
    // Even when the figures happen to be equal.
    expect(fields(compareEntity(li(), exec(), live({ currency: 'EUR' }), 'USD', '2026-09-10'))[0]?.[3]).toMatch(/^not comparable/);
    expect(fields(compareEntity(li(), exec(), live({ currency: null, budget: null }), 'USD', '2026-09-10'))).toEqual([
      ['budget', 50, null, "not comparable: the advertiser's currency is not known yet (the plan is in USD)"],
    ]);
    expect(fields(compareEntity(li(), exec(), live({ budget: 60 }), 'USD', '2026-09-10'))).toEqual([['budget', 50, 60, null]]);
  });

  it('budget and budget type only where the entity carries the budget (its budgetLevel)', () => {
    // A campaign whose ad groups carry the budget: nothing to compare on it.
    expect(fields(compareEntity(li(), exec(), live({ budgetLevel: 'ad_group', budget: null, budgetType: null }), 'USD', '2026-09-10'))).toEqual([]);
    // An ad group that carries its own budget.
    expect(
      fields(
        compareEntity(li({ objective: null }), exec('ad_group'), live({ budgetLevel: 'ad_group', budget: 50, budgetType: 'lifetime' }), 'USD', '2026-09-10'),
      ),
    ).toEqual([['budgetType', 'daily', 'lifetime', null]]);
    // An ad carries no budget, and only campaigns have an objective.
    expect(fields(compareEntity(li(), exec('ad'), live({ budget: 1, objective: 'x' }), 'USD', '2026-09-10'))).toEqual([]);
  });

  it('objective when the Line Item names one', () => {
    expect(fields(compareEntity(li(), exec(), live({ objective: 'OUTCOME_TRAFFIC' }), 'USD', '2026-09-10'))).toEqual([
      ['objective', 'OUTCOME_SALES', 'OUTCOME_TRAFFIC', null],
    ]);
    expect(fields(compareEntity(li({ objective: null }), exec(), live({ objective: 'OUTCOME_TRAFFIC' }), 'USD', '2026-09-10'))).toEqual([]);
  });
});

describe('plans pacing formulas', () => {
  it('days count both ends; expected is lifetime × elapsed share or daily × days elapsed', () => {
    expect(flightDays('2026-09-01', '2026-09-30')).toBe(30);
    expect(daysElapsed('2026-09-01', '2026-09-30', '2026-08-31')).toBe(0);
    expect(daysElapsed('2026-09-01', '2026-09-30', '2026-09-01')).toBe(1);
    expect(daysElapsed('2026-09-01', '2026-09-30', '2026-09-15')).toBe(15);
    expect(daysElapsed('2026-09-01', '2026-09-30', '2026-12-01')).toBe(30);
    expect(expectedSpend(3000, 'lifetime', 15, 30)).toBe(1500);
    expect(expectedSpend(40, 'daily', 15, 30)).toBe(600);
  });
});
