// Where an upload goes: the Assets API or a Brand's Documents. Both follow
// reserve → PUT bytes → finalize; they differ in paths, reserve body, state
// names and which bytes they accept. The flow (upload.ts) only sees this shape.
import { checkAnswer } from '../client/answer-check.js';
import { ApiError } from '../client/errors.js';
import { callUnchecked } from '../client/call.js';
import type { Requester } from '../client/request.js';
import { commandLine } from '../contract/command-line.js';
import type { OperationId } from '../contract/operations.js';
import { judgeAsset, judgeDocument, type Judged } from '../contract/media.js';

export type Row = Record<string, unknown>;

export interface Reservation {
  id: string;
  uploadUrl: string;
  uploadExpiresAt: number;
}

export interface UploadTarget {
  /** Journal key: 'asset' or 'document:<slug>'. */
  key: string;
  noun: 'Asset' | 'Document';
  judge(head: Uint8Array, size: number, filename: string): Judged;
  /** What the target accepts, in a person's words (for refusals). */
  accepted: string;
  reserve(filename: string, contentType: string, size: number, signal?: AbortSignal): Promise<Reservation>;
  finalize(id: string, signal?: AbortSignal): Promise<Row>;
  /** The row, or undefined when it no longer exists (404). */
  get(id: string, signal?: AbortSignal): Promise<Row | undefined>;
  remove(id: string, signal?: AbortSignal): Promise<void>;
  isReady(row: Row): boolean;
  /** The command that deletes a left-over reservation, for the user. */
  deleteCommand(id: string): string;
  /** The command that lists reservations still waiting for bytes. */
  listReservedCommand: string;
}

/** Names under which a deployment may show a row's content checksum (the spec shows none; the sandbox sets `sha256`). */
const CHECKSUM_FIELDS = ['sha256', 'checksumSha256', 'contentSha256'] as const;

/** The SHA-256 (lower-case hex) the service shows for a row, if it shows one. */
export function serviceSha256(row: Row): string | undefined {
  for (const f of CHECKSUM_FIELDS) {
    const v = row[f];
    if (typeof v === 'string' && /^[0-9a-f]{64}$/i.test(v)) return v.toLowerCase();
  }
  return undefined;
}

const orUndefinedOn404 = async <T>(p: Promise<T>): Promise<T | undefined> => {
  try {
    return await p;
  } catch (err) {
    if (err instanceof ApiError && err.status === 404) return undefined;
    throw err;
  }
};

/** The reservation the bytes go to: the answer must name the row and an http(s) upload URL (else unexpected_answer). */
async function reservationOf(view: 'assetReserved' | 'documentReserved', answer: unknown): Promise<Reservation> {
  const body = await checkAnswer(view, answer);
  const uploadExpiresAt = typeof body.uploadExpiresAt === 'number' ? body.uploadExpiresAt : Number.POSITIVE_INFINITY;
  return { id: 'documentId' in body ? body.documentId : body.id, uploadUrl: body.uploadUrl, uploadExpiresAt };
}

interface TargetSpec {
  key: string;
  noun: UploadTarget['noun'];
  accepted: string;
  judge: UploadTarget['judge'];
  /** Path parameters other than the row's id (the Brand slug). */
  params: Record<string, string>;
  /** Name of the row's id in answers and in paths. */
  idField: 'id' | 'documentId';
  ops: {
    reserve: 'reserveAssetUpload' | 'reserveDocument';
    finalize: 'finalizeAsset' | 'finalizeDocument';
    get: 'getAsset' | 'getDocument';
    remove: 'deleteAsset' | 'deleteDocument';
    /** The list a person reads the reservations with, filtered on `reserved` (its state while no bytes are final). */
    list: 'listAssets' | 'listDocuments';
  };
  /** What the flow reads of each answer (src/contract/answer-views.ts): checked before it acts on one. */
  views: {
    reserve: 'assetReserved' | 'documentReserved';
    finalize: 'assetFinalized' | 'documentFinalized';
    get: 'assetRead' | 'documentRead';
  };
  /** The state a reservation waiting for its bytes is in. */
  reserved: string;
}

function target(client: Requester, t: TargetSpec): UploadTarget {
  const params = (id?: string) => (id === undefined ? t.params : { ...t.params, [t.idField]: id });
  // Each answer as it came: what the flow reads of it is checked (views), the rest read tolerantly (Row).
  const send = (id: OperationId, signal: AbortSignal | undefined, rowId?: string, body?: unknown): Promise<unknown> =>
    callUnchecked(client, id, { params: params(rowId), ...(body !== undefined ? { body } : {}) }, { signal });
  const row = async (view: TargetSpec['views']['finalize' | 'get'], answer: unknown): Promise<Row> => ({ ...(await checkAnswer(view, answer)) });
  return {
    key: t.key,
    noun: t.noun,
    accepted: t.accepted,
    judge: t.judge,
    // contentType and sizeBytes let the service refuse a wrong or oversized file before any byte is sent.
    reserve: async (filename, contentType, size, signal) =>
      reservationOf(t.views.reserve, await send(t.ops.reserve, signal, undefined, { filename, contentType, sizeBytes: size })),
    // Ready or not is read from the state: the answer must carry one of the contract's (else unexpected_answer).
    finalize: async (id, signal) => row(t.views.finalize, await send(t.ops.finalize, signal, id)),
    get: async (id, signal) => {
      const answer = await orUndefinedOn404(send(t.ops.get, signal, id));
      return answer === undefined ? undefined : row(t.views.get, answer);
    },
    remove: async (id, signal) => void (await orUndefinedOn404(send(t.ops.remove, signal, id))),
    isReady: (row) => row.state === 'ready',
    // Written from the table's command entries (src/contract/command-line.ts): a renamed command or flag renames the hint.
    deleteCommand: (id) => commandLine(t.ops.remove, params(id)),
    listReservedCommand: commandLine(t.ops.list, t.params, { state: t.reserved }),
  };
}

export const assetTarget = (client: Requester): UploadTarget =>
  target(client, {
    key: 'asset',
    noun: 'Asset',
    accepted: 'JPEG, PNG, GIF, WebP images and MP4, QuickTime, WebM videos',
    judge: (head, size) => judgeAsset(head, size),
    params: {},
    idField: 'id',
    ops: { reserve: 'reserveAssetUpload', finalize: 'finalizeAsset', get: 'getAsset', remove: 'deleteAsset', list: 'listAssets' },
    views: { reserve: 'assetReserved', finalize: 'assetFinalized', get: 'assetRead' },
    reserved: 'reserved',
  });

export const documentTarget = (client: Requester, slug: string): UploadTarget =>
  target(client, {
    key: `document:${slug}`,
    noun: 'Document',
    accepted: 'PDF, DOCX and UTF-8 text (plain, Markdown, CSV)',
    judge: (head, _size, filename) => judgeDocument(head, filename),
    params: { slug },
    idField: 'documentId',
    ops: { reserve: 'reserveDocument', finalize: 'finalizeDocument', get: 'getDocument', remove: 'deleteDocument', list: 'listDocuments' },
    views: { reserve: 'documentReserved', finalize: 'documentFinalized', get: 'documentRead' },
    reserved: 'pending_upload',
  });
