// `plans verify --fix` from verify's rows (issue #36, flows/plan-fix.ts): what
// becomes a change, and what is listed with its reason and never proposed.
import { describe, expect, it } from 'vitest';
import { fixOf } from '../../../src/flows/plan-fix.js';
import type { CheckedPlan, PlanLineItem } from '../../../src/flows/plan-checked.js';
import type { VerifyRow } from '../../../src/flows/plan-verify.js';

const li = (id: string, over: Partial<PlanLineItem> = {}): PlanLineItem => ({
  lineItemId: id,
  planSlug: 'p',
  name: id,
  provider: 'provider_a',
  advertiserId: 'acc_1',
  budget: 50,
  budgetType: 'daily',
  startDate: '2026-09-01',
  endDate: '2026-12-31',
  objective: null,
  lastValidation: null,
  executions: [],
  revision: 1,
  createdAt: 0,
  updatedAt: 0,
  ...over,
});
const plan = (...items: PlanLineItem[]): CheckedPlan => ({ slug: 'p', currency: 'JPY', status: 'approved', items: items.map((x) => ({ li: x })) });
const row = (over: Partial<VerifyRow>): VerifyRow => ({
  lineItemId: 'li_1',
  entityType: 'campaign',
  entityId: 'c1',
  field: 'status',
  planned: 'ACTIVE',
  live: 'PAUSED',
  note: null,
  ...over,
});

describe('fixOf', () => {
  it('status against the flight, and budget and type of one entity as one set_budget', () => {
    const p = fixOf(plan(li('li_1')), [
      row({}),
      row({ entityId: 'c2', planned: 'not ACTIVE', live: 'ACTIVE' }),
      row({ entityId: 'c3', field: 'budget', planned: 50, live: 70 }),
      row({ entityId: 'c3', field: 'budgetType', planned: 'daily', live: 'lifetime' }),
    ]);
    expect(p.notProposed).toEqual([]);
    expect(p.changes.map((c) => c.change)).toEqual([
      { advertiserId: 'acc_1', targetType: 'campaign', targetId: 'c1', action: 'activate' },
      { advertiserId: 'acc_1', targetType: 'campaign', targetId: 'c2', action: 'pause' },
      { advertiserId: 'acc_1', targetType: 'campaign', targetId: 'c3', action: 'set_budget', amount: 50, budgetType: 'daily' },
    ]);
  });

  it('listed, never proposed: not comparable, missing, objective, a DELETED entity, an amount JPY does not take, conflicting Line Items', () => {
    const p = fixOf(plan(li('li_1'), li('li_2', { budget: 12.5 }), li('li_3', { budget: 60 })), [
      row({ field: 'budget', planned: 50, live: null, note: 'not comparable: the plan is in JPY, the advertiser in USD (never converted)' }),
      row({ field: 'exists', planned: true, live: false, note: 'missing' }),
      row({ field: 'objective', planned: 'OUTCOME_SALES', live: 'OUTCOME_TRAFFIC' }),
      row({ entityId: 'c4', live: 'DELETED' }),
      row({ lineItemId: 'li_2', entityId: 'c5', field: 'budget', planned: 12.5, live: 10 }),
      row({ entityId: 'c6', field: 'budget', planned: 50, live: 40 }),
      row({ lineItemId: 'li_3', entityId: 'c6', field: 'budget', planned: 60, live: 40 }),
    ]);
    expect(p.changes).toEqual([]);
    expect(p.notProposed.map((n) => [n.entityId, n.reason])).toEqual([
      ['c1', expect.stringContaining('not comparable: the plan is in JPY')],
      ['c1', expect.stringContaining('the entity is missing')],
      ['c1', expect.stringContaining('an objective is not something a change can set')],
      ['c4', expect.stringContaining('status DELETED')],
      ['c5', 'the planned budget 12.5 is not an amount JPY takes'],
      ['c6', expect.stringContaining('ask it for different changes')],
      ['c6', expect.stringContaining('ask it for different changes')],
    ]);
  });
});
