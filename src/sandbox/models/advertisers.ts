// The platform's advertiser records: which organization connects each ad
// account, at which provider, in which currency, and how its connection stands.
// One reader for every domain (live reads, mutations, Context, Assets).
import type { Database } from '../store/sqlite.js';
import type { EntityProvider } from '../../contract/ids.js';
import type { AdvertiserRecord } from '../providers/types.js';

interface AdvertiserDbRow {
  id: string;
  org_id: string;
  provider: EntityProvider;
  name: string;
  currency: string | null;
  connection: AdvertiserRecord['connection'];
}

const COLUMNS = 'id, org_id, provider, name, currency, connection';

const toAdvertiser = (r: AdvertiserDbRow): AdvertiserRecord => ({
  id: r.id,
  orgId: r.org_id,
  provider: r.provider,
  name: r.name,
  currency: r.currency,
  connection: r.connection,
});

/** Any organization's advertiser (the simulated provider's view: it knows every account). */
export function findAdvertiser(db: Database, id: string): AdvertiserRecord | undefined {
  const row = db.prepare<[string], AdvertiserDbRow>(`SELECT ${COLUMNS} FROM advertisers WHERE id = ?`).get(id);
  return row ? toAdvertiser(row) : undefined;
}

/** The advertiser if the organization owns it; otherwise undefined (not owned and nonexistent look alike). */
export function ownedAdvertiser(db: Database, orgId: string, id: string): AdvertiserRecord | undefined {
  const row = db.prepare<[string, string], AdvertiserDbRow>(`SELECT ${COLUMNS} FROM advertisers WHERE id = ? AND org_id = ?`).get(id, orgId);
  return row ? toAdvertiser(row) : undefined;
}

/** Every advertiser of the store, in the order of the world. */
export function listAdvertisers(db: Database): AdvertiserRecord[] {
  return db.prepare<[], AdvertiserDbRow>(`SELECT ${COLUMNS} FROM advertisers ORDER BY seq`).all().map(toAdvertiser);
}
