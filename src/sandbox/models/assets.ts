// Assets: the organization's source images and videos. An asset is reserved with
// an upload slot (models/uploads), its bytes arrive through the storage endpoint,
// and finalize judges them by their signature:
//
//   reserved ──PUT──▶ uploaded ──finalize──▶ ready
//                         └──finalize refuses──▶ deleted (row, upload and file)
//
// `uploaded` is not stored: it is `reserved` whose upload has received its bytes.
import { randomBytes } from 'node:crypto';
import type { Database } from 'better-sqlite3';
import type { AuthContext, SandboxServices } from '../http/context.js';
import { fail } from '../http/errors.js';
import type { Asset, AssetState } from '../../contract/schemas/assets.js';
import { keysetPage } from '../store/cursor.js';
import type { Page } from '../store/cursor.js';
import { assetLimits, streamingCap } from './uploads/limits.js';
import { discardUpload, getUpload, inspectUpload, reserveUpload } from './uploads/index.js';
import { registrationsOf } from './assets-registrations.js';

export interface AssetDbRow {
  id: string;
  org_id: string;
  upload_id: string;
  filename: string;
  state: 'reserved' | 'ready';
  shown_state: AssetState;
  kind: 'image' | 'video' | null;
  mime_type: string | null;
  size_bytes: number | null;
  width: number | null;
  height: number | null;
  revision: number;
  created_at: number;
  updated_at: number;
  finalized_at: number | null;
}

/** The state a reader sees: `uploaded` once the bytes landed, before finalize. */
const SHOWN_STATE = `CASE WHEN a.state = 'ready' THEN 'ready' WHEN u.state = 'received' THEN 'uploaded' ELSE 'reserved' END`;
const FROM = 'assets a LEFT JOIN uploads u ON u.id = a.upload_id';
const SELECT = `a.*, ${SHOWN_STATE} AS shown_state`;

export function toAsset(db: Database, r: AssetDbRow): Asset {
  return {
    id: r.id,
    filename: r.filename,
    state: r.shown_state,
    kind: r.kind,
    mimeType: r.mime_type,
    sizeBytes: r.size_bytes,
    width: r.width,
    height: r.height,
    revision: r.revision,
    registrations: registrationsOf(db, r.id),
    createdAt: r.created_at,
    updatedAt: r.updated_at,
    finalizedAt: r.finalized_at,
  };
}

function findRow(db: Database, orgId: string, id: string): AssetDbRow | null {
  return (db.prepare(`SELECT ${SELECT} FROM ${FROM} WHERE a.id = ? AND a.org_id = ?`).get(id, orgId) as AssetDbRow | undefined) ?? null;
}

/** Another organization's asset is 404, the same as one that never existed. */
export function requireAssetRow(db: Database, orgId: string, id: string): AssetDbRow {
  const row = findRow(db, orgId, id);
  if (!row) throw fail('not_found', 'No asset with this id exists in your organization.');
  return row;
}

export function getAsset(db: Database, orgId: string, id: string): Asset {
  return toAsset(db, requireAssetRow(db, orgId, id));
}

export function reserveAsset(
  services: SandboxServices,
  auth: AuthContext,
  body: { filename: string; contentType?: string | undefined; sizeBytes?: number | undefined },
): Asset & { uploadUrl: string; uploadExpiresAt: number } {
  const { db, clock } = services;
  const limits = assetLimits(services.settings);
  if (body.sizeBytes !== undefined && body.sizeBytes > streamingCap(limits, body.contentType ?? null)) {
    throw fail('too_large', 'The file is larger than the limit for its type; upload a smaller file.');
  }
  const now = clock.now();
  const id = `ast_${randomBytes(10).toString('hex')}`;
  const upload = db.transaction(() => {
    const reserved = reserveUpload(db, { orgId: auth.orgId, purpose: 'asset', limits, now, secret: services.secret, publicUrl: services.publicUrl() });
    db.prepare(
      `INSERT INTO assets (id, org_id, upload_id, filename, state, created_by, created_at, updated_at) VALUES (?, ?, ?, ?, 'reserved', ?, ?, ?)`,
    ).run(id, auth.orgId, reserved.uploadId, body.filename, auth.memberId, now, now);
    return reserved;
  })();
  return { ...getAsset(db, auth.orgId, id), uploadUrl: upload.uploadUrl, uploadExpiresAt: upload.expiresAt };
}

/** Delete the asset, its registrations, its upload row and its file. */
async function purge(services: SandboxServices, row: AssetDbRow): Promise<void> {
  services.db.prepare('DELETE FROM assets WHERE id = ?').run(row.id);
  await discardUpload(services.db, services.files, row.upload_id);
}

/**
 * Judge what landed. Refusals delete the asset and its file (spec: "deleted"):
 * 413 too_large, 415 unreadable (not an accepted type, or cut inside its header),
 * 415 type_mismatch (bytes differ from the PUT's Content-Type). Bytes that never
 * arrived: 409 upload_incomplete, and the asset stays reserved for another PUT.
 * A ready asset finalizes again as a no-op.
 */
export async function finalizeAsset(services: SandboxServices, auth: AuthContext, id: string): Promise<Asset> {
  const { db } = services;
  const row = requireAssetRow(db, auth.orgId, id);
  if (row.state === 'ready') return toAsset(db, row);
  const upload = getUpload(db, row.upload_id);
  const inspection = upload ? await inspectUpload(db, services.files, upload) : ({ state: 'awaiting_bytes' } as const);

  if (inspection.state === 'awaiting_bytes') {
    throw fail('upload_incomplete', 'No complete upload has reached this asset yet: PUT the bytes to its uploadUrl, then finalize.', {}, 409);
  }
  if (inspection.state === 'too_large') {
    await purge(services, row);
    throw fail('too_large', `The upload passed the ${inspection.limitBytes}-byte limit of its type and was deleted; upload a smaller file.`);
  }
  const { sniffed } = inspection;
  if (!sniffed.ok || (sniffed.kind !== 'image' && sniffed.kind !== 'video') || inspection.limitBytes === null) {
    await purge(services, row);
    const why = !sniffed.ok && sniffed.reason === 'truncated' ? 'ends before its header does' : 'is not an accepted image or video type';
    throw fail('unreadable', `The stored file ${why}; it was deleted.`);
  }
  if (inspection.contentType !== sniffed.mimeType) {
    await purge(services, row);
    throw fail('type_mismatch', `The bytes are ${sniffed.mimeType}, not the Content-Type the upload was sent with; the file was deleted.`);
  }
  if (inspection.sizeBytes > inspection.limitBytes) {
    await purge(services, row);
    throw fail('too_large', `The file is ${inspection.sizeBytes} bytes, over the ${inspection.limitBytes}-byte limit for ${sniffed.mimeType}; it was deleted.`);
  }
  const now = services.clock.now();
  db.prepare(
    `UPDATE assets SET state = 'ready', kind = ?, mime_type = ?, size_bytes = ?, width = ?, height = ?, revision = revision + 1, updated_at = ?, finalized_at = ?
     WHERE id = ? AND state = 'reserved'`,
  ).run(sniffed.kind, sniffed.mimeType, inspection.sizeBytes, sniffed.width, sniffed.height, now, now, row.id);
  return getAsset(db, auth.orgId, id);
}

function revisionMismatch(current: number) {
  return fail('revision_mismatch', 'The asset changed since you read it: read it again, reapply your change and resend with its revision.', {
    currentRevision: current,
  });
}

/** Rename, only if the caller read the current revision (one conditional update: racing writers cannot both win). */
export function renameAsset(services: SandboxServices, auth: AuthContext, id: string, body: { filename: string; revision: number }): Asset {
  const { db } = services;
  const changed = db
    .prepare(`UPDATE assets SET filename = ?, revision = revision + 1, updated_at = ? WHERE id = ? AND org_id = ? AND revision = ?`)
    .run(body.filename, services.clock.now(), id, auth.orgId, body.revision).changes;
  const row = requireAssetRow(db, auth.orgId, id);
  if (changed === 0) throw revisionMismatch(row.revision);
  return toAsset(db, row);
}

export async function deleteAsset(services: SandboxServices, auth: AuthContext, id: string, revision?: number): Promise<void> {
  const row = requireAssetRow(services.db, auth.orgId, id);
  if (revision !== undefined && revision !== row.revision) throw revisionMismatch(row.revision);
  await purge(services, row);
}

export function listAssets(
  db: Database,
  secret: Buffer,
  orgId: string,
  q: { cursor?: string | undefined; limit: number; state?: AssetState | undefined; kind?: 'image' | 'video' | undefined },
): Page<Asset> {
  const { cursor, limit, ...filters } = q;
  return keysetPage<AssetDbRow & Record<string, unknown>, Asset>({
    db,
    secret,
    scope: 'listAssets',
    filters,
    cursor,
    limit,
    select: SELECT,
    from: FROM,
    seq: 'a.seq',
    where: ['a.org_id = @org', filters.state ? `${SHOWN_STATE} = @state` : null, filters.kind ? 'a.kind = @kind' : null],
    params: { org: orgId, state: filters.state, kind: filters.kind },
    map: (r) => toAsset(db, r),
  });
}
