// Ingestion: copies every advertiser's provider state into the stored tables
// as normalized Observe rows (spec: "answers what the service holds, refreshed
// by its ingestion").
//
// - A row stored for the first time gets the next `seq` (stored reads list
//   newest first by seq) and createdAt; a later rewrite keeps its seq, so a
//   page already read never shifts, and sets updatedAt.
// - A row is rewritten only when the provider's edit stamp (or the account
//   currency) moved. Budget-only edits do not move the stamp, so the stored
//   budget can be older than the rest of the row (spec budget rule 5).
// - A row the provider no longer has gets deletedAt and leaves every listing.
//   An entity whose status is DELETED is still held by the provider: it stays
//   listed with status DELETED (so the stored `status=DELETED` filter answers).
// - Advertisers not connected are ingested once (their first ingestion, as if
//   the connection broke afterwards) and then left as stored. provider_d is
//   not ingested: stored rows carry provider_a, provider_b or provider_c only.
import type { Database } from '../store/sqlite.js';
import { AD_GROUP_TYPE, ROW_PROVIDERS } from '../../contract/ids.js';
import { currencyDecimals } from '../providers/units.js';
import { storedRowJson } from './stored-reads.js';
import { adapterFor } from '../providers/registry.js';
import { listAdvertisers } from '../models/advertisers.js';
import { providerEntities, wholeLookup } from '../providers/store.js';
import { str } from '../providers/types.js';
import type { AdvertiserRecord, ProviderServices } from '../providers/types.js';

/** Providers whose entities the service ingests into stored rows (the contract's ROW_PROVIDERS). */
export const INGESTED_PROVIDERS: ReadonlySet<string> = new Set(ROW_PROVIDERS);

export interface IngestOptions {
  /** Only these advertisers (default: all). */
  advertiserIds?: readonly string[];
}

export function ingestAll(services: ProviderServices, options: IngestOptions = {}): void {
  const { db } = services;
  const now = services.clock.now();
  const only = options.advertiserIds ? new Set(options.advertiserIds) : null;
  db.transaction(() => {
    for (const advertiser of listAdvertisers(db)) {
      if (only && !only.has(advertiser.id)) continue;
      if (!INGESTED_PROVIDERS.has(advertiser.provider)) continue;
      if (advertiser.connection === 'not_connected' && everIngested(db, advertiser.id)) continue;
      ingestAdvertiser(db, advertiser, now);
    }
  })();
}

function everIngested(db: Database, advertiserId: string): boolean {
  return (
    db.prepare('SELECT 1 FROM observe_rows WHERE advertiser_id = ? LIMIT 1').get(advertiserId) !== undefined ||
    db.prepare('SELECT 1 FROM observe_insights WHERE advertiser_id = ? LIMIT 1').get(advertiserId) !== undefined
  );
}

interface StoredRef {
  seq: number;
  id: string;
  source: string;
  row: string;
  created_at: number;
  deleted_at: number | null;
}

function ingestAdvertiser(db: Database, advertiser: AdvertiserRecord, now: number): void {
  const adapter = adapterFor(advertiser.provider);
  const lookup = wholeLookup(db, advertiser.id);
  const select = db.prepare<[string, string], StoredRef>(
    'SELECT seq, id, source, row, created_at, deleted_at FROM observe_rows WHERE advertiser_id = ? AND kind = ?',
  );
  const insert = db.prepare(
    `INSERT INTO observe_rows (kind, org_id, advertiser_id, provider, id, status, campaign_id, ad_group_id, source, row, json, created_at)
     VALUES (@kind, @org, @adv, @provider, @id, @status, @campaignId, @adGroupId, @source, @row, @json, @now)`,
  );
  const rewrite = db.prepare(
    `UPDATE observe_rows SET status = @status, campaign_id = @campaignId, ad_group_id = @adGroupId, source = @source, row = @row, json = @json,
       updated_at = @now, deleted_at = NULL, org_id = @org WHERE seq = @seq`,
  );
  const touch = db.prepare('UPDATE observe_rows SET source = ? WHERE seq = ?');
  const markDeleted = db.prepare('UPDATE observe_rows SET deleted_at = ? WHERE seq = ?');

  for (const kind of adapter.kinds) {
    const stored = new Map(select.all(advertiser.id, kind).map((r) => [r.id, r]));
    const seen = new Set<string>();
    for (const entity of providerEntities(db, advertiser.id, kind)) {
      seen.add(entity.id);
      const source = `${entity.stamp}:${advertiser.currency ?? ''}`;
      const prior = stored.get(entity.id);
      if (prior && prior.source === source && prior.deleted_at === null) continue;
      const body = adapter.normalize(kind, entity.payload, { advertiser, live: false, lookup });
      const parents = adapter.parentsOf(kind, entity.payload, lookup);
      const values = {
        kind,
        org: advertiser.orgId,
        adv: advertiser.id,
        provider: advertiser.provider,
        id: entity.id,
        status: str(body.status),
        campaignId: parents.campaignId,
        adGroupId: parents.adGroupId,
        source,
        row: JSON.stringify(body),
        now,
      };
      if (!prior) insert.run({ ...values, json: storedRowJson(kind, body, now, null) });
      else if (prior.row !== values.row || prior.deleted_at !== null)
        rewrite.run({ ...values, json: storedRowJson(kind, body, prior.created_at, now), seq: prior.seq });
      else touch.run(source, prior.seq);
    }
    for (const prior of stored.values()) {
      if (!seen.has(prior.id) && prior.deleted_at === null) markDeleted.run(now, prior.seq);
    }
  }
  ingestInsights(db, advertiser);
}

/** Multiplier from the provider's money unit to micros of whole units; null when the currency is unknown. */
function microsFactor(provider: string, currency: string | null): number | null {
  if (currency === null) return null;
  if (provider === 'provider_a') return 10 ** (6 - currencyDecimals(currency));
  return provider === 'provider_c' ? 1 : 1_000_000;
}

/** Insights are replaced whole per advertiser (the provider restates recent days); one INSERT … SELECT. */
function ingestInsights(db: Database, advertiser: AdvertiserRecord): void {
  db.prepare('DELETE FROM observe_insights WHERE advertiser_id = ?').run(advertiser.id);
  db.prepare(
    `INSERT INTO observe_insights (org_id, advertiser_id, provider, currency, date, campaign_id, ad_group_id, ad_group_type, ad_id, ad_type, spend_micros, impressions, clicks, reach, conversions)
     SELECT @org, advertiser_id, @provider, @currency, date, campaign_id,
            ad_group_id, CASE WHEN ad_group_id IS NULL THEN NULL ELSE @adGroupType END,
            ad_id, CASE WHEN ad_id IS NULL THEN NULL ELSE @adType END,
            CASE WHEN @factor IS NULL THEN NULL ELSE CAST(ROUND(spend * @factor) AS INTEGER) END,
            impressions, clicks, reach, conversions
     FROM provider_insights WHERE advertiser_id = @adv`,
  ).run({
    org: advertiser.orgId,
    provider: advertiser.provider,
    currency: advertiser.currency,
    adv: advertiser.id,
    adGroupType: AD_GROUP_TYPE[advertiser.provider],
    adType: advertiser.provider === 'provider_c' ? 'ad_group_ad' : 'ad',
    factor: microsFactor(advertiser.provider, advertiser.currency),
  });
}
