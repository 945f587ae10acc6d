// Registering an Asset to an advertiser puts it in that advertiser's library at
// its provider. The registration records the id the provider gave it, in the
// provider's own form, so an agent can reference the asset when it builds ads.
import { createHash, randomBytes } from 'node:crypto';
import type { Database } from '../store/sqlite.js';
import type { Scope } from './scope.js';
import { domainError } from './errors.js';
import type { z } from 'zod';
import type { assetRegistrationSchema } from '../../contract/schemas/assets.js';
import { ownedAdvertiser } from './advertisers.js';
import { requireAssetRow } from './assets.js';
import type { AssetDbRow } from './assets.js';

export type AssetRegistration = z.infer<typeof assetRegistrationSchema>;

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
    .prepare('SELECT * FROM asset_registrations WHERE asset_id IN (SELECT value FROM json_each(?)) ORDER BY seq')
    .all(JSON.stringify(assetIds)) as RegistrationDbRow[];
  const byAsset = new Map<string, AssetRegistration[]>();
  for (const r of rows) byAsset.set(r.asset_id, [...(byAsset.get(r.asset_id) ?? []), toRegistration(r)]);
  return byAsset;
}

/**
 * The provider library's id for the asset: provider_a keeps images by content
 * hash and videos by numeric id; provider_b by material id; provider_c as an
 * asset resource name; provider_d by numeric id.
 */
function providerAssetId(provider: string, asset: AssetDbRow, advertiserId: string): string {
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

/**
 * Checks in order: asset in the organization (404), advertiser owned (422
 * advertiser_not_owned), asset ready (409 asset_not_ready). Registering again
 * to the same advertiser answers the existing registration (`created: false`).
 */
export function registerAsset(s: Scope, assetId: string, advertiserId: string): { registration: AssetRegistration; created: boolean } {
  const { db } = s;
  const asset = requireAssetRow(s, assetId);
  const advertiser = ownedAdvertiser(db, s.orgId, advertiserId);
  if (!advertiser) throw domainError('advertiser_not_owned', 'The advertiser is not one of your organization’s advertisers.');
  if (asset.state !== 'ready') {
    throw domainError('asset_not_ready', 'Only a finalized (ready) asset can be registered: finalize it first.');
  }
  const existing = db.prepare('SELECT * FROM asset_registrations WHERE asset_id = ? AND advertiser_id = ?').get(asset.id, advertiser.id) as
    | RegistrationDbRow
    | undefined;
  if (existing) return { registration: toRegistration(existing), created: false };
  const id = `areg_${randomBytes(8).toString('hex')}`;
  db.prepare(
    'INSERT INTO asset_registrations (id, asset_id, advertiser_id, provider, provider_asset_id, created_at) VALUES (?, ?, ?, ?, ?, ?)',
  ).run(id, asset.id, advertiser.id, advertiser.provider, providerAssetId(advertiser.provider, asset, advertiser.id), s.clock.now());
  const row = db.prepare('SELECT * FROM asset_registrations WHERE id = ?').get(id) as RegistrationDbRow;
  return { registration: toRegistration(row), created: true };
}
