// `assets sync`: which local files are already on the service, so a re-run
// pipeline uploads nothing new. "Already there" needs proof of the same name
// and bytes, strongest first:
//   1. our journal recorded an upload of these very bytes (by SHA-256) and that
//      Asset is still listed ready for this key's organization;
//   2. a listed ready Asset with the same filename shows a checksum (`sha256`,
//      as the sandbox does; `checksumSha256`, `contentSha256` elsewhere) equal
//      to the file's; a checksum that differs means other bytes → upload;
//   3. only when asked (--match-name-size): a ready Asset of the same filename
//      and sizeBytes that shows no checksum (today's behaviour on a fresh CI
//      runner against a deployment that shows none). Without the flag such a
//      file is uploaded: a creative changed at the same size is never kept.
import { operationPages } from '../client/call.js';
import type { Requester } from '../client/request.js';
import type { LocalFile } from './upload.js';
import { hashFile, smallFileOnce } from './upload-body.js';
import type { UploadJournal } from '../state/upload-journal.js';
import { serviceSha256, type Row } from './upload-targets.js';

export type MatchedBy = 'sha256 (journal)' | 'sha256 (service)' | 'name+size';

export interface Existing {
  row: Row;
  matchedBy: MatchedBy;
}
/**
 * Every ready Asset, grouped by filename: pages of 100 through the one
 * paginator, which stops on a cursor the service repeats (a loop would page
 * forever). What "already there" rests on (id, name, state, size, checksum) is
 * checked on every row (the assetsListed view): a row that breaks it fails the
 * listing (exit 1) rather than make a file read as sent, or send it twice.
 * Every row is kept (keepsEveryRow): the walk does not hold V8's generations as a
 * page-at-a-time walk does (paginate.ts).
 */
export async function readyAssetsByName(client: Requester, signal?: AbortSignal): Promise<Map<string, Row[]>> {
  const byName = new Map<string, Row[]>();
  for await (const page of operationPages(
    client,
    'listAssets',
    { query: { state: 'ready' } },
    { pageSize: 100, signal, view: 'assetsListed', keepsEveryRow: true },
  )) {
    for (const row of page.rows) {
      if (row.state !== 'ready' || typeof row.filename !== 'string') continue;
      const rows = byName.get(row.filename);
      if (rows) rows.push(row);
      else byName.set(row.filename, [row]);
    }
  }
  return byName;
}

/** The listed rows by id, built once per listing (not once per file: a re-run of N files over N Assets was N² finds). */
const byIdOf = new WeakMap<Map<string, Row[]>, Map<unknown, Row>>();
function readyById(byName: Map<string, Row[]>): Map<unknown, Row> {
  let byId = byIdOf.get(byName);
  if (!byId) {
    byId = new Map();
    for (const rows of byName.values()) for (const r of rows) if (!byId.has(r.id)) byId.set(r.id, r);
    byIdOf.set(byName, byId);
  }
  return byId;
}

/** Small files hashed between two turns of the event loop (so the listing's answers are read meanwhile). */
const HASH_SLICE = 16;
/** The most bytes of small files hashAhead holds for their uploads (past it, an upload reads its file again). */
const HELD_BYTES = 64 * 1024 * 1024;

/**
 * Hash the files while something else is awaited (the listing of the ready
 * Assets: the service's time, not ours), so findExisting finds each hash ready.
 * `done` never rejects: a file it cannot read is left unhashed, and findExisting
 * reads it again and fails there, in the order it always did (after the
 * listing). `stop()` (the listing failed) starts no more files. Start the
 * listing first: a small file is hashed from one synchronous read, and its bytes are held (up
 * to HELD_BYTES in all) for its upload, which then reads it no more (#37); findExisting lets go
 * of the bytes of a file that is already there.
 */
export function hashAhead(files: readonly LocalFile[], signal?: AbortSignal): { done: Promise<void>; stop: () => void } {
  let stopped = false;
  let held = 0;
  const run = async () => {
    for (let i = 0; i < files.length; i++) {
      if (i % HASH_SLICE === 0) await new Promise<void>((resolve) => setImmediate(resolve));
      if (stopped || signal?.aborted) return;
      const file = files[i]!;
      if (file.sha256 !== undefined) continue;
      const read = held + file.size <= HELD_BYTES ? smallFileOnce(file) : undefined;
      if (read) {
        file.held = read;
        file.sha256 = read.sha256;
        held += file.size;
        continue;
      }
      try {
        file.sha256 = await hashFile(file.path, signal, file.size);
      } catch {
        /* findExisting tries again, and says why */
      }
    }
  };
  return { done: run(), stop: () => (stopped = true) };
}

export interface FindOptions {
  /** Count a ready Asset of the same name and size that shows no checksum as there (no proof of the bytes). */
  matchNameSize?: boolean;
  signal?: AbortSignal;
}

/** What is there for this file, or undefined; `unproven` when only name and size match (and that was not asked to count). */
export async function findExisting(
  file: LocalFile,
  byName: Map<string, Row[]>,
  journal: UploadJournal,
  o: FindOptions = {},
): Promise<Existing | { unproven: Row } | undefined> {
  // Kept on the file: the upload that may follow uses it as its journal key instead of reading the file again.
  const sha = (file.sha256 ??= await hashFile(file.path, o.signal, file.size));
  const there = (row: Row, matchedBy: MatchedBy): Existing => {
    file.held = undefined; // nothing to send: its bytes are not held while the others upload
    return { row, matchedBy };
  };
  for (const entry of journal.peek('asset', file.size, sha)) {
    if (entry.state !== 'ready' || entry.sentSha256 !== sha) continue;
    // Listed with this key: this organization's (a touched or copied file counts: same bytes).
    const row = readyById(byName).get(entry.id);
    if (row) return there(row, 'sha256 (journal)');
  }
  const candidates = (byName.get(file.filename) ?? []).filter((r) => r.sizeBytes === file.size);
  const proven = candidates.find((r) => serviceSha256(r) === sha);
  if (proven) return there(proven, 'sha256 (service)');
  const unverifiable = candidates.find((r) => serviceSha256(r) === undefined);
  if (!unverifiable) return undefined;
  return o.matchNameSize ? there(unverifiable, 'name+size') : { unproven: unverifiable };
}
