// The store's API keys as `adops sandbox keys` and /_sandbox/keys show them
// (the sandbox keeps keys in clear: they are public fixtures, not secrets).
import type { Database } from '../store/sqlite.js';
import { PERMISSIONS } from '../../contract/ids.js';
import type { Permission } from '../../contract/ids.js';

export interface KeyListing {
  key: string;
  organization: string;
  label: string;
  description: string;
  state: string;
  permissions: 'all' | Permission[];
}

const isPermission = (v: unknown): v is Permission => PERMISSIONS.some((p) => p === v);

/** A key's `permissions` column: the JSON of "all" or a list of the spec's permissions (fixtures/schema.ts checked it). */
export function storedPermissions(stored: string): 'all' | Permission[] {
  const parsed: unknown = JSON.parse(stored);
  if (parsed === 'all') return 'all';
  return Array.isArray(parsed) ? parsed.filter(isPermission) : [];
}

/** Every key of the store with what it shows, oldest first (the order of the world). */
export function listKeys(db: Database): KeyListing[] {
  const rows = db
    .prepare<[], Omit<KeyListing, 'permissions'> & { permissions: string }>(
      `SELECT k.key, m.org_id AS organization, k.label, k.description, k.state, k.permissions
       FROM api_keys k JOIN members m ON m.id = k.member_id ORDER BY k.seq`,
    )
    .all();
  return rows.map((r) => ({ ...r, permissions: storedPermissions(r.permissions) }));
}
