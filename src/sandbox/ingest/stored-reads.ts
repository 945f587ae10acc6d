// Stored reads of Observe: what ingestion wrote, newest first (the row stored
// last comes first), keyset-paged on `seq` so page 1,000 costs what page 1
// costs. Rows the service marked deleted never appear. Filters that match
// nothing (an advertiser not owned, provider_e…g or provider_d, which are never
// ingested) simply answer an empty page.
import type { Database } from 'better-sqlite3';
import type { EntityStatus, ProviderToken } from '../../contract/ids.js';
import {
  adGroupRowSchema, adRowSchema, assetGroupRowSchema, campaignRowSchema, creativeRowSchema,
} from '../../contract/schemas/observe.js';
import { keysetPage } from '../store/cursor.js';
import type { Page } from '../store/cursor.js';
import type { EntityKind } from '../providers/types.js';

export interface StoredQuery {
  ids?: string[] | undefined;
  cursor?: string | undefined;
  limit: number;
  advertiserId?: string | undefined;
  provider?: ProviderToken | undefined;
  status?: EntityStatus | undefined;
  campaignId?: string | undefined;
  adGroupId?: string | undefined;
}

/** Field order of each row kind, as the contract's schema lists them. */
export const ROW_KEYS: Record<EntityKind, readonly string[]> = {
  campaign: Object.keys(campaignRowSchema.shape),
  ad_group: Object.keys(adGroupRowSchema.shape),
  ad: Object.keys(adRowSchema.shape),
  creative: Object.keys(creativeRowSchema.shape),
  asset_group: Object.keys(assetGroupRowSchema.shape),
};

/** A row body plus the three service times, in the contract's key order. */
export function completeRow(kind: EntityKind, body: Record<string, unknown>, times: { createdAt: number | null; updatedAt: number | null; deletedAt: number | null }): Record<string, unknown> {
  const all: Record<string, unknown> = { ...body, ...times };
  const out: Record<string, unknown> = {};
  for (const k of ROW_KEYS[kind]) out[k] = all[k] ?? null;
  return out;
}

interface StoredDbRow extends Record<string, unknown> {
  row: string;
  created_at: number;
  updated_at: number | null;
}

export function storedPage(
  env: { db: Database; secret: Buffer }, orgId: string, kind: EntityKind, scope: string, query: StoredQuery,
): Page<Record<string, unknown>> {
  const { cursor, limit, ...filters } = query;
  return keysetPage<StoredDbRow, Record<string, unknown>>({
    db: env.db, secret: env.secret, scope, filters, cursor, limit,
    select: 'row, created_at, updated_at', from: 'observe_rows', seq: 'seq',
    where: [
      'org_id = @org',
      'kind = @kind',
      'deleted_at IS NULL',
      filters.advertiserId !== undefined && 'advertiser_id = @advertiserId',
      filters.provider !== undefined && 'provider = @provider',
      filters.status !== undefined && 'status = @status',
      filters.campaignId !== undefined && 'campaign_id = @campaignId',
      filters.adGroupId !== undefined && 'ad_group_id = @adGroupId',
      filters.ids !== undefined && 'id IN (SELECT value FROM json_each(@ids))',
    ],
    params: {
      org: orgId, kind,
      advertiserId: filters.advertiserId, provider: filters.provider, status: filters.status,
      campaignId: filters.campaignId, adGroupId: filters.adGroupId,
      ids: filters.ids === undefined ? undefined : JSON.stringify(filters.ids),
    },
    map: (r) => completeRow(kind, JSON.parse(r.row) as Record<string, unknown>, { createdAt: r.created_at, updatedAt: r.updated_at, deletedAt: null }),
  });
}
