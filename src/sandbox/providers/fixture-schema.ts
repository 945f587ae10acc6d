// How a fixture writes an advertiser's provider-side world. The arrays are
// spread into the platform's advertiser object (fixtures/schema.ts). Each item
// is the provider's OWN payload (its keys, units and status words), so the
// shape depends on the advertiser's `provider`: the world schema checks only
// that items are objects, and `parseAdvertiserEntities` (run by load.ts when
// the world loads, before the server starts) checks each item against its
// provider's schema and names the bad field, e.g. /advertisers/2/campaigns/0/daily_budget.
import { z } from 'zod';
import type { EntityProvider } from '../../contract/ids.js';
import { jsonPointer } from '../models/issues.js';
import { adapterFor } from './registry.js';
import { AUTOMATED_CAMPAIGN_TYPES } from './provider-c.js';
import { ENTITY_KINDS } from './types.js';
import type { Payload, StoredKind } from './types.js';

const payloads = (what: string) =>
  z.array(z.looseObject({})).optional().describe(`${what}, each in the advertiser's provider's own payload keys and units (docs/decisions.md lists them).`);

const isoDay = z.string().regex(/^\d{4}-\d{2}-\d{2}$/, { message: 'must be a date YYYY-MM-DD' });

/** One day of metrics of an ad (or of a campaign where the provider has no ads, e.g. automated provider_c). */
export const insightFixtureSchema = z.strictObject({
  date: isoDay,
  campaignId: z.string().min(1),
  adGroupId: z.string().min(1).optional(),
  adId: z.string().min(1).optional().describe("The ad's id as Observe names it (provider_c: {adGroupId}~{adId})."),
  spend: z.number().nonnegative().describe("In the provider's money unit: provider_a minor units, provider_b and provider_d whole units, provider_c micros."),
  impressions: z.number().int().nonnegative(),
  clicks: z.number().int().nonnegative(),
  reach: z.number().int().nonnegative().default(0),
  conversions: z.number().nonnegative().default(0),
});
export type InsightFixture = z.output<typeof insightFixtureSchema>;

export const advertiserEntitiesShape = {
  campaigns: payloads('Campaigns'),
  adGroups: payloads('Ad groups (provider_a ad sets)'),
  ads: payloads('Ads (provider_c: ad_group_ad links)'),
  creatives: payloads('Creatives (provider_a only)'),
  assetGroups: payloads('Asset groups (provider_c only, on PERFORMANCE_MAX campaigns)'),
  sharedBudgets: payloads('Campaign budgets that several campaigns may share (provider_c only)'),
  insights: z.array(insightFixtureSchema).optional().describe('Daily metrics rows.'),
};

/** An advertiser's provider-side arrays as the world schema read them (items checked only as objects). */
export type AdvertiserEntities = z.output<z.ZodObject<typeof advertiserEntitiesShape>>;

export const providerFaultsSchema = z
  .strictObject({
    errorRate: z.number().min(0).max(1).default(0).describe('Share of live requests (and changes) the provider refuses: 502 provider_error.'),
    latencyMs: z.number().int().min(0).max(60_000).default(0).describe('Delay added to every live request and change.'),
    rateLimitPerMinute: z.number().int().min(1).nullable().default(null).describe('Requests per minute before the provider throttles (null: no limit).'),
    seed: z.number().int().min(0).default(1).describe('Seed of the error draw, so a given errorRate fails the same requests every run.'),
  })
  .describe("A provider's faults.");
export type ProviderFaults = z.output<typeof providerFaultsSchema>;

const STORED_KINDS: readonly StoredKind[] = [...ENTITY_KINDS, 'shared_budget'];

/** The fixture's list key of each stored kind. */
export const LIST_KEY: Record<StoredKind, keyof typeof advertiserEntitiesShape> = {
  campaign: 'campaigns',
  ad_group: 'adGroups',
  ad: 'ads',
  creative: 'creatives',
  asset_group: 'assetGroups',
  shared_budget: 'sharedBudgets',
};

export interface ParsedEntities {
  byKind: Map<StoredKind, Payload[]>;
  insights: InsightFixture[];
}

export class ProviderFixtureError extends Error {
  constructor(readonly issues: string[]) {
    super(`provider entities are not valid:\n${issues.map((i) => `  ${i}`).join('\n')}`);
    this.name = 'ProviderFixtureError';
  }
}

/**
 * Validate one advertiser's arrays against its provider's payload schemas and
 * check the links between them. `at` is the advertiser's JSON Pointer prefix.
 */
export function parseAdvertiserEntities(provider: EntityProvider, input: AdvertiserEntities, at: Array<string | number>): ParsedEntities {
  const adapter = adapterFor(provider);
  const issues: string[] = [];
  const byKind = new Map<StoredKind, Payload[]>();
  for (const kind of STORED_KINDS) {
    const key = LIST_KEY[kind];
    const items = input[key];
    if (!items || items.length === 0) continue;
    const schema = adapter.fixture[kind];
    if (!schema) {
      issues.push(`${jsonPointer([...at, key])}: ${provider} has no ${key}`);
      continue;
    }
    const parsed: Payload[] = [];
    const seen = new Set<string>();
    items.forEach((item, i) => {
      const r = schema.safeParse(item);
      if (!r.success) {
        for (const issue of r.error.issues.slice(0, 5)) issues.push(`${jsonPointer([...at, key, i, ...issue.path])}: ${issue.message}`);
        return;
      }
      const id = adapter.idOf(kind, r.data);
      if (seen.has(id)) issues.push(`${jsonPointer([...at, key, i])}: id ${id} is used twice in ${key}`);
      seen.add(id);
      parsed.push(r.data);
    });
    byKind.set(kind, parsed);
  }
  const idMaps = new Map<StoredKind, Map<string, Payload>>();
  const ids = (kind: StoredKind) => {
    let m = idMaps.get(kind);
    if (!m) idMaps.set(kind, (m = new Map((byKind.get(kind) ?? []).map((p) => [adapter.idOf(kind, p), p]))));
    return m;
  };
  const campaigns = ids('campaign');
  const adGroups = ids('ad_group');
  const budgets = ids('shared_budget');
  const automated = (id: string | null) => id !== null && AUTOMATED_CAMPAIGN_TYPES.has(String(campaigns.get(id)?.advertisingChannelType));
  const lookup = (kind: StoredKind, id: string) => ids(kind).get(id);
  for (const kind of ['ad_group', 'ad', 'asset_group'] as const) {
    (byKind.get(kind) ?? []).forEach((p, i) => {
      const { campaignId, adGroupId } = adapter.parentsOf(kind, p, lookup);
      const where = jsonPointer([...at, LIST_KEY[kind], i]);
      if (campaignId !== null && !campaigns.has(campaignId)) issues.push(`${where}: names campaign ${campaignId}, which is not in campaigns`);
      if (kind === 'ad' && adGroupId !== null && !adGroups.has(adGroupId)) issues.push(`${where}: names ad group ${adGroupId}, which is not in adGroups`);
      if (provider === 'provider_c' && kind !== 'asset_group' && automated(campaignId))
        issues.push(`${where}: PERFORMANCE_MAX campaigns have no ad groups or ads (they use asset groups)`);
      if (kind === 'asset_group' && !automated(campaignId)) issues.push(`${where}: asset groups belong to PERFORMANCE_MAX campaigns only`);
    });
  }
  (byKind.get('campaign') ?? []).forEach((p, i) => {
    if (typeof p.campaignBudget === 'string' && !budgets.has(p.campaignBudget)) {
      issues.push(`${jsonPointer([...at, 'campaigns', i, 'campaignBudget'])}: names budget ${p.campaignBudget}, which is not in sharedBudgets`);
    }
  });
  const insights = input.insights ?? [];
  insights.forEach((row, i) => {
    if (!campaigns.has(row.campaignId)) issues.push(`${jsonPointer([...at, 'insights', i, 'campaignId'])}: names no campaign of this advertiser`);
  });
  if (issues.length) throw new ProviderFixtureError(issues.slice(0, 20));
  return { byKind, insights };
}
