// provider_a: the feed-based social ad platform. Ids are digit strings; money
// is in minor units (digit strings, as the platform sends them); statuses are
// the service's own four words; times read "2026-08-01T10:00:00+0000".
// Budgets live on the campaign (budget shared by its ad sets) or on each ad
// set; the bid strategy sits where the budget sits.
import { z } from 'zod';
import { ENTITY_STATUSES } from '../../contract/ids.js';
import type { EntityStatus } from '../../contract/ids.js';
import { checkWholeAmount, minorToWhole, wholeToMinor } from './units.js';
import {
  amountOf,
  baseRow,
  isBudgetOnly,
  isOneOf,
  isPayload,
  joinPath,
  numberOf,
  pick,
  refusal,
  str,
  textOf,
  type ChangeContext,
  type EntityKind,
  type NormalizeContext,
  type Payload,
  type ProviderAdapter,
  type ProviderChange,
} from './types.js';

export const PROVIDER_A_BID_STRATEGIES = ['LOWEST_COST_WITHOUT_CAP', 'LOWEST_COST_WITH_BID_CAP', 'COST_CAP', 'LOWEST_COST_WITH_MIN_ROAS'] as const;
/** Strategies whose amount is a bid (bid cap, cost cap); MIN_ROAS carries a floor instead. */
const STRATEGIES_WITH_AMOUNT = new Set(['LOWEST_COST_WITH_BID_CAP', 'COST_CAP']);
const STATUSES = ['ACTIVE', 'PAUSED', 'DELETED', 'ARCHIVED'] as const;

/** "2026-08-01T10:00:00+0000" (the platform's format) ↔ epoch ms. */
export function formatTimeA(ms: number): string {
  return new Date(ms).toISOString().replace(/\.\d{3}Z$/, '+0000');
}
export function parseTimeA(v: unknown): number | null {
  if (typeof v !== 'string') return null;
  const ms = Date.parse(v.replace(/([+-]\d{2})(\d{2})$/, '$1:$2'));
  return Number.isNaN(ms) ? null : ms;
}

const idA = z.string().regex(/^\d{1,30}$/, { message: 'must be a provider_a id (digits)' });
const minor = z
  .union([z.number().int().nonnegative(), z.string().regex(/^\d{1,18}$/, { message: 'must be minor units (digits)' })])
  .transform((v) => String(v))
  .describe('Minor units of the account currency (e.g. cents), as the platform sends them: a digit string.');
const timeA = z.string().refine((s) => parseTimeA(s) !== null, { message: 'must be a time like 2026-08-01T10:00:00+0000' });

const campaign = z.looseObject({
  id: idA,
  name: z.string().min(1),
  objective: z.string().min(1).default('OUTCOME_TRAFFIC'),
  status: z.enum(STATUSES).default('ACTIVE'),
  daily_budget: minor.optional(),
  lifetime_budget: minor.optional(),
  bid_strategy: z.enum(PROVIDER_A_BID_STRATEGIES).optional(),
  is_adset_budget_sharing_enabled: z.boolean().optional(),
  start_time: timeA.optional(),
  stop_time: timeA.optional(),
  created_time: timeA,
  updated_time: timeA,
});
const adSet = z.looseObject({
  id: idA,
  name: z.string().min(1),
  campaign_id: idA,
  status: z.enum(STATUSES).default('ACTIVE'),
  daily_budget: minor.optional(),
  lifetime_budget: minor.optional(),
  bid_strategy: z.enum(PROVIDER_A_BID_STRATEGIES).optional(),
  bid_amount: minor.optional(),
  bid_constraints: z.strictObject({ roas_average_floor: z.number().int().positive().describe('ROAS floor × 10,000 (15000 = 1.5).') }).optional(),
  optimization_goal: z.string().default('LINK_CLICKS'),
  billing_event: z.string().default('IMPRESSIONS'),
  start_time: timeA.optional(),
  end_time: timeA.optional(),
  created_time: timeA,
  updated_time: timeA,
});
const ad = z.looseObject({
  id: idA,
  name: z.string().min(1),
  adset_id: idA,
  campaign_id: idA,
  status: z.enum(STATUSES).default('ACTIVE'),
  creative: z.strictObject({ id: idA }).optional(),
  created_time: timeA,
  updated_time: timeA,
});
const creative = z.looseObject({
  id: idA,
  name: z.string().min(1),
  status: z.enum(['ACTIVE', 'DELETED']).default('ACTIVE'),
  title: z.string().optional(),
  body: z.string().optional(),
  image_url: z.string().optional(),
  call_to_action_type: z.string().optional(),
});

/** provider_a's statuses are the service's own words (its schema allows no other). */
const statusOf = (p: Payload): EntityStatus => (isOneOf(ENTITY_STATUSES, p.status) ? p.status : 'PAUSED');

function hasBudget(p: Payload): boolean {
  return p.daily_budget !== undefined || p.lifetime_budget !== undefined;
}
function budgetOf(p: Payload, currency: string | null): { budget: number | null; budgetType: 'daily' | 'lifetime' | null } {
  if (p.daily_budget !== undefined) return { budget: minorToWhole(amountOf(p.daily_budget), currency), budgetType: 'daily' };
  if (p.lifetime_budget !== undefined) return { budget: minorToWhole(amountOf(p.lifetime_budget), currency), budgetType: 'lifetime' };
  return { budget: null, budgetType: null };
}

/** Money keys the service converts to whole units on a single live read. */
const MONEY_KEYS = ['daily_budget', 'lifetime_budget', 'bid_amount'];
function convertMoney(p: Payload, currency: string | null): Payload {
  const out = { ...p };
  for (const k of MONEY_KEYS) if (k in out) out[k] = minorToWhole(amountOf(out[k]), currency);
  return out;
}

const REQUESTED: Record<EntityKind, readonly string[]> = {
  campaign: [
    'id',
    'account_id',
    'name',
    'objective',
    'status',
    'daily_budget',
    'lifetime_budget',
    'bid_strategy',
    'is_adset_budget_sharing_enabled',
    'start_time',
    'created_time',
    'updated_time',
  ],
  ad_group: [
    'id',
    'account_id',
    'campaign_id',
    'name',
    'status',
    'daily_budget',
    'lifetime_budget',
    'bid_strategy',
    'bid_amount',
    'bid_constraints',
    'optimization_goal',
    'billing_event',
    'start_time',
    'end_time',
    'created_time',
    'updated_time',
  ],
  ad: ['id', 'account_id', 'adset_id', 'campaign_id', 'name', 'status', 'creative', 'created_time', 'updated_time'],
  creative: ['id', 'account_id', 'name', 'status', 'title', 'body', 'image_url', 'call_to_action_type'],
  asset_group: [],
};

function normalize(kind: EntityKind, p: Payload, ctx: NormalizeContext): Payload {
  const currency = ctx.advertiser.currency;
  const times = { createdTime: parseTimeA(p.created_time), updatedTime: parseTimeA(p.updated_time) };
  const status = statusOf(p);
  const id = String(p.id);
  const name = String(p.name);
  switch (kind) {
    case 'campaign': {
      const own = hasBudget(p);
      const { budget, budgetType } = own ? budgetOf(p, currency) : { budget: null, budgetType: null };
      return {
        ...baseRow(ctx, { id, name, path: id, type: 'campaign', status, ...times }),
        budget,
        budgetLevel: own ? 'campaign' : 'ad_group',
        budgetType,
        bidStrategy: ctx.live && own ? (p.bid_strategy ?? null) : null,
        objective: p.objective ?? null,
        adsetBudgetSharing: ctx.live ? (p.is_adset_budget_sharing_enabled ?? null) : null,
      };
    }
    case 'ad_group': {
      const campaignId = str(p.campaign_id);
      const own = hasBudget(p);
      const { budget, budgetType } = own ? budgetOf(p, currency) : { budget: null, budgetType: null };
      // The strategy in force: the ad set's own when it carries the budget, else the campaign's.
      const parent = campaignId ? ctx.lookup('campaign', campaignId) : undefined;
      const strategy = textOf(own ? p.bid_strategy : parent?.bid_strategy);
      const floor = isPayload(p.bid_constraints) ? numberOf(p.bid_constraints.roas_average_floor) : undefined;
      return {
        ...baseRow(ctx, { id, name, path: joinPath(campaignId, id), type: 'adset', status, ...times }),
        budget,
        budgetLevel: own ? 'ad_group' : 'campaign',
        budgetType,
        bidStrategy: own ? (strategy ?? null) : null,
        campaignId,
        bidAmount:
          ctx.live && strategy && STRATEGIES_WITH_AMOUNT.has(strategy) && p.bid_amount !== undefined ? minorToWhole(amountOf(p.bid_amount), currency) : null,
        roasFloor: ctx.live && strategy === 'LOWEST_COST_WITH_MIN_ROAS' && floor !== undefined ? floor / 10_000 : null,
        startTime: ctx.live ? (p.start_time ?? null) : null,
        endTime: ctx.live ? (p.end_time ?? null) : null,
      };
    }
    case 'ad': {
      const campaignId = str(p.campaign_id);
      const adGroupId = str(p.adset_id);
      return {
        ...baseRow(ctx, { id, name, path: joinPath(campaignId, adGroupId, id), type: 'ad', status, ...times }),
        campaignId,
        adGroupId,
        creativeId: isPayload(p.creative) ? (str(p.creative.id) ?? null) : null,
      };
    }
    case 'creative':
      return {
        ...baseRow(ctx, { id, name, path: id, type: 'creative', status, createdTime: null, updatedTime: null }),
        title: p.title ?? null,
        body: p.body ?? null,
        imageUrl: p.image_url ?? null,
        callToAction: p.call_to_action_type ?? null,
      };
    default:
      throw new Error(`provider_a has no ${kind}`);
  }
}

function applyChange(target: Payload, change: ProviderChange, ctx: ChangeContext) {
  const next: Payload = { ...target };
  const currency = ctx.advertiser.currency;
  if (change.status !== undefined) next.status = change.status;
  if (change.name !== undefined) next.name = change.name;
  if (change.budget !== undefined) {
    if (!hasBudget(target)) {
      return refusal(
        422,
        'budget_not_on_entity',
        change.entityType === 'campaign'
          ? 'This campaign carries no budget: its ad sets do. Change the budget on each ad set.'
          : "This ad set carries no budget: its campaign does. Change the campaign's budget.",
      );
    }
    const check = checkWholeAmount(change.budget.amount, currency);
    if (!check.ok) return refusal(422, 'invalid_amount', check.reason);
    const type = change.budget.type ?? (target.daily_budget !== undefined ? 'daily' : 'lifetime');
    delete next.daily_budget;
    delete next.lifetime_budget;
    next[type === 'daily' ? 'daily_budget' : 'lifetime_budget'] = String(wholeToMinor(change.budget.amount, currency!));
  }
  if (change.bidStrategy !== undefined) {
    if (!isOneOf(PROVIDER_A_BID_STRATEGIES, change.bidStrategy)) {
      return refusal(422, 'invalid_bid_strategy', `provider_a takes one of ${PROVIDER_A_BID_STRATEGIES.join(', ')}.`);
    }
    if (!hasBudget(target)) return refusal(422, 'invalid_bid_strategy', 'The bid strategy sits where the budget sits; this entity carries no budget.');
    next.bid_strategy = change.bidStrategy;
  }
  if (change.bidAmount !== undefined) {
    if (change.entityType !== 'ad_group') return refusal(422, 'invalid_bid_amount', 'A bid amount is set on an ad set, not a campaign.');
    const check = checkWholeAmount(change.bidAmount, currency);
    if (!check.ok) return refusal(422, 'invalid_amount', check.reason);
    next.bid_amount = String(wholeToMinor(change.bidAmount, currency!));
  }
  if (!isBudgetOnly(change)) next.updated_time = formatTimeA(ctx.now);
  return { ok: true as const, writes: [{ kind: change.entityType, id: String(target.id), payload: next }] };
}

export const providerA: ProviderAdapter = {
  provider: 'provider_a',
  kinds: ['campaign', 'ad_group', 'ad', 'creative'],
  liveStatuses: [],
  paging: 'token',
  fixture: { campaign, ad_group: adSet, ad, creative },
  idOf: (_kind, p) => String(p.id),
  parentsOf: (kind, p) => ({
    campaignId: kind === 'campaign' || kind === 'creative' ? null : str(p.campaign_id),
    adGroupId: kind === 'ad' ? str(p.adset_id) : null,
  }),
  editTimeOf: (p) => parseTimeA(p.updated_time),
  statusOf: (_kind, p) => statusOf(p),
  normalize,
  singlePayload: (kind, p, ctx) => convertMoney(pick(p, REQUESTED[kind]), ctx.advertiser.currency),
  platformError: (kind) =>
    kind === 'throttled'
      ? {
          message: 'User request limit reached',
          type: 'OAuthException',
          code: 17,
          error_subcode: 2446079,
          is_transient: true,
          error_user_title: 'Too many calls',
          error_user_msg: 'There have been too many calls to this ad account. Wait a bit and try again.',
          fbtrace_id: 'AsandboxThrottle000001',
        }
      : {
          message: 'Service temporarily unavailable',
          type: 'OAuthException',
          code: 2,
          error_subcode: 1504044,
          is_transient: true,
          error_user_title: 'Temporary issue',
          error_user_msg: 'A temporary issue occurred. Try again later.',
          fbtrace_id: 'AsandboxError0000001',
        },
  applyChange,
};
