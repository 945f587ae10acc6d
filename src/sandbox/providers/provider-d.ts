// provider_d: the AI-platform ad product (ads shown beside an assistant's
// answers). The spec shows none of its payload; this shape is our design
// (docs/decisions.md): snake_case keys, lowercase `state` words, money
// as decimal strings in whole units ("50.00"), ISO 8601 UTC times. The budget
// lives on the campaign only; ad groups (topic groups) never carry one.
import { z } from 'zod';
import type { EntityStatus } from '../../contract/ids.js';
import { checkWholeAmount, wholeToDecimalString, wholeToWhole } from './units.js';
import {
  baseRow,
  isBudgetOnly,
  joinPath,
  pick,
  refusal,
  str,
  type ChangeContext,
  type EntityKind,
  type NormalizeContext,
  type Payload,
  type ProviderAdapter,
  type ProviderChange,
} from './types.js';

export const PROVIDER_D_STATUS_WORDS = { ACTIVE: 'active', PAUSED: 'paused', DELETED: 'deleted', ARCHIVED: 'archived' } as const;
const WORD_TO_STATUS: Record<string, EntityStatus> = { active: 'ACTIVE', paused: 'PAUSED', deleted: 'DELETED', archived: 'ARCHIVED' };

const idD = z.string().regex(/^[a-z0-9][a-z0-9_-]{0,63}$/, { message: 'must be a provider_d id (lowercase letters, digits, _ and -)' });
const isoTime = z.string().refine((s) => /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}(\.\d+)?Z$/.test(s) && !Number.isNaN(Date.parse(s)), {
  message: 'must be an ISO 8601 UTC time like 2026-08-01T10:00:00Z',
});
const state = z.enum(['active', 'paused', 'deleted', 'archived']).default('active');
const decimal = z.string().regex(/^\d{1,15}(\.\d{1,3})?$/, { message: 'must be a decimal string in whole units, e.g. "50.00"' });

const budgetSchema = z.strictObject({ amount: decimal, period: z.enum(['daily', 'lifetime']) });
type BudgetD = z.output<typeof budgetSchema>;
/** A campaign's budget object, or null when it has none. */
function budgetOf(v: unknown): BudgetD | null {
  const r = budgetSchema.safeParse(v);
  return r.success ? r.data : null;
}

const campaign = z.looseObject({
  id: idD,
  name: z.string().min(1),
  state,
  goal: z.string().min(1).default('conversations'),
  budget: budgetSchema.nullable().default(null),
  created_at: isoTime,
  updated_at: isoTime,
});
const adGroup = z.looseObject({
  id: idD,
  campaign_id: idD,
  name: z.string().min(1),
  state,
  topics: z.array(z.string()).default([]),
  created_at: isoTime,
  updated_at: isoTime,
});
const ad = z.looseObject({
  id: idD,
  ad_group_id: idD,
  campaign_id: idD,
  name: z.string().min(1),
  state,
  headline: z.string().optional(),
  body: z.string().optional(),
  destination_url: z.string().optional(),
  created_at: isoTime,
  updated_at: isoTime,
});

const parseTime = (v: unknown): number | null => (typeof v === 'string' && !Number.isNaN(Date.parse(v)) ? Date.parse(v) : null);
const formatTime = (ms: number): string => new Date(ms).toISOString().replace(/\.\d{3}Z$/, 'Z');
const statusOf = (p: Payload): EntityStatus => WORD_TO_STATUS[String(p.state)] ?? 'PAUSED';

function normalize(kind: EntityKind, p: Payload, ctx: NormalizeContext): Payload {
  const id = String(p.id);
  const name = String(p.name);
  const times = { createdTime: parseTime(p.created_at), updatedTime: parseTime(p.updated_at) };
  const status = statusOf(p);
  if (kind === 'campaign') {
    const budget = budgetOf(p.budget);
    return {
      ...baseRow(ctx, { id, name, path: id, type: 'campaign', status, ...times }),
      budget: budget ? wholeToWhole(budget.amount, ctx.advertiser.currency) : null,
      budgetLevel: 'campaign',
      budgetType: budget ? budget.period : null,
      bidStrategy: null,
      objective: p.goal ?? null,
      adsetBudgetSharing: null,
    };
  }
  const campaignId = str(p.campaign_id);
  if (kind === 'ad_group') {
    return {
      ...baseRow(ctx, { id, name, path: joinPath(campaignId, id), type: 'ad_group', status, ...times }),
      budget: null,
      budgetLevel: 'campaign',
      budgetType: null,
      bidStrategy: null,
      campaignId,
      bidAmount: null,
      roasFloor: null,
      startTime: null,
      endTime: null,
    };
  }
  if (kind === 'ad') {
    const adGroupId = str(p.ad_group_id);
    return {
      ...baseRow(ctx, { id, name, path: joinPath(campaignId, adGroupId, id), type: 'ad', status, ...times }),
      campaignId,
      adGroupId,
      creativeId: null,
    };
  }
  throw new Error(`provider_d has no ${kind}`);
}

const REQUESTED: Record<EntityKind, readonly string[]> = {
  campaign: ['id', 'name', 'state', 'goal', 'budget', 'created_at', 'updated_at'],
  ad_group: ['id', 'campaign_id', 'name', 'state', 'topics', 'created_at', 'updated_at'],
  ad: ['id', 'ad_group_id', 'campaign_id', 'name', 'state', 'headline', 'body', 'destination_url', 'created_at', 'updated_at'],
  creative: [],
  asset_group: [],
};

function applyChange(target: Payload, change: ProviderChange, ctx: ChangeContext) {
  if (change.bidStrategy !== undefined || change.bidAmount !== undefined) {
    return refusal(422, 'unsupported_change', 'provider_d bids automatically; it takes no bid strategy or bid amount.');
  }
  const next: Payload = { ...target };
  if (change.status !== undefined) next.state = PROVIDER_D_STATUS_WORDS[change.status];
  if (change.name !== undefined) next.name = change.name;
  if (change.budget !== undefined) {
    const current = budgetOf(target.budget);
    if (change.entityType !== 'campaign' || !current) {
      return refusal(
        422,
        'budget_not_on_entity',
        change.entityType === 'campaign' ? 'This campaign has no budget to change.' : "provider_d ad groups carry no budget: their campaign's budget applies.",
      );
    }
    const check = checkWholeAmount(change.budget.amount, ctx.advertiser.currency);
    if (!check.ok) return refusal(422, 'invalid_amount', check.reason);
    next.budget = { amount: wholeToDecimalString(change.budget.amount, ctx.advertiser.currency!), period: change.budget.type ?? current.period };
  }
  if (!isBudgetOnly(change)) next.updated_at = formatTime(ctx.now);
  return { ok: true as const, writes: [{ kind: change.entityType, id: String(target.id), payload: next }] };
}

export const providerD: ProviderAdapter = {
  provider: 'provider_d',
  kinds: ['campaign', 'ad_group', 'ad'],
  liveStatuses: ['DELETED'],
  paging: 'token',
  fixture: { campaign, ad_group: adGroup, ad },
  idOf: (_kind, p) => String(p.id),
  parentsOf: (kind, p) => ({
    campaignId: kind === 'campaign' ? null : str(p.campaign_id),
    adGroupId: kind === 'ad' ? str(p.ad_group_id) : null,
  }),
  editTimeOf: (p) => parseTime(p.updated_at),
  statusOf: (_kind, p) => statusOf(p),
  normalize,
  singlePayload: (kind, p) => pick(p, REQUESTED[kind]),
  platformError: (kind) =>
    kind === 'throttled'
      ? { type: 'rate_limit_error', code: 'rate_limit_exceeded', message: 'Rate limit reached for this ad account. Retry after a short wait.' }
      : { type: 'api_error', code: 'server_error', message: 'The server had an error while processing the request.' },
  applyChange,
};

export const providerDTime = { format: formatTime, parse: parseTime };
