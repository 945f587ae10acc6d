// provider_c: the search ad platform. camelCase keys; money in micros (one
// whole unit = 1,000,000); statuses ENABLED / PAUSED / REMOVED (it has no
// archived state); no creation or edit times on its objects. A campaign's
// budget is inline (budgetAmountMicros / budgetTotalAmountMicros) or a shared
// budget (`campaignBudget` naming an entry of `sharedBudgets`) that several
// campaigns draw on: each answers the whole shared amount (budget rule 4).
// Ad groups never carry a budget. PERFORMANCE_MAX campaigns are automated:
// asset groups, no ad groups, no ads. Ads are ad_group_ad links `{adGroupId}~{adId}`.
import { z } from 'zod';
import type { EntityStatus } from '../../contract/ids.js';
import { checkWholeAmount, microsToWhole, wholeToMicros } from './units.js';
import {
  baseRow,
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
  type StoredKind,
} from './types.js';

export const PROVIDER_C_STATUS_WORDS: Record<EntityStatus, string | null> = { ACTIVE: 'ENABLED', PAUSED: 'PAUSED', DELETED: 'REMOVED', ARCHIVED: null };
const WORD_TO_STATUS: Record<string, EntityStatus> = { ENABLED: 'ACTIVE', PAUSED: 'PAUSED', REMOVED: 'DELETED' };
/** Campaign types that use asset groups instead of ad groups and ads. */
export const AUTOMATED_CAMPAIGN_TYPES = new Set(['PERFORMANCE_MAX']);

const idC = z.string().regex(/^\d{1,30}$/, { message: 'must be a provider_c id (digits)' });
const micros = z.number().int().nonnegative().describe('Micros of the account currency (1,000,000 = one whole unit).');
const status = z.enum(['ENABLED', 'PAUSED', 'REMOVED']).default('ENABLED');

const campaign = z.looseObject({
  id: idC,
  name: z.string().min(1),
  status,
  advertisingChannelType: z.enum(['SEARCH', 'DISPLAY', 'SHOPPING', 'VIDEO', 'PERFORMANCE_MAX']).default('SEARCH'),
  budgetAmountMicros: micros.optional().describe('Daily budget of this campaign alone.'),
  budgetTotalAmountMicros: micros.optional().describe('Lifetime budget of this campaign alone.'),
  campaignBudget: idC.optional().describe('id of an entry of sharedBudgets; wins over the inline amounts.'),
});
const sharedBudget = z.looseObject({
  id: idC,
  name: z.string().min(1),
  amountMicros: micros.optional(),
  totalAmountMicros: micros.optional(),
  explicitlyShared: z.boolean().default(true),
});
const adGroup = z.looseObject({
  id: idC,
  campaignId: idC,
  name: z.string().min(1),
  status,
  type: z.string().default('SEARCH_STANDARD'),
  cpcBidMicros: micros.optional(),
});
const adGroupAd = z.looseObject({
  adGroupId: idC,
  status,
  ad: z.looseObject({ id: idC, name: z.string().optional(), type: z.string().default('RESPONSIVE_SEARCH_AD'), finalUrls: z.array(z.string()).default([]) }),
});
const assetGroup = z.looseObject({
  id: idC,
  campaignId: idC,
  name: z.string().min(1),
  status,
  finalUrls: z.array(z.string()).default([]),
});

/** The budget amounts a campaign draws on (its shared budget's, or its own). */
function budgetAmounts(p: Payload, lookup: NormalizeContext['lookup']): { daily: number | undefined; total: number | undefined } {
  if (typeof p.campaignBudget === 'string') {
    const shared = lookup('shared_budget', p.campaignBudget);
    return { daily: numberOf(shared?.amountMicros), total: numberOf(shared?.totalAmountMicros) };
  }
  return { daily: numberOf(p.budgetAmountMicros), total: numberOf(p.budgetTotalAmountMicros) };
}

/** An ad_group_ad link's ad (its schema requires one). */
const adOf = (p: Payload): Payload => (isPayload(p.ad) ? p.ad : {});
const statusOf = (p: Payload): EntityStatus => WORD_TO_STATUS[String(p.status)] ?? 'PAUSED';
const idOf = (kind: StoredKind, p: Payload): string => (kind === 'ad' ? `${String(p.adGroupId)}~${String(adOf(p).id)}` : String(p.id));

function normalize(kind: EntityKind, p: Payload, ctx: NormalizeContext): Payload {
  const currency = ctx.advertiser.currency;
  const id = idOf(kind, p);
  const times = { createdTime: null, updatedTime: null };
  const status = statusOf(p);
  switch (kind) {
    case 'campaign': {
      const { daily, total } = budgetAmounts(p, ctx.lookup);
      const amount = daily ?? total;
      return {
        ...baseRow(ctx, { id, name: String(p.name), path: id, type: 'campaign', status, ...times }),
        budget: amount === undefined ? null : microsToWhole(amount, currency),
        budgetLevel: 'campaign',
        budgetType: daily !== undefined ? 'daily' : total !== undefined ? 'lifetime' : null,
        bidStrategy: null,
        objective: null,
        adsetBudgetSharing: null,
      };
    }
    case 'ad_group': {
      const campaignId = str(p.campaignId);
      return {
        ...baseRow(ctx, { id, name: String(p.name), path: joinPath(campaignId, id), type: 'ad_group', status, ...times }),
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
    case 'ad': {
      const adGroupId = str(p.adGroupId);
      const campaignId = adGroupId ? str(ctx.lookup('ad_group', adGroupId)?.campaignId) : null;
      const ad = adOf(p);
      return {
        ...baseRow(ctx, { id, name: textOf(ad.name) ?? String(ad.id), path: joinPath(campaignId, adGroupId, id), type: 'ad_group_ad', status, ...times }),
        campaignId,
        adGroupId,
        creativeId: null,
      };
    }
    case 'asset_group': {
      const campaignId = str(p.campaignId);
      return {
        ...baseRow(ctx, { id, name: String(p.name), path: joinPath(campaignId, id), type: 'asset_group', status, ...times }),
        campaignId,
        finalUrls: p.finalUrls ?? [],
      };
    }
    default:
      throw new Error(`provider_c has no ${kind}`);
  }
}

function singlePayload(kind: EntityKind, p: Payload, ctx: NormalizeContext): Payload {
  if (kind === 'campaign') {
    const { daily, total } = budgetAmounts(p, ctx.lookup);
    return pick({ ...p, budgetAmountMicros: daily, budgetTotalAmountMicros: total }, [
      'id',
      'name',
      'status',
      'advertisingChannelType',
      'budgetAmountMicros',
      'budgetTotalAmountMicros',
    ]);
  }
  if (kind === 'ad') return { ...pick(p, ['adGroupId', 'status', 'ad']), resourceId: idOf('ad', p) };
  if (kind === 'ad_group') return pick(p, ['id', 'campaignId', 'name', 'status', 'type', 'cpcBidMicros']);
  return pick(p, ['id', 'campaignId', 'name', 'status', 'finalUrls']);
}

function applyChange(target: Payload, change: ProviderChange, ctx: ChangeContext) {
  if (change.bidStrategy !== undefined || change.bidAmount !== undefined) {
    return refusal(422, 'unsupported_change', 'provider_c takes no bid strategy or bid amount through the service.');
  }
  const next: Payload = { ...target };
  const writes: Array<{ kind: StoredKind; id: string; payload: Payload }> = [];
  if (change.status !== undefined) {
    const word = PROVIDER_C_STATUS_WORDS[change.status];
    if (word === null) return refusal(422, 'unsupported_status', 'provider_c has no archived state; pause or remove instead.');
    next.status = word;
  }
  if (change.name !== undefined) next.name = change.name;
  if (change.budget !== undefined) {
    if (change.entityType !== 'campaign') return refusal(422, 'budget_not_on_entity', "provider_c ad groups carry no budget: their campaign's budget applies.");
    const check = checkWholeAmount(change.budget.amount, ctx.advertiser.currency);
    if (!check.ok) return refusal(422, 'invalid_amount', check.reason);
    const amount = wholeToMicros(change.budget.amount);
    const shared = typeof target.campaignBudget === 'string' ? ctx.lookup('shared_budget', target.campaignBudget) : undefined;
    const holder: Payload = shared ? { ...shared } : next;
    const [dailyKey, totalKey] = shared ? ['amountMicros', 'totalAmountMicros'] : ['budgetAmountMicros', 'budgetTotalAmountMicros'];
    const type = change.budget.type ?? (holder[totalKey] !== undefined && holder[dailyKey] === undefined ? 'lifetime' : 'daily');
    delete holder[dailyKey];
    delete holder[totalKey];
    holder[type === 'daily' ? dailyKey : totalKey] = amount;
    // Changing a shared budget changes it for every campaign that draws on it, as at the platform.
    if (shared) writes.push({ kind: 'shared_budget', id: String(shared.id), payload: holder });
  }
  writes.unshift({ kind: change.entityType, id: String(target.id), payload: next });
  return { ok: true as const, writes };
}

export const providerC: ProviderAdapter = {
  provider: 'provider_c',
  kinds: ['campaign', 'ad_group', 'ad', 'asset_group'],
  liveStatuses: ['ACTIVE', 'PAUSED', 'DELETED', 'ARCHIVED'],
  paging: 'token',
  fixture: { campaign, shared_budget: sharedBudget, ad_group: adGroup, ad: adGroupAd, asset_group: assetGroup },
  idOf,
  parentsOf: (kind, p, lookup) => {
    if (kind === 'ad') {
      const adGroupId = str(p.adGroupId);
      return { campaignId: adGroupId ? str(lookup('ad_group', adGroupId)?.campaignId) : null, adGroupId };
    }
    return { campaignId: kind === 'campaign' ? null : str(p.campaignId), adGroupId: null };
  },
  editTimeOf: () => null,
  statusOf: (_kind, p) => statusOf(p),
  normalize,
  singlePayload,
  platformError: (kind) =>
    kind === 'throttled'
      ? {
          code: 429,
          status: 'RESOURCE_EXHAUSTED',
          message: 'Too many requests.',
          details: [{ errors: [{ errorCode: { quotaError: 'RESOURCE_TEMPORARILY_EXHAUSTED' }, message: 'Too many requests. Retry in 30 seconds.' }] }],
        }
      : {
          code: 500,
          status: 'INTERNAL',
          message: 'Internal error encountered.',
          details: [{ errors: [{ errorCode: { internalError: 'INTERNAL_ERROR' }, message: 'An internal error has occurred.' }] }],
        },
  applyChange,
};
