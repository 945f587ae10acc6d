// The upload row: one reserved slot for bytes, shared by Assets and Brand
// Documents. Its life: `awaiting_bytes` → `received` (a complete PUT landed) or
// `too_large` (the PUT passed the limit and was cut off; nothing is kept). The
// row's state, not the token, makes a token good for one upload only: the
// first complete PUT moves it out of `awaiting_bytes`, and every later PUT
// finds it consumed.
//
// Owners (assets, documents) keep the upload id; the file is stored under it.
//
// What the reservation named is what the storage takes (#13): a reservation
// that names a type and a size narrows the row's limits to that type, capped
// at that size, so a PUT sent as another type or longer is cut off at the
// reserved cap. Every PUT also counts against its organization's quota
// (quota.ts) on the bytes stored plus the bytes in flight.
import { randomBytes } from 'node:crypto';
import type { Database } from '../../store/sqlite.js';
import type { FileStore, ByteSource } from './file-store.js';
import { mintUploadToken } from './tokens.js';
import { essenceOf, parseLimits, streamingCap } from './limits.js';
import type { MediaLimits } from './limits.js';
import { storedBytes, type BytesInFlight } from './quota.js';
import { SNIFF_HEAD_BYTES, sniffMedia } from '../../../contract/media-sniff.js';
import type { SniffResult } from '../../../contract/media-sniff.js';

export type UploadPurpose = 'asset' | 'document';
export type UploadState = 'awaiting_bytes' | 'received' | 'too_large';
/** Which limit cut a PUT off. */
export type RefusedBy = 'limit' | 'org_quota';

/** How long an upload URL can start an upload (checked when the PUT begins, not when it ends). */
export const UPLOAD_URL_TTL_MS = 15 * 60 * 1000;

/** Path of the storage endpoint; the token is the last segment. Not an operation. */
export const STORAGE_PATH_PREFIX = '/_storage/uploads/';

export interface UploadRow {
  id: string;
  orgId: string;
  purpose: UploadPurpose;
  state: UploadState;
  /** Content-Type as the PUT sent it (null before any bytes, or when none was sent). */
  contentType: string | null;
  sizeBytes: number | null;
  limits: MediaLimits;
  expiresAt: number;
  createdAt: number;
  receivedAt: number | null;
  /** The limit that cut the PUT off: the reservation's (type, size) or the organization's quota (state too_large only). */
  limitBytes: number | null;
  refusedBy: RefusedBy | null;
}

interface DbRow {
  id: string;
  org_id: string;
  purpose: UploadPurpose;
  state: UploadState;
  content_type: string | null;
  size_bytes: number | null;
  limits: string;
  expires_at: number;
  created_at: number;
  received_at: number | null;
  limit_bytes: number | null;
  refused_by: RefusedBy | null;
}

const fromDb = (r: DbRow): UploadRow => ({
  id: r.id,
  orgId: r.org_id,
  purpose: r.purpose,
  state: r.state,
  contentType: r.content_type,
  sizeBytes: r.size_bytes,
  limits: parseLimits(r.limits),
  expiresAt: r.expires_at,
  createdAt: r.created_at,
  receivedAt: r.received_at,
  limitBytes: r.limit_bytes,
  refusedBy: r.refused_by,
});

export const newUploadId = () => `upl_${randomBytes(12).toString('hex')}`;

export interface ReservedUpload {
  uploadId: string;
  uploadUrl: string;
  expiresAt: number;
}

/** The limits of one reservation: only the type it named (if any), none above the size it named (if any). */
export function reservedLimits(limits: MediaLimits, expected: { contentType?: string | null | undefined; sizeBytes?: number | null | undefined }): MediaLimits {
  const type = essenceOf(expected.contentType);
  const kept = type !== null && limits[type] !== undefined ? { [type]: limits[type] } : limits;
  const size = expected.sizeBytes;
  if (size === null || size === undefined) return kept;
  return Object.fromEntries(Object.entries(kept).map(([t, max]) => [t, Math.min(max, size)]));
}

/** Insert an upload row and mint its URL. Call inside the owner's transaction. */
export function reserveUpload(
  db: Database,
  opts: { orgId: string; purpose: UploadPurpose; limits: MediaLimits; now: number; secret: Buffer; publicUrl: string; ttlMs?: number },
): ReservedUpload {
  const uploadId = newUploadId();
  const expiresAt = opts.now + (opts.ttlMs ?? UPLOAD_URL_TTL_MS);
  db.prepare(
    `INSERT INTO uploads (id, org_id, purpose, state, limits, expires_at, created_at)
     VALUES (?, ?, ?, 'awaiting_bytes', ?, ?, ?)`,
  ).run(uploadId, opts.orgId, opts.purpose, JSON.stringify(opts.limits), expiresAt, opts.now);
  const token = mintUploadToken(opts.secret, { uploadId, expiresAt });
  return { uploadId, uploadUrl: `${opts.publicUrl.replace(/\/+$/, '')}${STORAGE_PATH_PREFIX}${token}`, expiresAt };
}

export function getUpload(db: Database, id: string): UploadRow | null {
  const row = db.prepare<[string], DbRow>('SELECT * FROM uploads WHERE id = ?').get(id);
  return row ? fromDb(row) : null;
}

export type ReceiveResult =
  | { ok: true; sizeBytes: number }
  | { ok: false; reason: 'not_found' | 'already_received' | 'aborted' }
  | { ok: false; reason: 'too_large'; sizeBytes: number; limitBytes: number; refusedBy: RefusedBy };

/** The organization's quota and the PUTs of all organizations in flight (services.uploadsInFlight). */
export interface QuotaCheck {
  quotaBytes: number;
  inFlight: BytesInFlight;
}

/**
 * Stream one PUT's bytes into the store. The row is claimed only once every byte
 * has landed, by a conditional update, so two racing PUTs cannot both succeed and
 * an aborted one never consumes the token.
 */
export async function receiveUpload(
  db: Database,
  files: FileStore,
  uploadId: string,
  body: ByteSource,
  contentType: string | null,
  now: () => number,
  /** Content-Length when the client declared one: over the limit, refused before a byte is read. */
  declaredLength: number | undefined,
  quota: QuotaCheck,
): Promise<ReceiveResult> {
  const upload = getUpload(db, uploadId);
  if (!upload) return { ok: false, reason: 'not_found' };
  if (upload.state !== 'awaiting_bytes') return { ok: false, reason: 'already_received' };
  const org = upload.orgId;
  const cap = streamingCap(upload.limits, contentType);
  // Read afresh at each chunk (an indexed sum): a PUT that lands meanwhile moves from in flight to stored.
  const room = () => Math.max(0, quota.quotaBytes - storedBytes(db, org) - quota.inFlight.of(org));
  const claim = db.prepare(
    `UPDATE uploads SET state = ?, content_type = ?, size_bytes = ?, received_at = ?, limit_bytes = ?, refused_by = ?
     WHERE id = ? AND state = 'awaiting_bytes'`,
  );
  const refuse = (sizeBytes: number, limitBytes: number, refusedBy: RefusedBy): ReceiveResult => {
    // Remember the refusal so finalize can answer 413 too_large (the spec's code for it) and say which limit.
    claim.run('too_large', contentType, sizeBytes, now(), limitBytes, refusedBy, uploadId);
    return { ok: false, reason: 'too_large', sizeBytes, limitBytes, refusedBy };
  };
  if (declaredLength !== undefined && declaredLength > cap) return refuse(declaredLength, cap, 'limit');
  if (declaredLength !== undefined && declaredLength > room()) return refuse(declaredLength, room(), 'org_quota');
  let taken = 0;
  let overQuota: number | undefined;
  try {
    const result = await files.write(uploadId, body, {
      maxBytes: cap,
      take: (bytes) => {
        if (!quota.inFlight.take(org, bytes, storedBytes(db, org), quota.quotaBytes)) {
          overQuota = room();
          return false;
        }
        taken += bytes;
        return true;
      },
      commit: (size) => claim.run('received', contentType, size, now(), null, null, uploadId).changes === 1,
    });
    if (result.ok) return { ok: true, sizeBytes: result.sizeBytes };
    switch (result.reason) {
      case 'too_large':
        return overQuota !== undefined ? refuse(result.sizeBytes, overQuota + taken, 'org_quota') : refuse(result.sizeBytes, cap, 'limit');
      case 'refused':
        return { ok: false, reason: 'already_received' };
      case 'aborted':
        return { ok: false, reason: 'aborted' };
    }
  } finally {
    quota.inFlight.release(org, taken);
  }
}

/** What finalize needs to judge an upload; the owner maps it to its own errors. */
export type Inspection =
  | { state: 'awaiting_bytes' }
  | { state: 'too_large'; contentType: string | null; sizeBytes: number; limitBytes: number; refusedBy: RefusedBy }
  | {
      state: 'received';
      contentType: string | null;
      sizeBytes: number;
      limitBytes: number | null;
      /** The file's first SNIFF_HEAD_BYTES (fewer when it is shorter): an owner judges its content from these. */
      head: Buffer;
      sniffed: SniffResult;
    };

export async function inspectUpload(db: Database, files: FileStore, upload: UploadRow): Promise<Inspection> {
  const essence = essenceOf(upload.contentType);
  const limitOf = (type: string | null) => (type === null ? null : (upload.limits[type] ?? null));
  if (upload.state === 'too_large') {
    return {
      state: 'too_large',
      contentType: essence,
      sizeBytes: upload.sizeBytes ?? 0,
      limitBytes: upload.limitBytes ?? streamingCap(upload.limits, essence),
      refusedBy: upload.refusedBy ?? 'limit',
    };
  }
  const size = upload.state === 'received' ? await files.size(upload.id) : null;
  if (size === null) {
    // Never arrived, or the file vanished after the claim (a crash between claim and rename).
    if (upload.state === 'received') {
      db.prepare(`UPDATE uploads SET state = 'awaiting_bytes', content_type = NULL, size_bytes = NULL, received_at = NULL WHERE id = ?`).run(upload.id);
    }
    return { state: 'awaiting_bytes' };
  }
  const head = await files.readHead(upload.id, SNIFF_HEAD_BYTES);
  const sniffed = sniffMedia(head, size);
  return { state: 'received', contentType: essence, sizeBytes: size, limitBytes: limitOf(sniffed.ok ? sniffed.mimeType : essence), head, sniffed };
}

/** Forget an upload and its bytes (finalize refused it, or its owner was deleted). */
export async function discardUpload(db: Database, files: FileStore, uploadId: string): Promise<void> {
  db.prepare('DELETE FROM uploads WHERE id = ?').run(uploadId);
  await files.remove(uploadId);
}
