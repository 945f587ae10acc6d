// Reading and writing the simulated providers' state (provider_entities) and
// the platform's advertiser records. Plain functions over the database; no HTTP.
import type { Database } from 'better-sqlite3';
import type { EntityProvider } from '../../contract/ids.js';
import type { AdvertiserRecord, Payload, StoredKind } from './types.js';

interface AdvertiserDbRow {
  id: string;
  org_id: string;
  provider: string;
  name: string;
  currency: string | null;
  connection: AdvertiserRecord['connection'];
}

const toAdvertiser = (r: AdvertiserDbRow): AdvertiserRecord => ({
  id: r.id, orgId: r.org_id, provider: r.provider as EntityProvider, name: r.name, currency: r.currency, connection: r.connection,
});

export function findAdvertiser(db: Database, id: string): AdvertiserRecord | undefined {
  const row = db.prepare('SELECT id, org_id, provider, name, currency, connection FROM advertisers WHERE id = ?').get(id) as AdvertiserDbRow | undefined;
  return row ? toAdvertiser(row) : undefined;
}

/** The advertiser if the organization owns it; otherwise undefined (not owned and nonexistent look alike). */
export function findOwnedAdvertiser(db: Database, orgId: string, id: string): AdvertiserRecord | undefined {
  const a = findAdvertiser(db, id);
  return a && a.orgId === orgId ? a : undefined;
}

export function listAdvertisers(db: Database): AdvertiserRecord[] {
  return (db.prepare('SELECT id, org_id, provider, name, currency, connection FROM advertisers ORDER BY seq').all() as AdvertiserDbRow[]).map(toAdvertiser);
}

export interface ProviderEntityRow {
  id: string;
  position: number;
  payload: Payload;
  stamp: number;
}

/** Every entity of one kind, in the provider's own order. */
export function providerEntities(db: Database, advertiserId: string, kind: StoredKind): ProviderEntityRow[] {
  const rows = db
    .prepare('SELECT id, position, payload, stamp FROM provider_entities WHERE advertiser_id = ? AND kind = ? ORDER BY position')
    .all(advertiserId, kind) as Array<{ id: string; position: number; payload: string; stamp: number }>;
  return rows.map((r) => ({ ...r, payload: JSON.parse(r.payload) as Payload }));
}

export function providerEntity(db: Database, advertiserId: string, kind: StoredKind, id: string): ProviderEntityRow | undefined {
  const r = db
    .prepare('SELECT id, position, payload, stamp FROM provider_entities WHERE advertiser_id = ? AND kind = ? AND id = ?')
    .get(advertiserId, kind, id) as { id: string; position: number; payload: string; stamp: number } | undefined;
  return r ? { ...r, payload: JSON.parse(r.payload) as Payload } : undefined;
}

/** Insert (at the end of the provider's order) or replace an entity, keeping its position. */
export function writeProviderEntity(db: Database, advertiserId: string, kind: StoredKind, id: string, payload: Payload, stamp: number): void {
  const existing = db.prepare('SELECT position FROM provider_entities WHERE advertiser_id = ? AND kind = ? AND id = ?').get(advertiserId, kind, id) as
    | { position: number }
    | undefined;
  if (existing) {
    db.prepare('UPDATE provider_entities SET payload = ?, stamp = ? WHERE advertiser_id = ? AND kind = ? AND id = ?')
      .run(JSON.stringify(payload), stamp, advertiserId, kind, id);
    return;
  }
  const next = db.prepare('SELECT COALESCE(MAX(position), 0) + 1 AS p FROM provider_entities WHERE advertiser_id = ? AND kind = ?').get(advertiserId, kind) as { p: number };
  db.prepare('INSERT INTO provider_entities (advertiser_id, kind, id, position, payload, stamp) VALUES (?, ?, ?, ?, ?, ?)')
    .run(advertiserId, kind, id, next.p, JSON.stringify(payload), stamp);
}

/** The provider forgets an entity (it no longer has it); ingestion then marks the stored row deleted. */
export function removeProviderEntity(db: Database, advertiserId: string, kind: StoredKind, id: string): boolean {
  return db.prepare('DELETE FROM provider_entities WHERE advertiser_id = ? AND kind = ? AND id = ?').run(advertiserId, kind, id).changes > 0;
}

/** A lookup of an advertiser's entities by kind and id, read once per kind and cached for one operation. */
export function entityLookup(db: Database, advertiserId: string): (kind: StoredKind, id: string) => Payload | undefined {
  const maps = new Map<StoredKind, Map<string, Payload>>();
  return (kind, id) => {
    let m = maps.get(kind);
    if (!m) maps.set(kind, (m = new Map(providerEntities(db, advertiserId, kind).map((e) => [e.id, e.payload]))));
    return m.get(id);
  };
}
