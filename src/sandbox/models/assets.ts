// Assets: the organization's source images and videos. An asset is reserved with
// an upload slot (models/uploads), its bytes arrive through the storage endpoint,
// and finalize judges them by their signature:
//
//   reserved ──PUT──▶ uploaded ──finalize──▶ ready
//                         └──finalize refuses──▶ deleted (row, upload and file)
//
// `uploaded` is not stored: it is `reserved` whose upload has received its bytes.
import { nextSeq } from '../store/schema/seq-high-water.js';
import { randomBytes } from 'node:crypto';
import type { Database } from '../store/sqlite.js';
import type { Scope } from './scope.js';
import { domainError } from './errors.js';
import type { Asset, AssetState } from '../../contract/schemas/assets.js';
import { keysetPage } from '../store/cursor.js';
import type { Page } from '../store/cursor.js';
import { assetLimits, streamingCap } from './uploads/limits.js';
import { discardUpload, getUpload, inspectUpload, reserveUpload, reservedLimits } from './uploads/index.js';
import { insertRegistration, registrationTo, registrationsOf, registrationsOfMany } from './assets-registrations.js';
import type { AssetRegistration } from './assets-registrations.js';
import { ownedAdvertiser } from './advertisers.js';

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
  sha256: string | null;
}

/** The state a reader sees: `uploaded` once the bytes landed, before finalize. */
const SHOWN_STATE = `CASE WHEN a.state = 'ready' THEN 'ready' WHEN u.state = 'received' THEN 'uploaded' ELSE 'reserved' END`;
const FROM = 'assets a LEFT JOIN uploads u ON u.id = a.upload_id';
const SELECT = `a.*, ${SHOWN_STATE} AS shown_state`;

export function toAsset(db: Database, r: AssetDbRow, registrations: Asset['registrations'] = registrationsOf(db, r.id)): Asset {
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
    registrations,
    createdAt: r.created_at,
    updatedAt: r.updated_at,
    finalizedAt: r.finalized_at,
    sha256: r.sha256,
  };
}

/** Another organization's asset is 404, the same as one that never existed. */
export function requireAssetRow(s: Scope, id: string): AssetDbRow {
  const row = s.db.prepare<[string, string], AssetDbRow>(`SELECT ${SELECT} FROM ${FROM} WHERE a.id = ? AND a.org_id = ?`).get(id, s.orgId);
  if (!row) throw domainError('not_found', 'No asset with this id exists in your organization.');
  return row;
}

export function getAsset(s: Scope, id: string): Asset {
  return toAsset(s.db, requireAssetRow(s, id));
}

export function reserveAsset(
  s: Scope,
  body: { filename: string; contentType?: string | undefined; sizeBytes?: number | undefined },
): Asset & { uploadUrl: string; uploadExpiresAt: number } {
  const { db, clock, services } = s;
  const auth = { orgId: s.orgId, memberId: s.memberId };
  const limits = assetLimits(services.settings);
  if (body.sizeBytes !== undefined && body.sizeBytes > streamingCap(limits, body.contentType ?? null)) {
    throw domainError('too_large', 'The file is larger than the limit for its type; upload a smaller file.');
  }
  const now = clock.now();
  const id = `ast_${randomBytes(10).toString('hex')}`;
  const upload = db.transaction(() => {
    // The storage takes what this reservation names (its type, at most its size), not what a PUT claims.
    const reserved = reserveUpload(db, {
      orgId: auth.orgId,
      purpose: 'asset',
      limits: reservedLimits(limits, body),
      now,
      secret: services.secret,
      publicUrl: services.publicUrl(),
    });
    db.prepare(
      `INSERT INTO assets (seq, id, org_id, upload_id, filename, state, created_by, created_at, updated_at) VALUES (${nextSeq('assets')}, ?, ?, ?, ?, 'reserved', ?, ?, ?)`,
    ).run(id, auth.orgId, reserved.uploadId, body.filename, auth.memberId, now, now);
    return reserved;
  })();
  return { ...getAsset(s, id), uploadUrl: upload.uploadUrl, uploadExpiresAt: upload.expiresAt };
}

/** Delete the asset, its registrations, its upload row and its file. */
async function purge(s: Scope, row: AssetDbRow): Promise<void> {
  s.db.prepare('DELETE FROM assets WHERE id = ?').run(row.id);
  await discardUpload(s.db, s.services.files, row.upload_id);
}

/**
 * Judge what landed. Refusals delete the asset and its file (spec: "deleted"):
 * 413 too_large, 415 unreadable (not an accepted type, or cut inside its header),
 * 415 type_mismatch (bytes differ from the PUT's Content-Type). Bytes that never
 * arrived: 409 upload_incomplete, and the asset stays reserved for another PUT.
 * A ready asset finalizes again as a no-op.
 */
export async function finalizeAsset(s: Scope, id: string): Promise<Asset> {
  const { db } = s;
  const row = requireAssetRow(s, id);
  if (row.state === 'ready') return toAsset(db, row);
  const upload = getUpload(db, row.upload_id);
  const inspection = upload ? await inspectUpload(db, s.services.files, upload) : ({ state: 'awaiting_bytes' } as const);

  if (inspection.state === 'awaiting_bytes') {
    throw domainError('upload_incomplete', 'No complete upload has reached this asset yet: PUT the bytes to its uploadUrl, then finalize.');
  }
  if (inspection.state === 'too_large') {
    await purge(s, row);
    throw domainError(
      'too_large',
      inspection.refusedBy === 'org_quota'
        ? `The upload would have passed your organization's storage quota and was deleted; delete files you no longer need, or upload a smaller file.`
        : `The upload passed the ${inspection.limitBytes}-byte limit of its reservation and was deleted; upload a smaller file.`,
    );
  }
  const { sniffed } = inspection;
  if (!sniffed.ok || (sniffed.kind !== 'image' && sniffed.kind !== 'video') || assetLimits(s.services.settings)[sniffed.mimeType] === undefined) {
    await purge(s, row);
    const why = !sniffed.ok && sniffed.reason === 'truncated' ? 'ends before its header does' : 'is not an accepted image or video type';
    throw domainError('unreadable', `The stored file ${why}; it was deleted.`);
  }
  if (inspection.limitBytes === null) {
    // An accepted type, but not the one the reservation named (its limits hold that type only).
    await purge(s, row);
    throw domainError(
      'type_mismatch',
      `The bytes are ${sniffed.mimeType}, not the type the asset was reserved as (${Object.keys(upload?.limits ?? {}).join(', ')}); the file was deleted.`,
    );
  }
  if (inspection.contentType !== sniffed.mimeType) {
    await purge(s, row);
    throw domainError('type_mismatch', `The bytes are ${sniffed.mimeType}, not the Content-Type the upload was sent with; the file was deleted.`);
  }
  if (inspection.sizeBytes > inspection.limitBytes) {
    await purge(s, row);
    throw domainError(
      'too_large',
      `The file is ${inspection.sizeBytes} bytes, over the ${inspection.limitBytes}-byte limit for ${sniffed.mimeType}; it was deleted.`,
    );
  }
  // The checksum of what was judged, shown on the ready Asset (decisions.md: "Asset checksum"), so a
  // client without its own record can tell a changed file of the same name and size.
  const sha256 = await s.services.files.sha256(row.upload_id);
  const now = s.clock.now();
  db.prepare(
    `UPDATE assets SET state = 'ready', kind = ?, mime_type = ?, size_bytes = ?, width = ?, height = ?, sha256 = ?, revision = revision + 1, updated_at = ?, finalized_at = ?
     WHERE id = ? AND state = 'reserved'`,
  ).run(sniffed.kind, sniffed.mimeType, inspection.sizeBytes, sniffed.width, sniffed.height, sha256, now, now, row.id);
  return getAsset(s, id);
}

function revisionMismatch(current: number) {
  return domainError('revision_mismatch', 'The asset changed since you read it: read it again, reapply your change and resend with its revision.', {
    currentRevision: current,
  });
}

/** Rename, only if the caller read the current revision (one conditional update: racing writers cannot both win). */
export function renameAsset(s: Scope, id: string, body: { filename: string; revision: number }): Asset {
  const { db } = s;
  const changed = db
    .prepare(`UPDATE assets SET filename = ?, revision = revision + 1, updated_at = ? WHERE id = ? AND org_id = ? AND revision = ?`)
    .run(body.filename, s.clock.now(), id, s.orgId, body.revision).changes;
  const row = requireAssetRow(s, id);
  if (changed === 0) throw revisionMismatch(row.revision);
  return toAsset(db, row);
}

export async function deleteAsset(s: Scope, id: string, revision?: number): Promise<void> {
  const row = requireAssetRow(s, id);
  if (revision !== undefined && revision !== row.revision) throw revisionMismatch(row.revision);
  await purge(s, row);
}

/** GET /assets: newest first; each page reads its assets' registrations in one query, not one per asset. */
export function listAssets(
  s: Scope,
  q: { cursor?: string | undefined; limit: number; state?: AssetState | undefined; kind?: 'image' | 'video' | undefined },
): Page<Asset> {
  const { db } = s;
  const { cursor, limit, ...filters } = q;
  const page = keysetPage<AssetDbRow & Record<string, unknown>, AssetDbRow>({
    db,
    secret: s.secret,
    scope: 'listAssets',
    filters,
    cursor,
    limit,
    select: SELECT,
    from: FROM,
    seq: 'a.seq',
    where: ['a.org_id = @org', filters.state ? `${SHOWN_STATE} = @state` : null, filters.kind ? 'a.kind = @kind' : null],
    params: { org: s.orgId, state: filters.state, kind: filters.kind },
    map: (r) => r,
  });
  const registrations = registrationsOfMany(
    db,
    page.data.map((r) => r.id),
  );
  const data = page.data.map((r) => toAsset(db, r, registrations.get(r.id) ?? []));
  return page.nextCursor === undefined ? { data } : { data, nextCursor: page.nextCursor };
}

/**
 * Register the asset to an advertiser. Checks in order: asset in the organization (404),
 * advertiser owned (422 advertiser_not_owned), asset ready (409 asset_not_ready).
 * Registering again to the same advertiser answers the existing registration (`created: false`).
 */
export function registerAsset(s: Scope, assetId: string, advertiserId: string): { registration: AssetRegistration; created: boolean } {
  const { db } = s;
  const asset = requireAssetRow(s, assetId);
  const advertiser = ownedAdvertiser(db, s.orgId, advertiserId);
  if (!advertiser) throw domainError('advertiser_not_owned', 'The advertiser is not one of your organization’s advertisers.');
  if (asset.state !== 'ready') {
    throw domainError('asset_not_ready', 'Only a finalized (ready) asset can be registered: finalize it first.');
  }
  const existing = registrationTo(db, asset.id, advertiser.id);
  if (existing) return { registration: existing, created: false };
  return { registration: insertRegistration(db, asset, advertiser, s.clock.now()), created: true };
}
