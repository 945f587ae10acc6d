// provider_b: the short-video ad platform. Keys are prefixed by the object
// (campaign_id, adgroup_name …); money is in whole units; `operation_status`
// says ENABLE or DISABLE (DELETE and ARCHIVE are our design: the platform
// shows removed objects only through a status filter); times read
// "2026-08-01 10:00:00" (UTC). A campaign with budget_optimize_on carries the
// budget for its ad groups; without the key the payload does not say.
import { z } from 'zod';
import type { EntityStatus } from '../../contract/ids.js';
import { checkWholeAmount, wholeToWhole } from './units.js';
import {
  amountOf,
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
  type StoredKind,
} from './types.js';

export const PROVIDER_B_STATUS_WORDS = { ACTIVE: 'ENABLE', PAUSED: 'DISABLE', DELETED: 'DELETE', ARCHIVED: 'ARCHIVE' } as const;
const WORD_TO_STATUS: Record<string, EntityStatus> = { ENABLE: 'ACTIVE', DISABLE: 'PAUSED', DELETE: 'DELETED', ARCHIVE: 'ARCHIVED' };
const BUDGET_MODES = ['BUDGET_MODE_DAY', 'BUDGET_MODE_TOTAL', 'BUDGET_MODE_INFINITE'] as const;

export function formatTimeB(ms: number): string {
  return new Date(ms).toISOString().slice(0, 19).replace('T', ' ');
}
export function parseTimeB(v: unknown): number | null {
  if (typeof v !== 'string' || !/^\d{4}-\d{2}-\d{2} \d{2}:\d{2}:\d{2}$/.test(v)) return null;
  const ms = Date.parse(`${v.replace(' ', 'T')}Z`);
  return Number.isNaN(ms) ? null : ms;
}

const idB = z.string().regex(/^\d{1,30}$/, { message: 'must be a provider_b id (digits)' });
const timeB = z.string().refine((s) => parseTimeB(s) !== null, { message: 'must be a time like 2026-08-01 10:00:00' });
const whole = z.number().nonnegative().describe('Whole units of the account currency.');
const status = z.enum(['ENABLE', 'DISABLE', 'DELETE', 'ARCHIVE']).default('ENABLE');

const campaign = z.looseObject({
  campaign_id: idB,
  campaign_name: z.string().min(1),
  objective_type: z.string().min(1).default('TRAFFIC'),
  budget_mode: z.enum(BUDGET_MODES).default('BUDGET_MODE_INFINITE'),
  budget: whole.default(0),
  budget_optimize_on: z.boolean().optional().describe('true: the campaign carries the budget; absent: the payload does not say.'),
  operation_status: status,
  create_time: timeB,
  modify_time: timeB,
});
const adGroup = z.looseObject({
  adgroup_id: idB,
  campaign_id: idB,
  adgroup_name: z.string().min(1),
  operation_status: status,
  budget_mode: z.enum(BUDGET_MODES).default('BUDGET_MODE_INFINITE'),
  budget: whole.default(0),
  bid_type: z.string().default('BID_TYPE_NO_BID'),
  bid_price: whole.optional(),
  optimization_goal: z.string().default('CLICK'),
  schedule_start_time: timeB.optional(),
  schedule_end_time: timeB.optional(),
  create_time: timeB,
  modify_time: timeB,
});
const ad = z.looseObject({
  ad_id: idB,
  adgroup_id: idB,
  campaign_id: idB,
  ad_name: z.string().min(1),
  operation_status: status,
  ad_format: z.string().default('SINGLE_VIDEO'),
  ad_text: z.string().optional(),
  video_id: z.string().optional(),
  create_time: timeB,
  modify_time: timeB,
});

const ID_KEY: Partial<Record<StoredKind, string>> = { campaign: 'campaign_id', ad_group: 'adgroup_id', ad: 'ad_id' };
const NAME_KEY: Partial<Record<StoredKind, string>> = { campaign: 'campaign_name', ad_group: 'adgroup_name', ad: 'ad_name' };

function ownBudget(p: Payload): boolean {
  return p.budget_mode === 'BUDGET_MODE_DAY' || p.budget_mode === 'BUDGET_MODE_TOTAL';
}
const budgetType = (p: Payload) => (p.budget_mode === 'BUDGET_MODE_DAY' ? 'daily' : 'lifetime');

/** Whether a campaign carries the budget: true/false when the payload says, null when it does not. */
function campaignCarriesBudget(p: Payload | undefined): boolean | null {
  return typeof p?.budget_optimize_on === 'boolean' ? p.budget_optimize_on : null;
}

const REQUESTED: Record<EntityKind, readonly string[]> = {
  campaign: ['campaign_id', 'campaign_name', 'objective_type', 'budget_mode', 'budget', 'budget_optimize_on', 'operation_status', 'create_time', 'modify_time'],
  ad_group: [
    'adgroup_id',
    'campaign_id',
    'adgroup_name',
    'operation_status',
    'budget_mode',
    'budget',
    'bid_type',
    'bid_price',
    'optimization_goal',
    'schedule_start_time',
    'schedule_end_time',
    'create_time',
    'modify_time',
  ],
  ad: ['ad_id', 'adgroup_id', 'campaign_id', 'ad_name', 'operation_status', 'ad_format', 'ad_text', 'video_id', 'create_time', 'modify_time'],
  creative: [],
  asset_group: [],
};

function normalize(kind: EntityKind, p: Payload, ctx: NormalizeContext): Payload {
  const currency = ctx.advertiser.currency;
  const id = String(p[ID_KEY[kind]!]);
  const name = String(p[NAME_KEY[kind]!]);
  const times = { createdTime: parseTimeB(p.create_time), updatedTime: parseTimeB(p.modify_time) };
  const status = WORD_TO_STATUS[String(p.operation_status)] ?? 'PAUSED';
  if (kind === 'campaign') {
    const carries = campaignCarriesBudget(p);
    const own = carries === true && ownBudget(p);
    return {
      ...baseRow(ctx, { id, name, path: id, type: 'campaign', status, ...times }),
      budget: own ? wholeToWhole(amountOf(p.budget), currency) : null,
      budgetLevel: carries === null ? null : carries ? 'campaign' : 'ad_group',
      budgetType: own ? budgetType(p) : null,
      bidStrategy: null,
      objective: p.objective_type ?? null,
      adsetBudgetSharing: null,
    };
  }
  const campaignId = str(p.campaign_id);
  if (kind === 'ad_group') {
    const parent = campaignId ? ctx.lookup('campaign', campaignId) : undefined;
    const own = campaignCarriesBudget(parent) !== true && ownBudget(p);
    return {
      ...baseRow(ctx, { id, name, path: joinPath(campaignId, id), type: 'adgroup', status, ...times }),
      budget: own ? wholeToWhole(amountOf(p.budget), currency) : null,
      budgetLevel: own ? 'ad_group' : 'campaign',
      budgetType: own ? budgetType(p) : null,
      bidStrategy: own ? (p.bid_type ?? null) : null,
      campaignId,
      bidAmount: null,
      roasFloor: null,
      startTime: null,
      endTime: null,
    };
  }
  if (kind === 'ad') {
    const adGroupId = str(p.adgroup_id);
    return {
      ...baseRow(ctx, { id, name, path: joinPath(campaignId, adGroupId, id), type: 'ad', status, ...times }),
      campaignId,
      adGroupId,
      creativeId: null,
    };
  }
  throw new Error(`provider_b has no ${kind}`);
}

function applyChange(target: Payload, change: ProviderChange, ctx: ChangeContext) {
  const next: Payload = { ...target };
  if (change.bidStrategy !== undefined || change.bidAmount !== undefined) {
    return refusal(422, 'unsupported_change', 'provider_b takes no bid strategy or bid amount through the service.');
  }
  if (change.status !== undefined) next.operation_status = PROVIDER_B_STATUS_WORDS[change.status];
  if (change.name !== undefined) next[NAME_KEY[change.entityType]!] = change.name;
  if (change.budget !== undefined) {
    const carries =
      change.entityType === 'campaign'
        ? campaignCarriesBudget(target) === true
        : campaignCarriesBudget(ctx.lookup('campaign', String(target.campaign_id))) !== true;
    if (!carries || !ownBudget(target)) {
      return refusal(
        422,
        'budget_not_on_entity',
        change.entityType === 'campaign'
          ? 'This campaign carries no budget: its ad groups do (or it has none).'
          : 'This ad group carries no budget: its campaign does (or it has none).',
      );
    }
    const check = checkWholeAmount(change.budget.amount, ctx.advertiser.currency);
    if (!check.ok) return refusal(422, 'invalid_amount', check.reason);
    next.budget = change.budget.amount;
    if (change.budget.type) next.budget_mode = change.budget.type === 'daily' ? 'BUDGET_MODE_DAY' : 'BUDGET_MODE_TOTAL';
  }
  if (!isBudgetOnly(change)) next.modify_time = formatTimeB(ctx.now);
  return { ok: true as const, writes: [{ kind: change.entityType, id: String(target[ID_KEY[change.entityType]!]), payload: next }] };
}

export const providerB: ProviderAdapter = {
  provider: 'provider_b',
  kinds: ['campaign', 'ad_group', 'ad'],
  liveStatuses: ['DELETED', 'ARCHIVED'],
  paging: 'page',
  fixture: { campaign, ad_group: adGroup, ad },
  idOf: (kind, p) => String(p[ID_KEY[kind] ?? 'id']),
  parentsOf: (kind, p) => ({
    campaignId: kind === 'campaign' ? null : str(p.campaign_id),
    adGroupId: kind === 'ad' ? str(p.adgroup_id) : null,
  }),
  editTimeOf: (p) => parseTimeB(p.modify_time),
  statusOf: (_kind, p) => WORD_TO_STATUS[String(p.operation_status)] ?? 'PAUSED',
  normalize,
  singlePayload: (kind, p) => pick(p, REQUESTED[kind]),
  platformError: (kind) =>
    kind === 'throttled'
      ? { code: 51021, message: 'Too many requests. Please retry in some time.', request_id: '2026sandboxthrottle0001' }
      : { code: 50000, message: 'System error. Please retry later.', request_id: '2026sandboxerror00001' },
  applyChange,
};
