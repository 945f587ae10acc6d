// The store's API keys as `adops sandbox keys` and /_sandbox/keys show them
// (the sandbox keeps keys in clear: they are public fixtures, not secrets).
import type { Database } from '../store/sqlite.js';

export interface KeyListing {
  key: string;
  organization: string;
  label: string;
  description: string;
  state: string;
  permissions: 'all' | string[];
}

/** Every key of the store with what it shows, oldest first (the order of the world). */
export function listKeys(db: Database): KeyListing[] {
  const rows = db
    .prepare(
      `SELECT k.key, m.org_id AS organization, k.label, k.description, k.state, k.permissions
       FROM api_keys k JOIN members m ON m.id = k.member_id ORDER BY k.seq`,
    )
    .all() as Array<Omit<KeyListing, 'permissions'> & { permissions: string }>;
  return rows.map((r) => ({ ...r, permissions: JSON.parse(r.permissions) as KeyListing['permissions'] }));
}
