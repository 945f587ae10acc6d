// Reading and writing the simulated providers' state (provider_entities).
// Plain functions over the database; no HTTP. Reads come in two sizes: the
// whole of one kind (ingestion, which visits everything anyway) and a window
// in the provider's own order (live reads: a page costs what its rows cost,
// at any depth).
import type { Database } from '../store/sqlite.js';
import { isPayload } from './types.js';
import type { Payload, StoredKind } from './types.js';

export interface ProviderEntityRow {
  id: string;
  position: number;
  payload: Payload;
  stamp: number;
}

type DbEntity = { id: string; position: number; payload: string; stamp: number };
/** A stored payload's JSON (always an object: written from a checked payload). */
export function payloadOf(json: string): Payload {
  const value: unknown = JSON.parse(json);
  if (!isPayload(value)) throw new Error('a stored provider payload is not a JSON object');
  return value;
}

const parsed = (r: DbEntity): ProviderEntityRow => ({ id: r.id, position: r.position, payload: payloadOf(r.payload), stamp: r.stamp });

/** Every entity of one kind, in the provider's own order. */
export function providerEntities(db: Database, advertiserId: string, kind: StoredKind): ProviderEntityRow[] {
  const rows = db
    .prepare<[string, string], DbEntity>('SELECT id, position, payload, stamp FROM provider_entities WHERE advertiser_id = ? AND kind = ? ORDER BY position')
    .all(advertiserId, kind);
  return rows.map(parsed);
}

/**
 * Up to `count` entities after `after` in the provider's order, optionally only
 * the given ids (the provider_entities_order index: cost follows `count`, not depth).
 */
export function providerEntitiesAfter(
  db: Database,
  advertiserId: string,
  kind: StoredKind,
  after: number,
  count: number,
  ids?: readonly string[],
): ProviderEntityRow[] {
  const rows =
    ids === undefined
      ? db
          .prepare<[string, string, number, number], DbEntity>(
            'SELECT id, position, payload, stamp FROM provider_entities WHERE advertiser_id = ? AND kind = ? AND position > ? ORDER BY position LIMIT ?',
          )
          .all(advertiserId, kind, after, count)
      : db
          .prepare<[string, string, number, string, number], DbEntity>(
            `SELECT id, position, payload, stamp FROM provider_entities
           WHERE advertiser_id = ? AND kind = ? AND position > ? AND id IN (SELECT value FROM json_each(?)) ORDER BY position LIMIT ?`,
          )
          .all(advertiserId, kind, after, JSON.stringify(ids), count);
  return rows.map(parsed);
}

export function providerEntity(db: Database, advertiserId: string, kind: StoredKind, id: string): ProviderEntityRow | undefined {
  const r = db
    .prepare<[string, string, string], DbEntity>('SELECT id, position, payload, stamp FROM provider_entities WHERE advertiser_id = ? AND kind = ? AND id = ?')
    .get(advertiserId, kind, id);
  return r ? parsed(r) : undefined;
}

/** Insert (at the end of the provider's order) or replace an entity, keeping its position. */
export function writeProviderEntity(db: Database, advertiserId: string, kind: StoredKind, id: string, payload: Payload, stamp: number): void {
  const changed = db
    .prepare('UPDATE provider_entities SET payload = ?, stamp = ? WHERE advertiser_id = ? AND kind = ? AND id = ?')
    .run(JSON.stringify(payload), stamp, advertiserId, kind, id).changes;
  if (changed > 0) return;
  db.prepare(
    `INSERT INTO provider_entities (advertiser_id, kind, id, position, payload, stamp)
     SELECT ?, ?, ?, COALESCE(MAX(position), 0) + 1, ?, ? FROM provider_entities WHERE advertiser_id = ? AND kind = ?`,
  ).run(advertiserId, kind, id, JSON.stringify(payload), stamp, advertiserId, kind);
}

/** The provider forgets an entity (it no longer has it); ingestion then marks the stored row deleted. */
export function removeProviderEntity(db: Database, advertiserId: string, kind: StoredKind, id: string): boolean {
  return db.prepare('DELETE FROM provider_entities WHERE advertiser_id = ? AND kind = ? AND id = ?').run(advertiserId, kind, id).changes > 0;
}

export type EntityLookup = (kind: StoredKind, id: string) => Payload | undefined;

/** A lookup that reads each kind whole on first use: for ingestion, which visits every entity. */
export function wholeLookup(db: Database, advertiserId: string): EntityLookup {
  const maps = new Map<StoredKind, Map<string, Payload>>();
  return (kind, id) => {
    let m = maps.get(kind);
    if (!m) maps.set(kind, (m = new Map(providerEntities(db, advertiserId, kind).map((e) => [e.id, e.payload]))));
    return m.get(id);
  };
}

/** A lookup that reads one entity at a time, remembered for one operation: for a page or a single read. */
export function pointLookup(db: Database, advertiserId: string): EntityLookup {
  const seen = new Map<string, Payload | undefined>();
  return (kind, id) => {
    const key = `${kind}\0${id}`;
    if (!seen.has(key)) seen.set(key, providerEntity(db, advertiserId, kind, id)?.payload);
    return seen.get(key);
  };
}
