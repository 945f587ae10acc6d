// zod shapes of Observe: normalized rows (strict: no other keys allowed, spec
// "Common fields of a normalized Observe row"), the queries of stored and live
// reads, and Insights (whose fields the spec leaves open; see
// docs/decisions.md). Plain zod so the client validates answers with
// the same schemas the sandbox documents.
import { z } from 'zod';
import { AD_GROUP_TYPES, ENTITY_PROVIDERS } from '../ids.js';
import { advertiserIdSchema, entityStatusSchema, idsQuery, pageQueryShape, pageSchema, providerFilterSchema } from './common.js';

const time = z.number().describe('Epoch milliseconds.');
const nullableTime = time.nullable();

/**
 * Rows carry the advertiser's provider. Stored rows only ever carry provider_a,
 * provider_b or provider_c (ingestion does not cover provider_d); a live read of
 * a provider_d advertiser answers rows tagged provider_d (docs/decisions.md).
 */
const rowProvider = z.enum(ENTITY_PROVIDERS);

/** Fields every normalized row of a provider entity carries (`type` is narrowed per entity below, where the spec closes it). */
const entityRowShape = {
  advertiserId: advertiserIdSchema.meta({ description: 'Owning advertiser, prefixed acc_.' }),
  id: z.string().describe("Provider's id, no prefix."),
  name: z.string(),
  path: z.string().describe("Ancestor ids and this entity's id joined by '/', oldest first."),
  provider: rowProvider,
  type: z.string().describe("Provider's own type word."),
  status: entityStatusSchema,
  currency: z.string().nullable().describe('Account currency, ISO 4217; null when not yet known.'),
  createdAt: nullableTime.describe('When the service first stored the row; null on a live row.'),
  updatedAt: nullableTime.describe('When the service last rewrote the row; null if never changed, and on a live row.'),
  deletedAt: nullableTime.describe('Always null in a listing, and on a live row.'),
  createdTime: nullableTime.describe("Provider's creation time."),
  updatedTime: nullableTime.describe("Provider's last-edit time."),
};

/** Campaign and ad group: the budget fields of the spec's common table. */
const budgetRowShape = {
  budget: z.number().nullable().describe('Budget the entity carries itself, whole units of currency.'),
  budgetLevel: z.enum(['campaign', 'ad_group']).nullable(),
  budgetType: z.enum(['daily', 'lifetime']).nullable(),
  bidStrategy: z.string().nullable(),
};

export const campaignRowSchema = z
  .strictObject({
    ...entityRowShape,
    type: z.literal('campaign').describe("Provider's own type word: `campaign` at every provider."),
    ...budgetRowShape,
    objective: z.string().nullable().describe('Null on every provider_c campaign.'),
    adsetBudgetSharing: z.boolean().nullable().describe('provider_a live rows only.'),
  })
  .meta({ id: 'CampaignRow' });
export type CampaignRow = z.infer<typeof campaignRowSchema>;

export const adGroupRowSchema = z
  .strictObject({
    ...entityRowShape,
    type: z.enum(AD_GROUP_TYPES).describe("Provider's own type word: `adset`, `adgroup` or `ad_group`."),
    ...budgetRowShape,
    campaignId: z.string().nullable(),
    bidAmount: z.number().nullable().describe('provider_a live rows only.'),
    roasFloor: z.number().nullable().describe('provider_a live rows with LOWEST_COST_WITH_MIN_ROAS only.'),
    startTime: z.string().nullable().describe("ISO 8601 in the provider's format; provider_a live rows only."),
    endTime: z.string().nullable(),
  })
  .meta({ id: 'AdGroupRow' });
export type AdGroupRow = z.infer<typeof adGroupRowSchema>;

export const adRowSchema = z
  .strictObject({
    ...entityRowShape,
    campaignId: z.string().nullable(),
    adGroupId: z.string().nullable(),
    creativeId: z.string().nullable().describe('provider_a: the Creative the ad shows; null elsewhere.'),
  })
  .meta({ id: 'AdRow' });
export type AdRow = z.infer<typeof adRowSchema>;

export const creativeRowSchema = z
  .strictObject({
    ...entityRowShape,
    title: z.string().nullable(),
    body: z.string().nullable(),
    imageUrl: z.string().nullable(),
    callToAction: z.string().nullable(),
  })
  .meta({ id: 'CreativeRow' });
export type CreativeRow = z.infer<typeof creativeRowSchema>;

export const assetGroupRowSchema = z
  .strictObject({
    ...entityRowShape,
    campaignId: z.string().nullable(),
    finalUrls: z.array(z.string()),
  })
  .meta({ id: 'AssetGroupRow' });
export type AssetGroupRow = z.infer<typeof assetGroupRowSchema>;

export type ObserveRow = CampaignRow | AdGroupRow | AdRow | CreativeRow | AssetGroupRow;

// ---- Queries ------------------------------------------------------------

const campaignFilter = z.string().min(1).optional().describe("Bare provider id of a campaign: only that campaign's children.");
const adGroupFilter = z.string().min(1).optional().describe("Bare provider id of an ad group: only that ad group's ads.");

/** Stored reads: every list takes these. */
const storedQueryShape = {
  ids: idsQuery,
  ...pageQueryShape,
  advertiserId: advertiserIdSchema.optional(),
  provider: providerFilterSchema.optional(),
  status: entityStatusSchema.optional(),
};

export const storedCampaignsQuerySchema = z.object(storedQueryShape);
export const storedAdGroupsQuerySchema = z.object({ ...storedQueryShape, campaignId: campaignFilter });
export const storedAdsQuerySchema = z.object({ ...storedQueryShape, campaignId: campaignFilter, adGroupId: adGroupFilter });
export const storedCreativesQuerySchema = z.object(storedQueryShape);
export const storedAssetGroupsQuerySchema = z.object({ ...storedQueryShape, campaignId: campaignFilter });

/** Live reads: no advertiserId or provider filter (the path names the advertiser). */
const liveQueryShape = { ids: idsQuery, ...pageQueryShape, status: entityStatusSchema.optional() };
export const liveCampaignsQuerySchema = z.object(liveQueryShape);
export const liveAdGroupsQuerySchema = z.object({ ...liveQueryShape, campaignId: campaignFilter });
export const liveAdsQuerySchema = z.object({ ...liveQueryShape, campaignId: campaignFilter, adGroupId: adGroupFilter });
export const liveCreativesQuerySchema = z.object(liveQueryShape);
export const liveAssetGroupsQuerySchema = z.object({ ...liveQueryShape, campaignId: campaignFilter });

const liveAdvertiser = advertiserIdSchema.meta({ description: 'The advertiser to read live; starts with acc_ and must belong to the organization.' });
export const liveListParamsSchema = z.object({ advertiserId: liveAdvertiser });
export const liveGetParamsSchema = z.object({ advertiserId: liveAdvertiser, id: z.string().min(1).max(200).describe("The provider's bare id of the entity.") });

/** Single live reads answer the provider's own payload (its keys, its units except provider_a money). */
export const providerPayloadSchema = z
  .record(z.string(), z.unknown())
  .describe("The provider's own payload: its key names, only the fields the service requests.")
  .meta({ id: 'ProviderPayload' });

export const campaignPageSchema = pageSchema(campaignRowSchema);
export const adGroupPageSchema = pageSchema(adGroupRowSchema);
export const adPageSchema = pageSchema(adRowSchema);
export const creativePageSchema = pageSchema(creativeRowSchema);
export const assetGroupPageSchema = pageSchema(assetGroupRowSchema);

// ---- Insights (shape is ours: the spec leaves it open) -------------------

export const INSIGHT_LEVELS = ['advertiser', 'campaign', 'ad_group', 'ad'] as const;
export const INSIGHT_TIME_GRAINS = ['day', 'week', 'month', 'all'] as const;
export const INSIGHT_BREAKDOWNS = ['provider', 'advertiser', 'entity_type'] as const;

const isoDate = z
  .string()
  .regex(/^\d{4}-\d{2}-\d{2}$/, { message: 'must be a date YYYY-MM-DD' })
  .refine((s) => !Number.isNaN(Date.parse(`${s}T00:00:00Z`)) && new Date(`${s}T00:00:00Z`).toISOString().startsWith(s), {
    message: 'must be a real calendar date',
  })
  .meta({ format: 'date' });

export const insightsQuerySchema = z
  .object({
    since: isoDate.describe('First day of the range (inclusive), YYYY-MM-DD. Required.'),
    until: isoDate.describe('Last day of the range (inclusive), YYYY-MM-DD. Required.'),
    level: z.enum(INSIGHT_LEVELS).optional().default('advertiser').describe('Entity level the rows aggregate: advertiser, campaign, ad_group or ad.'),
    timeGrain: z.enum(INSIGHT_TIME_GRAINS).optional().default('all').describe('day, week (ISO, Monday first), month, or all (one period).'),
    breakdown: z.enum(INSIGHT_BREAKDOWNS).optional().describe('Totals per provider, advertiser or entity type instead of per entity.'),
    ids: idsQuery.describe('Comma-separated bare provider ids of entities at `level` (ignored at advertiser level).'),
    advertiserId: advertiserIdSchema.optional(),
    provider: providerFilterSchema.optional(),
    ...pageQueryShape,
  })
  .refine((q) => q.since <= q.until, { message: 'since must not be after until', path: ['until'] })
  .refine((q) => (Date.parse(q.until) - Date.parse(q.since)) / 86_400_000 < 3660, {
    message: 'the range must be shorter than ten years',
    path: ['until'],
  });
export type InsightsQuery = z.infer<typeof insightsQuerySchema>;

export const insightRowSchema = z
  .strictObject({
    dateStart: isoDate.describe('First day of the period inside the range, YYYY-MM-DD.'),
    dateStop: isoDate.describe('Last day of the period inside the range, YYYY-MM-DD.'),
    level: z.enum(INSIGHT_LEVELS),
    advertiserId: advertiserIdSchema.nullable().describe('Null when broken down by provider or entity type.'),
    provider: rowProvider.nullable().describe('Null when broken down by entity type.'),
    entityType: z
      .string()
      .nullable()
      .describe(
        "Type word of the level's entity (advertiser, campaign, adset/adgroup/ad_group, ad/ad_group_ad); null when broken down by provider or advertiser.",
      ),
    entityId: z.string().nullable().describe('The entity at the level (the advertiser id at advertiser level); null with any breakdown.'),
    currency: z.string().nullable().describe('Spend is in whole units of this currency; rows never mix currencies.'),
    spend: z.number().nullable().describe('Whole units of currency (same unit as budget); null when currency unknown.'),
    impressions: z.number().int(),
    clicks: z.number().int(),
    reach: z.number().int().describe('Sum of daily reach (not deduplicated across days).'),
    conversions: z.number(),
  })
  .meta({ id: 'InsightRow' });
export type InsightRow = z.infer<typeof insightRowSchema>;
export const insightPageSchema = pageSchema(insightRowSchema);
