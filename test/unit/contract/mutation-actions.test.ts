// The table of mutation actions (src/contract/mutation-actions.ts): each
// action's body from named fields, what the service restates, the named
// command's words, and its inverse read from the entity's live row before the
// change, for every action, each inverse a body the contract's schema takes.
import { describe, expect, it } from 'vitest';
import { ACTION_NAMES, bodyOf, inverseOf, MUTATION_ACTIONS, type Inverse, type LiveRow } from '../../../src/contract/mutation-actions.js';
import { createMutationBody, type CreateMutation } from '../../../src/contract/schemas/mutations.js';
import type { AdGroupRow, CampaignRow } from '../../../src/contract/schemas/observe.js';

const common = {
  advertiserId: 'acc_1',
  path: '7',
  provider: 'provider_a',
  status: 'ACTIVE',
  currency: 'USD',
  createdAt: null,
  updatedAt: null,
  deletedAt: null,
  createdTime: null,
  updatedTime: null,
} as const;

/** A live campaign row carrying its own daily budget of 50 and a bid strategy. */
const campaign = (over: Partial<CampaignRow> = {}): CampaignRow => ({
  ...common,
  id: '7',
  name: 'Spring sale',
  type: 'campaign',
  budget: 50,
  budgetLevel: 'campaign',
  budgetType: 'daily',
  bidStrategy: 'LOWEST_COST_WITH_BID_CAP',
  objective: 'OUTCOME_SALES',
  adsetBudgetSharing: true,
  ...over,
});

/** A live ad set under a campaign that carries the budget: no budget of its own, a bid cap of 2.5. */
const adGroup = (over: Partial<AdGroupRow> = {}): AdGroupRow => ({
  ...common,
  id: '8',
  path: '7/8',
  name: 'Lookalikes',
  type: 'adset',
  budget: null,
  budgetLevel: 'campaign',
  budgetType: null,
  bidStrategy: 'COST_CAP',
  campaignId: '7',
  bidAmount: 2.5,
  roasFloor: null,
  startTime: null,
  endTime: null,
  ...over,
});

const onCampaign = { advertiserId: 'acc_1', target: { type: 'campaign', id: '7' } } as const;
const onAdGroup = { advertiserId: 'acc_1', target: { type: 'ad_group', id: '8' } } as const;

/** The inverse's body, checked by the contract's own schema (a body the service would take). */
function undoBody(body: CreateMutation, live: LiveRow): CreateMutation {
  const inverse: Inverse = inverseOf(body, live);
  if (!('body' in inverse)) throw new Error(`no inverse: ${inverse.reason}`);
  return createMutationBody.parse(inverse.body);
}
const reason = (body: CreateMutation, live: LiveRow) => {
  const inverse = inverseOf(body, live);
  return 'reason' in inverse ? inverse.reason : `an inverse: ${JSON.stringify(inverse.body)}`;
};

describe('the inverse of each action, from the live row before it', () => {
  it('pause and activate: the action that restores the live status', () => {
    expect(undoBody({ ...onCampaign, action: 'pause' }, campaign())).toEqual({ ...onCampaign, action: 'activate' });
    expect(undoBody({ ...onCampaign, action: 'activate' }, campaign({ status: 'PAUSED' }))).toEqual({ ...onCampaign, action: 'pause' });
    // Already in the status the change sets: the inverse sets it again (nothing else would restore it).
    expect(undoBody({ ...onAdGroup, action: 'pause' }, adGroup({ status: 'PAUSED' }))).toEqual({ ...onAdGroup, action: 'pause' });
    expect(reason({ ...onCampaign, action: 'activate' }, campaign({ status: 'ARCHIVED' }))).toMatch(/ARCHIVED before; only ACTIVE or PAUSED/);
  });

  it('delete and archive: none, they are not undone', () => {
    expect(reason({ ...onCampaign, action: 'delete' }, campaign())).toMatch(/a delete cannot be undone/);
    expect(reason({ ...onAdGroup, action: 'archive' }, adGroup())).toMatch(/an archive cannot be undone/);
  });

  it('rename: the old name', () => {
    expect(undoBody({ ...onCampaign, action: 'rename', name: 'Summer sale' }, campaign())).toEqual({ ...onCampaign, action: 'rename', name: 'Spring sale' });
  });

  it('set_budget: the old amount and type, where the row carries the budget', () => {
    expect(undoBody({ ...onCampaign, action: 'set_budget', budget: { amount: 80, type: 'lifetime' } }, campaign())).toEqual({
      ...onCampaign,
      action: 'set_budget',
      budget: { amount: 50, type: 'daily' },
    });
    // An ad set under a campaign budget carries none (spec budget rule 1), nor does a row whose currency is unknown.
    expect(reason({ ...onAdGroup, action: 'set_budget', budget: { amount: 80 } }, adGroup())).toMatch(/no budget .*campaign level/);
    expect(reason({ ...onCampaign, action: 'set_budget', budget: { amount: 80 } }, campaign({ budget: null, currency: null, budgetType: null }))).toMatch(
      /currency is not known/,
    );
  });

  it('set_bid: each of strategy and amount it sent, back to the live value', () => {
    expect(undoBody({ ...onAdGroup, action: 'set_bid', bidStrategy: 'LOWEST_COST_WITH_BID_CAP', bidAmount: 4 }, adGroup())).toEqual({
      ...onAdGroup,
      action: 'set_bid',
      bidStrategy: 'COST_CAP',
      bidAmount: 2.5,
    });
    expect(undoBody({ ...onAdGroup, action: 'set_bid', bidAmount: 4 }, adGroup())).toEqual({ ...onAdGroup, action: 'set_bid', bidAmount: 2.5 });
    expect(undoBody({ ...onCampaign, action: 'set_bid', bidStrategy: 'COST_CAP' }, campaign())).toEqual({
      ...onCampaign,
      action: 'set_bid',
      bidStrategy: 'LOWEST_COST_WITH_BID_CAP',
    });
    // A campaign row has no bidAmount; an ad set's is null for a strategy without one.
    expect(reason({ ...onCampaign, action: 'set_bid', bidAmount: 4 }, campaign())).toMatch(/no bidAmount/);
    expect(reason({ ...onAdGroup, action: 'set_bid', bidAmount: 4 }, adGroup({ bidAmount: null }))).toMatch(/no bidAmount/);
    expect(reason({ ...onAdGroup, action: 'set_bid', bidStrategy: 'COST_CAP' }, adGroup({ bidStrategy: null }))).toMatch(/no bidStrategy/);
  });

  it('none from a stored row, a row of another entity, or an entity deleted before the change', () => {
    expect(reason({ ...onCampaign, action: 'rename', name: 'x' }, campaign({ createdAt: 1, updatedAt: 2 }))).toMatch(/stored row/);
    expect(reason({ ...onCampaign, action: 'rename', name: 'x' }, campaign({ id: '9' }))).toMatch(/not the change's target/);
    expect(reason({ ...onCampaign, action: 'rename', name: 'x' }, adGroup({ id: '7' }))).toMatch(/not the change's target/);
    expect(reason({ ...onCampaign, action: 'rename', name: 'x' }, campaign({ advertiserId: 'acc_2' }))).toMatch(/not the change's target/);
    expect(reason({ ...onCampaign, action: 'pause' }, campaign({ status: 'DELETED' }))).toMatch(/DELETED before/);
  });
});

describe('the rest of each entry', () => {
  it('has one entry per variant of the schema, in its order', () => {
    expect(ACTION_NAMES).toEqual(createMutationBody.options.map((v) => v.shape.action.value));
  });

  it('builds each body from named fields, the schema takes it, and the service restates it as the entry says', () => {
    const fields = { advertiserId: 'acc_1', targetType: 'campaign', targetId: '7', name: 'N', amount: 5, budgetType: 'lifetime', bidStrategy: 'COST_CAP' };
    for (const action of ACTION_NAMES) {
      // Every field given: each action takes the ones it reads (the schema refuses any other).
      const body = createMutationBody.parse(bodyOf({ ...fields, action }));
      expect(Object.keys(body).slice(0, 3), action).toEqual(['advertiserId', 'target', 'action']);
      expect(MUTATION_ACTIONS[body.action].changes(body), action).toBeDefined();
    }
    expect(bodyOf({ advertiserId: 'acc_1', action: 'set_bid', targetType: 'ad_group', targetId: '8', amount: 3 })).toEqual({
      ...onAdGroup,
      action: 'set_bid',
      bidAmount: 3,
    });
    expect(MUTATION_ACTIONS.set_budget.changes({ ...onCampaign, action: 'set_budget', budget: { amount: 5 } })).toEqual({ budget: { amount: 5 } });
    expect(bodyOf({ advertiserId: 'acc_1', action: 'future', targetType: 'campaign', targetId: '7', name: 'N' })).toEqual({ ...onCampaign, action: 'future' });
  });
});
