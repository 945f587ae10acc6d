// What every context model function needs: the store, the time, and the
// calling organization (every query is scoped by it, so another
// organization's rows are simply not found).
import type { Database } from 'better-sqlite3';
import { randomBytes } from 'node:crypto';

export interface ContextScope {
  db: Database;
  orgId: string;
  /** Epoch ms, from the sandbox's (injectable) clock. */
  now: () => number;
}

/** Service-minted ids: a short type prefix and 12 random bytes, base32-ish lowercase. */
export function mintId(prefix: 'doc' | 'li' | 'exe'): string {
  return `${prefix}_${randomBytes(12).toString('hex')}`;
}

/** JSON text columns holding string lists. */
export const toJsonList = (v: readonly string[] | undefined) => JSON.stringify(v ?? []);
export const fromJsonList = (v: string): string[] => JSON.parse(v) as string[];
