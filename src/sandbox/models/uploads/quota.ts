// The per-organization storage quota: bytes stored (uploads that landed and
// are kept) plus bytes in flight (PUTs streaming now) may not pass it. The
// spec names no quota; docs/decisions.md records the choice. Stored bytes are
// read from the uploads table; bytes in flight live in memory (a PUT does not
// survive a restart either), counted chunk by chunk as they pass, so two PUTs
// racing for the last room cannot both have it.
import type { Database } from '../../store/sqlite.js';

const GiB = 1024 * 1024 * 1024;

/** Big enough for one Asset at the largest type limit (4 GiB video) and then some. */
export const DEFAULT_STORAGE_QUOTA_BYTES = 5 * GiB;

/** The quota of a sandbox: its `settings.storageQuotaBytes`, else the default. */
export const storageQuota = (settings: { storageQuotaBytes?: number }) => settings.storageQuotaBytes ?? DEFAULT_STORAGE_QUOTA_BYTES;

/** Bytes an organization keeps in the store (every upload that landed, Asset or Document, until deleted). */
export function storedBytes(db: Database, orgId: string): number {
  const row = db.prepare<[string], { n: number }>(`SELECT COALESCE(SUM(size_bytes), 0) AS n FROM uploads WHERE org_id = ? AND state = 'received'`).get(orgId);
  return row?.n ?? 0;
}

/** Bytes of PUTs streaming now, per organization. */
export class BytesInFlight {
  readonly #byOrg = new Map<string, number>();

  of(orgId: string): number {
    return this.#byOrg.get(orgId) ?? 0;
  }

  /** Count `bytes` more for `orgId` if stored + in flight stays within `quota`; false (nothing counted) otherwise. */
  take(orgId: string, bytes: number, stored: number, quota: number): boolean {
    const now = this.of(orgId);
    if (stored + now + bytes > quota) return false;
    this.#byOrg.set(orgId, now + bytes);
    return true;
  }

  release(orgId: string, bytes: number): void {
    const left = this.of(orgId) - bytes;
    if (left > 0) this.#byOrg.set(orgId, left);
    else this.#byOrg.delete(orgId);
  }
}
