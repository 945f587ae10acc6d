// Rows as the contract has them, for tests that play a service by hand: every
// field the spec says a normalized row always carries, so what a test changes
// (a field removed, retyped, a second row of one id) is the only thing broken.
export type Row = Record<string, unknown>;

/** A campaign row (stored and live share the shape): ACTIVE, a daily campaign-level budget of `budget` USD. */
export function campaignRow(advertiserId: string, id: string, over: Row = {}): Row {
  return {
    advertiserId,
    id,
    name: `c${id}`,
    path: id,
    provider: 'provider_a',
    type: 'campaign',
    status: 'ACTIVE',
    currency: 'USD',
    createdAt: null,
    updatedAt: null,
    deletedAt: null,
    createdTime: null,
    updatedTime: null,
    budget: 10,
    budgetLevel: 'campaign',
    budgetType: 'daily',
    bidStrategy: null,
    objective: null,
    adsetBudgetSharing: null,
    ...over,
  };
}
