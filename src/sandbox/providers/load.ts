// Writes each advertiser's provider-side world into the provider tables, and
// the world's faults. The payloads were checked against their provider's
// schemas, and parsed, by parseWorld (fixtures/load.ts), which refuses a bad
// fixture before any store is touched. Runs inside the platform's
// world-loading transaction.
import { ENTITY_PROVIDERS } from '../../contract/ids.js';
import type { EntityProvider } from '../../contract/ids.js';
import type { World } from '../fixtures/schema.js';
import { writeFaults } from './faults.js';
import { LIST_KEY } from './fixture-schema.js';
import type { ParsedEntities } from './fixture-schema.js';
import { adapterFor } from './registry.js';
import { isOneOf } from './types.js';
import type { Payload, ProviderServices, StoredKind } from './types.js';

/** Parents before children, so positions follow the provider's natural listing. */
const KIND_ORDER: readonly StoredKind[] = ['shared_budget', 'campaign', 'ad_group', 'ad', 'creative', 'asset_group'];

export function loadProviderWorld(services: ProviderServices, world: World): void {
  for (const a of world.advertisers) {
    const byKind = new Map(KIND_ORDER.map((kind): [StoredKind, Payload[]] => [kind, a[LIST_KEY[kind]] ?? []]));
    writeAdvertiserEntities(services, a.id, a.provider, { byKind, insights: a.insights ?? [] });
  }
  for (const [provider, faults] of Object.entries(world.faults ?? {})) {
    if (faults && isOneOf(ENTITY_PROVIDERS, provider)) writeFaults(services, provider, faults);
  }
}

/** Insert one advertiser's parsed entities and insight rows (appending to what it has). */
export function writeAdvertiserEntities(services: ProviderServices, advertiserId: string, provider: EntityProvider, entities: ParsedEntities): void {
  const { db } = services;
  const adapter = adapterFor(provider);
  const insert = db.prepare('INSERT INTO provider_entities (advertiser_id, kind, id, position, payload, stamp) VALUES (?, ?, ?, ?, ?, ?)');
  const start = db.prepare<[string, string], { p: number }>(
    'SELECT COALESCE(MAX(position), 0) AS p FROM provider_entities WHERE advertiser_id = ? AND kind = ?',
  );
  for (const kind of KIND_ORDER) {
    const items = entities.byKind.get(kind) ?? [];
    let position = start.get(advertiserId, kind)?.p ?? 0;
    for (const payload of items) {
      insert.run(advertiserId, kind, adapter.idOf(kind, payload), ++position, JSON.stringify(payload), adapter.editTimeOf(payload) ?? 0);
    }
  }
  const insight = db.prepare(
    `INSERT INTO provider_insights (advertiser_id, date, campaign_id, ad_group_id, ad_id, spend, impressions, clicks, reach, conversions)
     VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?)`,
  );
  for (const r of entities.insights) {
    insight.run(advertiserId, r.date, r.campaignId, r.adGroupId ?? null, r.adId ?? null, r.spend, r.impressions, r.clicks, r.reach, r.conversions);
  }
}
