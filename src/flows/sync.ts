// `assets sync`: which local files are already on the service, so a re-run
// pipeline uploads nothing new. The Asset shows no checksum (spec: fields not
// shown; the sandbox has none), so "same name and bytes" is proven as far as
// the evidence goes, strongest first:
//   1. our journal recorded this path's upload with its SHA-256, the file still
//      hashes the same and that Asset is still listed ready → same bytes;
//      a journal hash that differs means the bytes changed → upload;
//   2. a listed ready Asset with the same filename carries a checksum
//      (`sha256`, `checksumSha256`, `contentSha256`; a real service may) → compared;
//   3. otherwise a ready Asset with the same filename and sizeBytes counts as
//      there (reported as matched by name+size, e.g. on a fresh CI runner).
import type { ApiClient } from '../client/http.js';
import { operation } from '../contract/operations.js';
import type { LocalFile } from './upload.js';
import { hashFile, type UploadJournal } from './upload-journal.js';
import type { Row } from './upload-targets.js';

export type MatchedBy = 'sha256 (journal)' | 'sha256 (service)' | 'name+size';

export interface Existing {
  row: Row;
  matchedBy: MatchedBy;
}

const CHECKSUM_FIELDS = ['sha256', 'checksumSha256', 'contentSha256'] as const;

/** Every ready Asset, grouped by filename (pages of 100, following nextCursor). */
export async function readyAssetsByName(client: ApiClient, signal?: AbortSignal): Promise<Map<string, Row[]>> {
  const byName = new Map<string, Row[]>();
  let cursor: string | undefined;
  do {
    const res = await client.request<{ data?: Row[]; nextCursor?: string | null }>({
      method: 'GET', path: operation('listAssets').path, query: { state: 'ready', limit: 100, cursor }, ...(signal ? { signal } : {}),
    });
    for (const row of res.body.data ?? []) {
      if (row.state !== 'ready' || typeof row.filename !== 'string') continue;
      byName.set(row.filename, [...(byName.get(row.filename) ?? []), row]);
    }
    cursor = res.body.nextCursor ?? undefined;
  } while (cursor);
  return byName;
}

export async function findExisting(file: LocalFile, byName: Map<string, Row[]>, journal: UploadJournal, signal?: AbortSignal): Promise<Existing | undefined> {
  let sha: string | undefined;
  const hash = async () => (sha ??= await hashFile(file.path, signal));
  const entry = journal.get('asset', file.path);
  if (entry?.state === 'ready' && entry.sha256) {
    if ((await hash()) !== entry.sha256) return undefined; // the bytes changed since they were sent
    const row = [...byName.values()].flat().find((r) => r.id === entry.id);
    // Same bytes (a touched file with a new mtime still counts).
    if (row) return { row, matchedBy: 'sha256 (journal)' };
  }
  const candidates = (byName.get(file.filename) ?? []).filter((r) => r.sizeBytes === file.size);
  for (const row of candidates) {
    const field = CHECKSUM_FIELDS.find((f) => typeof row[f] === 'string');
    if (field && String(row[field]).toLowerCase() === (await hash())) return { row, matchedBy: 'sha256 (service)' };
  }
  const unverifiable = candidates.find((row) => !CHECKSUM_FIELDS.some((f) => typeof row[f] === 'string'));
  return unverifiable ? { row: unverifiable, matchedBy: 'name+size' } : undefined;
}
