// What every step of an upload shares: the file (a parameter of each step,
// never kept), the run (what the upload holds on the service and in the
// journal while it goes), and the journal write that comes before each step
// it announces. The steps are in upload-steps.ts and upload-resume.ts.
import type { SendBudget } from '../client/retry.js';
import type { ApiClient } from '../client/http.js';
import type { ContentSlot, FileIdentity, JournalEntry, JournalState, UploadJournal } from '../state/upload-journal.js';
import type { SmallRead } from './upload-body.js';
import type { Reservation, Row, UploadTarget } from './upload-targets.js';

export interface LocalFile extends FileIdentity {
  /** As the user named it (for messages). */
  shown: string;
  /** Name sent at reserve (--name, else the base name). */
  filename: string;
  /** SHA-256 of the bytes, when a step before the upload has read them already. */
  sha256?: string;
  /**
   * A small file's bytes, read once (readSmallFile: the listed size and mtime, proven) with their
   * SHA-256: the upload judges, keys and sends these and reads the file no more (#37).
   */
  held?: SmallRead | undefined;
}

/** A file whose bytes were judged: the type they are sent as; `sha256` once known (a large file's first run learns it from its PUT). */
export interface JudgedFile extends LocalFile {
  contentType: string;
}

export type UploadEvent =
  | { type: 'start'; file: string; size: number; contentType: string; url: string }
  | { type: 'progress'; file: string; sent: number; size: number }
  | { type: 'sent'; file: string; size: number }
  | { type: 'note'; file: string; message: string };

export interface UploadOptions {
  target: UploadTarget;
  journal: UploadJournal;
  now: () => number;
  sleep: (ms: number, signal?: AbortSignal) => Promise<void>;
  signal?: AbortSignal;
  onEvent?: (event: UploadEvent) => void;
  /** Bound on waiting for a finalize that answered a non-final state. */
  waitTimeoutMs: number;
  idleTimeoutMs?: number;
  /** Sends the bytes: the client's PUT (its transport, proxy and retry policy: --retries, --retry-budget). */
  putter: Pick<ApiClient, 'putUpload' | 'sendBudget'>;
  /** Runs once the row is ready (e.g. registrations); its answer is the row shown. */
  afterReady?: (row: Row) => Promise<Row>;
}

export type UploadStatus = 'uploaded' | 'already' | 'failed' | 'interrupted';

export interface FileOutcome {
  file: LocalFile;
  status: UploadStatus;
  row?: Row;
  error?: unknown;
  /** What stays reserved on the service after an interruption or failure. */
  pending?: { id: string; state: JournalState; uploadExpiresAt?: number | undefined };
}

/** A failure the flow decides itself (the bytes, the wait); the command maps `exit` to a code. */
export class UploadError extends Error {
  override readonly name = 'UploadError';
  constructor(
    message: string,
    readonly code: string,
    readonly exit: 'refused' | 'waitTimeout' | 'unexpected',
  ) {
    super(message);
  }
}

/**
 * What one upload holds while it runs (the file is not in it: each step is given it).
 * Steps update it as the service and the journal change; `pendingOf` reads it when the run stops.
 */
export interface Run {
  readonly o: UploadOptions;
  /** This content's journal entries, locked for the whole upload. */
  readonly slot: ContentSlot;
  /** The reservation the bytes go to. */
  res?: Reservation | undefined;
  /** The journal state of `res`, as last recorded (as the bytes stand: see reserveStep). */
  state?: JournalState | undefined;
  /** SHA-256 of bytes already sent to `res` (a previous run's, or this run's). */
  sentSha?: string | undefined;
  /** Every PUT to the current upload URL draws from this (the client's retries, and a PUT again after finalize said incomplete). */
  putSends?: SendBudget | undefined;
  /** A small file's bytes, read when it was reserved and recorded by their hash with the reservation. */
  preread?: SmallRead | undefined;
}

export const note = (file: LocalFile, run: { o: UploadOptions }, message: string): void => run.o.onEvent?.({ type: 'note', file: file.shown, message });

/** What stays on the service if this run stops now. */
export const pendingOf = (run: Run | undefined): FileOutcome['pending'] =>
  run?.res && run.state && run.state !== 'ready' ? { id: run.res.id, state: run.state, uploadExpiresAt: run.res.uploadExpiresAt } : undefined;

/** The journal entry of `res` for this file in `state` (its fields in the order every journal on disk has them). */
export function entryOf(
  file: JudgedFile,
  res: Reservation,
  e: { keyFp: string; state: JournalState; previous: JournalEntry | undefined; extra: Partial<JournalEntry>; now: number },
): JournalEntry {
  return {
    id: res.id,
    keyFp: e.keyFp,
    state: e.state,
    // A used URL is no longer needed; do not keep a credential longer than it is useful.
    ...(e.state === 'ready' ? {} : { uploadUrl: res.uploadUrl, uploadExpiresAt: res.uploadExpiresAt }),
    filename: file.filename,
    contentType: file.contentType,
    ...(e.previous?.sentSha256 ? { sentSha256: e.previous.sentSha256 } : {}),
    ...e.extra,
    updatedAt: e.now,
  };
}

/** The journal write: on disk when it resolves (awaited before the step it announces). */
export async function record(file: JudgedFile, run: Run, state: JournalState, extra: Partial<JournalEntry> = {}): Promise<void> {
  if (!run.res) return;
  const previous = run.slot.get(run.res.id);
  await run.slot.put(entryOf(file, run.res, { keyFp: run.o.journal.keyFp, state, previous, extra, now: run.o.now() }));
  run.state = state;
}

/** Forget `id`: deleted on the service (or not ours to touch), and out of the journal. */
export async function forget(run: Run, id: string): Promise<void> {
  await run.slot.remove(id);
  run.res = undefined;
  run.state = undefined;
}

/** Delete `id` on the service (a 404 counts as done), then forget it. */
export async function deleteReservation(run: Run, id: string): Promise<void> {
  await run.o.target.remove(id, run.o.signal);
  await forget(run, id);
}

/** "an Asset", "a Document". */
export const withArticle = (noun: string) => `${/^[aeiou]/i.test(noun) ? 'an' : 'a'} ${noun}`;
