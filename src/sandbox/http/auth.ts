// The spec's order of checks (Authentication; Errors → Order of checks):
// key (401) → subscription (402 + paywallUrl) → creator left (403) → permission (403).
// The request schema is checked only after this middleware, by the validators.
import type { MiddlewareHandler } from 'hono';
import type { Database, Statement } from '../store/sqlite.js';
import { API_KEY_PREFIX, PERMISSIONS } from '../../contract/ids.js';
import { storedPermissions } from '../models/api-keys.js';
import type { Permission } from '../../contract/ids.js';
import type { AppEnv, AuthContext } from './context.js';
import { fail } from './errors.js';
import { requestHeader } from './headers.js';

interface KeyRow {
  key_id: string;
  key_state: string;
  expires_at: number | null;
  permissions: string;
  member_id: string;
  member_state: string;
  org_id: string;
  subscribed: number;
  paywall_url: string;
}

// The database keeps this statement prepared (store/db.ts caches by SQL text).
function lookup(db: Database): Statement<[string], KeyRow> {
  return db.prepare<[string], KeyRow>(`
      SELECT k.id AS key_id, k.state AS key_state, k.expires_at, k.permissions,
             m.id AS member_id, m.state AS member_state,
             o.id AS org_id, o.subscribed, o.paywall_url
      FROM api_keys k JOIN members m ON m.id = k.member_id JOIN organizations o ON o.id = m.org_id
      WHERE k.key = ?`);
}

/** `Bearer acr_…` → the key; anything else → null. The scheme name is case-insensitive (RFC 9110). */
export function bearerKey(header: string | undefined): string | null {
  if (!header) return null;
  const m = /^Bearer +([!-~]+) *$/i.exec(header);
  if (!m || !m[1]!.startsWith(API_KEY_PREFIX)) return null;
  return m[1]!;
}

export function parsePermissions(stored: string): ReadonlySet<Permission> {
  const parsed = storedPermissions(stored);
  return new Set(parsed === 'all' ? PERMISSIONS : parsed);
}

const unauthorized = (message: string) => fail('unauthorized', message);

/** Resolve the caller or throw the failure the spec's table names; `permission` null skips step 4. */
export function authenticate(db: Database, now: number, header: string | undefined, permission: Permission | null): AuthContext {
  if (!header) throw unauthorized('No API key: send it as the header "Authorization: Bearer acr_…".');
  const key = bearerKey(header);
  if (!key) throw unauthorized('The Authorization header must be "Bearer " followed by an API key starting acr_.');
  const row = lookup(db).get(key);
  // Revoked, expired, unknown and "creator deleted" are deliberately one answer.
  if (!row || row.key_state !== 'active' || (row.expires_at !== null && row.expires_at <= now) || row.member_state === 'deleted') {
    throw unauthorized('The API key does not resolve: it is unknown, revoked, expired, or its creator deleted their account.');
  }
  if (!row.subscribed) {
    throw fail('organization_unentitled', 'The organization has no active subscription; an owner can subscribe at paywallUrl.', {
      paywallUrl: row.paywall_url,
    });
  }
  if (row.member_state === 'left') {
    throw fail('forbidden', 'The member who created this API key has left the organization.');
  }
  const permissions = parsePermissions(row.permissions);
  if (permission && !permissions.has(permission)) {
    throw fail('forbidden', `The API key lacks the permission ${permission} this operation needs.`);
  }
  return { orgId: row.org_id, memberId: row.member_id, keyId: row.key_id, permissions, expiresAt: row.expires_at };
}

/** Middleware: authenticate, then `c.get('auth')`. */
export function authorize(permission: Permission): MiddlewareHandler<AppEnv> {
  // Not async: a failure throws before next(), and Hono's compose catches it as it catches a rejection.
  return (c, next) => {
    const { db, clock, storedPages } = c.get('sandbox');
    const now = clock.now();
    const header = requestHeader(c, 'authorization');
    // As the key resolved while the store was as it is now (store/page-cache.ts), else looked up (#27).
    c.set(
      'auth',
      storedPages.keyOwner(`${permission} ${header ?? ''}`, now, () => authenticate(db, now, header, permission)),
    );
    return next();
  };
}
