// Brand Documents: reference files attached to a Brand. The bytes never pass
// through the API: reserve (a row in `pending_upload` and a one-upload URL on
// the sandbox's storage endpoint, shared with Assets: models/uploads), PUT the
// bytes there, then finalize, which judges what landed:
//   nothing yet            → 409 upload_incomplete (document stays pending_upload)
//   over the type's limit (or the declared size, or the organization's quota)
//                          → 413 too_large {sizeBytes, limitBytes}; file and document deleted
//   not the reserved type  → 415 unsupported_type; file and document deleted
//   otherwise              → ready (finalizing a ready document again answers it unchanged)
import { nextSeq } from '../../store/schema/seq-high-water.js';
import type { Document, ReserveDocument } from '../../../contract/schemas/context.js';
import { domainError } from '../errors.js';
import { discardUpload, essenceOf, getUpload, inspectUpload, reserveUpload, reservedLimits } from '../uploads/index.js';
import type { FileStore, MediaLimits } from '../uploads/index.js';
import type { BrandRow } from './brands.js';
import { DOCUMENT_HEAD_BYTES, bytesMatchDocumentType, documentLimits } from './document-types.js';
import { mintId } from './scope.js';
import type { Scope } from '../scope.js';
import { keysetPage } from '../../store/cursor.js';
import type { Page } from '../../store/cursor.js';

export type DocumentRow = {
  seq: number;
  id: string;
  brand_seq: number;
  filename: string;
  content_type: string;
  declared_size: number | null;
  size_bytes: number | null;
  state: 'pending_upload' | 'ready';
  file_key: string;
  created_at: number;
  updated_at: number;
  finalized_at: number | null;
};

export const DOCUMENTS_TABLE = 'context_documents';

/** What documents need from the sandbox: the byte store, what mints upload URLs, the limits. */
interface DocumentDeps {
  files: FileStore;
  secret: Buffer;
  publicUrl: string;
  limits: MediaLimits;
}

const depsOf = (s: Scope): DocumentDeps => ({
  files: s.services.files,
  secret: s.secret,
  publicUrl: s.services.publicUrl(),
  limits: documentLimits(s.services.settings),
});

export function toDocument(r: DocumentRow, brandSlug: string): Document {
  return {
    documentId: r.id,
    brandSlug,
    filename: r.filename,
    contentType: r.content_type,
    sizeBytes: r.size_bytes,
    state: r.state,
    createdAt: r.created_at,
    updatedAt: r.updated_at,
    finalizedAt: r.finalized_at,
  };
}

export function getDocument(s: Scope, brand: BrandRow, documentId: string): DocumentRow {
  const row = s.db.prepare<[number, string], DocumentRow>(`SELECT * FROM ${DOCUMENTS_TABLE} WHERE brand_seq = ? AND id = ?`).get(brand.seq, documentId);
  if (!row) throw domainError('not_found', 'No document with this id in the Brand.');
  return row;
}

export function reserveDocument(s: Scope, brand: BrandRow, body: ReserveDocument): { row: DocumentRow; uploadUrl: string; uploadExpiresAt: number } {
  const deps = depsOf(s);
  const allowed = Object.keys(deps.limits);
  const type = essenceOf(body.contentType);
  if (type === null || !allowed.includes(type)) {
    throw domainError('unsupported_type', 'Documents of this media type are not accepted.', { allowed });
  }
  const limitBytes = deps.limits[type]!;
  if (body.sizeBytes !== undefined && body.sizeBytes > limitBytes) {
    // Refused before any byte is sent (as for Assets): nothing is reserved.
    throw domainError('too_large', `The file is ${body.sizeBytes} bytes, over the ${limitBytes}-byte limit for ${type}; upload a smaller file.`, {
      sizeBytes: body.sizeBytes,
      limitBytes,
    });
  }
  return s.db.transaction(() => {
    const now = s.clock.now();
    // The storage takes what this reservation names: its type, at most its declared size.
    const limits = reservedLimits(deps.limits, { contentType: type, sizeBytes: body.sizeBytes });
    const upload = reserveUpload(s.db, { orgId: s.orgId, purpose: 'document', limits, now, secret: deps.secret, publicUrl: deps.publicUrl });
    const id = mintId('doc');
    s.db
      .prepare(
        `INSERT INTO ${DOCUMENTS_TABLE} (seq, id, brand_seq, filename, content_type, declared_size, size_bytes, state, file_key, created_at, updated_at, finalized_at)
         VALUES (${nextSeq(DOCUMENTS_TABLE)}, ?, ?, ?, ?, ?, NULL, 'pending_upload', ?, ?, ?, NULL)`,
      )
      .run(id, brand.seq, body.filename, type, body.sizeBytes ?? null, upload.uploadId, now, now);
    return { row: getDocument(s, brand, id), uploadUrl: upload.uploadUrl, uploadExpiresAt: upload.expiresAt };
  })();
}

async function refuse(s: Scope, row: DocumentRow, error: ReturnType<typeof domainError>): Promise<never> {
  s.db.prepare(`DELETE FROM ${DOCUMENTS_TABLE} WHERE seq = ?`).run(row.seq);
  await discardUpload(s.db, s.services.files, row.file_key);
  throw error;
}

export async function finalizeDocument(s: Scope, brand: BrandRow, documentId: string): Promise<DocumentRow> {
  const deps = depsOf(s);
  const row = getDocument(s, brand, documentId);
  if (row.state === 'ready') return row;
  const upload = getUpload(s.db, row.file_key);
  const inspection = upload ? await inspectUpload(s.db, deps.files, upload) : ({ state: 'awaiting_bytes' } as const);
  // The limits in force when the upload was reserved (they ride on the upload row).
  const limitBytes = (upload?.limits ?? deps.limits)[row.content_type] ?? 0;

  if (inspection.state === 'awaiting_bytes') {
    const expired = upload !== null && upload.expiresAt <= s.clock.now();
    throw domainError(
      'upload_incomplete',
      expired
        ? 'No bytes arrived before the upload URL expired; delete this document and reserve a new one.'
        : 'No bytes have arrived yet: PUT the file to the uploadUrl first, then finalize.',
    );
  }
  if (inspection.state === 'too_large' || inspection.sizeBytes > limitBytes) {
    // A PUT cut off while streaming reports the cap that cut it (the size counted so far).
    const limit = inspection.state === 'too_large' ? inspection.limitBytes : limitBytes;
    const why =
      inspection.state === 'too_large' && inspection.refusedBy === 'org_quota'
        ? "would pass your organization's storage quota"
        : 'exceeds the limit of its reservation';
    return refuse(
      s,
      row,
      domainError('too_large', `The stored file ${why}; it was deleted.`, {
        sizeBytes: inspection.sizeBytes,
        limitBytes: limit,
      }),
    );
  }
  // The head inspection read (SNIFF_HEAD_BYTES, more than DOCUMENT_HEAD_BYTES): no second read of the file.
  const head = inspection.head.subarray(0, DOCUMENT_HEAD_BYTES);
  if (!bytesMatchDocumentType(row.content_type, head, inspection.sizeBytes)) {
    return refuse(s, row, domainError('unsupported_type', `The stored file is not a ${row.content_type} file; it was deleted.`));
  }
  const now = s.clock.now();
  s.db
    .prepare(`UPDATE ${DOCUMENTS_TABLE} SET state = 'ready', size_bytes = ?, finalized_at = ?, updated_at = ? WHERE seq = ? AND state = 'pending_upload'`)
    .run(inspection.sizeBytes, now, now, row.seq);
  return getDocument(s, brand, documentId);
}

export async function deleteDocument(s: Scope, brand: BrandRow, documentId: string): Promise<void> {
  const row = getDocument(s, brand, documentId);
  s.db.prepare(`DELETE FROM ${DOCUMENTS_TABLE} WHERE seq = ?`).run(row.seq);
  await discardUpload(s.db, s.services.files, row.file_key);
}

/** Files of a deleted Brand's documents (their rows went with the Brand). */
export async function discardDocumentFiles(s: Scope, uploadIds: readonly string[]): Promise<void> {
  for (const id of uploadIds) await discardUpload(s.db, s.services.files, id);
}

/** Paging parameters and the list's filters, as the route validated them. */
type ListQuery<F = object> = { cursor?: string | undefined; limit: number } & F;

/** GET /context/brands/{slug}/documents: newest first; `state` filters; the cursor is bound to the Brand. */
export function listDocuments(s: Scope, brand: BrandRow, query: ListQuery<{ state?: DocumentRow['state'] | undefined }>): Page<Document> {
  const { cursor, limit, ...rest } = query;
  return keysetPage<DocumentRow, Document>({
    db: s.db,
    secret: s.secret,
    scope: 'listDocuments',
    filters: { ...rest, brand: brand.slug },
    cursor,
    limit,
    select: '*',
    from: DOCUMENTS_TABLE,
    seq: 'seq',
    where: ['brand_seq = @brand', rest.state ? 'state = @state' : null],
    params: { brand: brand.seq, state: rest.state },
    map: (r) => toDocument(r, brand.slug),
  });
}
