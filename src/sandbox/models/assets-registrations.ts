// Registering an Asset to an advertiser puts it in that advertiser's library at
// its provider. The registration records the id the provider gave it, in the
// provider's own form, so an agent can reference the asset when it builds ads.
// The checks before a registration are in assets.ts (registerAsset).
import { nextSeq } from '../store/schema/seq-high-water.js';
import { createHash, randomBytes } from 'node:crypto';
import type { Database } from '../store/sqlite.js';
import type { z } from 'zod';
import type { assetRegistrationSchema } from '../../contract/schemas/assets.js';

export type AssetRegistration = z.infer<typeof assetRegistrationSchema>;

/** What the provider's id of an asset depends on. */
interface RegisteredAsset {
  id: string;
  kind: 'image' | 'video' | null;
}

interface RegistrationDbRow {
  id: string;
  asset_id: string;
  advertiser_id: string;
  provider: string;
  provider_asset_id: string;
  created_at: number;
}

const toRegistration = (r: RegistrationDbRow): AssetRegistration => ({
  id: r.id,
  assetId: r.asset_id,
  advertiserId: r.advertiser_id,
  provider: r.provider,
  providerAssetId: r.provider_asset_id,
  createdAt: r.created_at,
});

export function registrationsOf(db: Database, assetId: string): AssetRegistration[] {
  return registrationsOfMany(db, [assetId]).get(assetId) ?? [];
}

/** The registrations of several assets in one query (a page of assets), by asset id. */
export function registrationsOfMany(db: Database, assetIds: readonly string[]): Map<string, AssetRegistration[]> {
  const rows = db
    .prepare<[string], RegistrationDbRow>('SELECT * FROM asset_registrations WHERE asset_id IN (SELECT value FROM json_each(?)) ORDER BY seq')
    .all(JSON.stringify(assetIds));
  const byAsset = new Map<string, AssetRegistration[]>();
  for (const r of rows) byAsset.set(r.asset_id, [...(byAsset.get(r.asset_id) ?? []), toRegistration(r)]);
  return byAsset;
}

/**
 * The provider library's id for the asset: provider_a keeps images by content
 * hash and videos by numeric id; provider_b by material id; provider_c as an
 * asset resource name; provider_d by numeric id.
 */
function providerAssetId(provider: string, asset: RegisteredAsset, advertiserId: string): string {
  const digest = createHash('sha256').update(`${asset.id}:${advertiserId}`).digest();
  const digits = (n: number) => (digest.readBigUInt64BE(0) % 10n ** BigInt(n)).toString().padStart(n, '1');
  switch (provider) {
    case 'provider_a':
      return asset.kind === 'image' ? digest.subarray(0, 16).toString('hex') : digits(15);
    case 'provider_b':
      return asset.kind === 'image' ? `ad-site-i18n-sg/${digest.subarray(0, 12).toString('hex')}` : `v10033g50000${digest.subarray(0, 10).toString('hex')}`;
    case 'provider_c':
      return `customers/${advertiserId.replace(/\D/g, '').slice(0, 10) || '1'}/assets/${digits(11)}`;
    default:
      return digits(12);
  }
}

/** The registration of an asset to one advertiser, if it has one. */
export function registrationTo(db: Database, assetId: string, advertiserId: string): AssetRegistration | undefined {
  const row = db
    .prepare<[string, string], RegistrationDbRow>('SELECT * FROM asset_registrations WHERE asset_id = ? AND advertiser_id = ?')
    .get(assetId, advertiserId);
  return row && toRegistration(row);
}

/** Record that the advertiser's provider now holds the asset in its library. */
export function insertRegistration(db: Database, asset: RegisteredAsset, advertiser: { id: string; provider: string }, now: number): AssetRegistration {
  const id = `areg_${randomBytes(8).toString('hex')}`;
  db.prepare(
    `INSERT INTO asset_registrations (seq, id, asset_id, advertiser_id, provider, provider_asset_id, created_at) VALUES (${nextSeq('asset_registrations')}, ?, ?, ?, ?, ?, ?)`,
  ).run(id, asset.id, advertiser.id, advertiser.provider, providerAssetId(advertiser.provider, asset, advertiser.id), now);
  return registrationTo(db, asset.id, advertiser.id)!;
}
