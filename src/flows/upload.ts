// Upload one local file to an Asset or a Document: judge its bytes, reserve,
// stream them to the upload URL (no API key), finalize, and wait until ready.
// Every step is recorded in the journal first, so a re-run of the same
// command after Ctrl-C, a cut connection or a crash finishes the job: it
// never sends again what already landed, and adopts what landed only when the
// file's SHA-256 equals the one recorded when it was sent. No terminal code:
// progress and notes go through onEvent.
import { closeSync, openSync, readSync } from 'node:fs';
import { ApiError, codeOf, NetworkError } from '../client/errors.js';
import { isRecord } from '../client/json.js';
import { SNIFF_HEAD_BYTES } from '../contract/media.js';
import { BufferBody, FileBody, FileChanged, hashFile, readSmallFile, SMALL_FILE_BYTES } from './upload-body.js';
import {
  SIZE_FIRST_BYTES,
  waitingNote,
  type ContentSlot,
  type FileIdentity,
  type JournalEntry,
  type JournalState,
  type UploadJournal,
} from '../state/upload-journal.js';
import type { LockHolder } from '../state/lock.js';
import type { ApiClient } from '../client/http.js';
import type { SendBudget } from '../client/retry.js';
import type { PutResult } from '../client/upload-put.js';
import { serviceSha256, type Reservation, type Row, type UploadTarget } from './upload-targets.js';
import { stateAcceptors, waitFor } from '../client/waiter.js';

/** What waitReady's poll answers for a row that no longer exists (404). */
const GONE = 'gone';

export interface LocalFile extends FileIdentity {
  /** As the user named it (for messages). */
  shown: string;
  /** Name sent at reserve (--name, else the base name). */
  filename: string;
  /** SHA-256 of the bytes, when a step before the upload has read them already. */
  sha256?: string;
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

/** Refused before reserving: nothing exists on the service. */
const refuseBytes = (message: string) => new UploadError(message, 'unsupported_type', 'refused');

const CLAIMED_BY_EXTENSION: Record<string, string> = {
  png: 'image/png',
  jpg: 'image/jpeg',
  jpeg: 'image/jpeg',
  gif: 'image/gif',
  webp: 'image/webp',
  mp4: 'video/mp4',
  m4v: 'video/mp4',
  mov: 'video/quicktime',
  webm: 'video/webm',
  pdf: 'application/pdf',
  txt: 'text/plain',
  md: 'text/markdown',
  csv: 'text/csv',
};

const claimedType = (name: string): string | undefined => CLAIMED_BY_EXTENSION[/\.([a-z0-9]+)$/i.exec(name)?.[1]?.toLowerCase() ?? ''];

/** A reservation whose URL cannot start a PUT within this margin is treated as expired. */
const EXPIRY_MARGIN_MS = 10_000;
const RENEWALS = 2;

/**
 * The first bytes, for the type. Synchronous (#27): one small read, where the promise API's
 * FileHandle took three thread-pool round trips (open, read, close) per file of a folder.
 */
function readHead(path: string, size: number): Buffer {
  const fd = openSync(path, 'r');
  try {
    // No more than the file's listed size (the PUT sends no more): a 45-byte PNG is not 256 KiB of memory.
    const buf = Buffer.allocUnsafe(Math.min(SNIFF_HEAD_BYTES, size)); // only the bytes read are handed on
    return buf.subarray(0, readSync(fd, buf, 0, buf.length, 0));
  } finally {
    closeSync(fd);
  }
}

const otherFileNote = (entry: JournalEntry) =>
  `the reservation ${entry.id} of an earlier run was made for ${entry.filename ?? 'another file'}, its bytes never all sent; deleted it, reserving anew`;

/** "an Asset", "a Document". */
const withArticle = (noun: string) => `${/^[aeiou]/i.test(noun) ? 'an' : 'a'} ${noun}`;
const isAbort = (err: unknown) => err instanceof Error && (err.name === 'AbortError' || codeOf(err) === 'ABORT_ERR');

export async function uploadFile(file: LocalFile, o: UploadOptions): Promise<FileOutcome> {
  const run = new FileUpload(file, o);
  try {
    const { row, already } = await run.go();
    const shown = o.afterReady ? await o.afterReady(row) : row;
    return { file, status: already ? 'already' : 'uploaded', row: shown };
  } catch (err) {
    const pending = run.pending();
    return { file, status: isAbort(err) || o.signal?.aborted ? 'interrupted' : 'failed', error: err, ...(pending ? { pending } : {}) };
  }
}

class FileUpload {
  private readonly t: UploadTarget;
  private contentType = '';
  private res: Reservation | undefined;
  /** SHA-256 of bytes already sent to `res` (a previous run's, or this run's). */
  private sentSha: string | undefined;
  /** Every PUT to the current upload URL draws from this (the client's retries, and a PUT again after finalize said incomplete). */
  private putSends: SendBudget | undefined;
  private renewals = 0;
  /** SHA-256 of the file, the journal's key: read before anything is reserved, or (a large file's first run) by its PUT. */
  private sha = '';
  /** This content's journal entries, locked for the whole upload. */
  private slot: ContentSlot | undefined;
  /** The journal state of `res`, as last recorded (as the bytes stand: see reserve()). */
  private state: JournalState | undefined;
  /** A small file's bytes, read when it was reserved and recorded by their hash with the reservation. */
  private preread: { bytes: Buffer; sha256: string } | undefined;

  constructor(
    private readonly file: LocalFile,
    private readonly o: UploadOptions,
  ) {
    this.t = o.target;
  }

  private note(message: string) {
    this.o.onEvent?.({ type: 'note', file: this.file.shown, message });
  }

  private sig() {
    return this.o.signal;
  }

  /** What stays on the service if this run stops now. */
  pending(): FileOutcome['pending'] {
    return this.res && this.state && this.state !== 'ready' ? { id: this.res.id, state: this.state, uploadExpiresAt: this.res.uploadExpiresAt } : undefined;
  }

  /** On disk when it resolves (awaited before the step it announces). */
  private async record(state: JournalState, extra: Partial<JournalEntry> = {}): Promise<void> {
    if (!this.res || !this.slot) return;
    const previous = this.slot.get(this.res.id);
    await this.slot.put({
      id: this.res.id,
      keyFp: this.o.journal.keyFp,
      state,
      // A used URL is no longer needed; do not keep a credential longer than it is useful.
      ...(state === 'ready' ? {} : { uploadUrl: this.res.uploadUrl, uploadExpiresAt: this.res.uploadExpiresAt }),
      filename: this.file.filename,
      contentType: this.contentType,
      ...(previous?.sentSha256 ? { sentSha256: previous.sentSha256 } : {}),
      ...extra,
      updatedAt: this.o.now(),
    });
    this.state = state;
  }

  /**
   * The storage holds the bytes (a 2xx, or a 409 for bytes of the sent hash). Not journaled (#27):
   * the entry already reads `sent` with the SHA-256 of exactly these bytes (recorded before the last
   * of them left), and a re-run judges `sent` as it judged `uploaded` (judgeEntry: the bytes may be
   * there, adopted only for the same SHA-256, then finalized). The next record is `ready`.
   */
  private landed(): void {
    this.state = 'uploaded';
  }

  /** Forget `res`: deleted on the service (or not ours to touch), and out of the journal. */
  private async drop(id: string): Promise<void> {
    await this.slot?.remove(id);
    this.res = undefined;
    this.state = undefined;
  }

  async go(): Promise<{ row: Row; already: boolean }> {
    const head = readHead(this.file.path, this.file.size);
    const judged = this.t.judge(head, this.file.size, this.file.filename);
    if (!judged.ok) {
      throw refuseBytes(`the bytes are ${judged.looksLike}, not a type ${withArticle(this.t.noun)} accepts (${this.t.accepted}); nothing was reserved`);
    }
    this.contentType = judged.contentType;
    const claimed = claimedType(this.file.shown);
    if (claimed && claimed !== this.contentType) this.note(`named like ${claimed}, but the bytes are ${this.contentType}: sending ${this.contentType}`);

    this.slot = await this.openSlot();
    try {
      const step = await this.resume();
      if (step && 'row' in step) return { row: step.row, already: true };
      return { row: await this.fromStep(step?.step ?? 'reserve'), already: false };
    } finally {
      this.slot.release();
    }
  }

  /**
   * The journal is keyed by content: hash first, then hold this content's
   * entries until done. A large file takes its size's lock first, and is not
   * hashed before it is sent when nothing of its size was ever recorded (its
   * PUT's own hash names the entries then; see upload-journal.ts).
   */
  private async openSlot(): Promise<ContentSlot> {
    const wait = (of: 'bytes' | 'size') => ({
      ...(this.sig() ? { signal: this.sig()! } : {}),
      onWait: (h: LockHolder | undefined) => this.note(waitingNote(h, of)),
    });
    if (this.file.size < SIZE_FIRST_BYTES) {
      this.sha = this.file.sha256 ?? (await hashFile(this.file.path, this.sig(), this.file.size));
      return this.o.journal.open(this.t.key, this.file.size, this.sha, wait('bytes'));
    }
    const size = await this.o.journal.lockSize(this.t.key, this.file.size, wait('size'));
    try {
      if (!size.seen && !this.file.sha256) return size.unhashed();
      this.sha = this.file.sha256 ?? (await hashFile(this.file.path, this.sig(), this.file.size));
      return await size.content(this.sha, wait('bytes'));
    } catch (err) {
      size.release();
      throw err;
    }
  }

  /** What an earlier run left of these bytes: a ready row to show, a step to continue from, or nothing. */
  private async resume(): Promise<{ row: Row } | { step: 'put' | 'finalize' } | undefined> {
    if (!this.slot!.hashed) return undefined;
    const mine = this.o.journal.keyFp;
    // A large file's run cut short before its PUT's hash: its reservation holds no bytes of ours.
    for (const entry of [...this.slot!.pending]) {
      const found = await this.resumePending(entry, entry.keyFp === mine);
      if (found) return found;
    }
    // This key's entries first, newest first; another key's may be the same organization's.
    const entries = [...this.slot!.entries].sort((a, b) => Number(b.keyFp === mine) - Number(a.keyFp === mine) || b.updatedAt - a.updatedAt);
    for (const entry of entries) {
      const found = await this.resumeEntry(entry, entry.keyFp === mine);
      if (found) return found;
    }
    return undefined;
  }

  /** Whether an entry's reservation was made for this very file's name and type (only then may it take these bytes). */
  private sameReservation(entry: JournalEntry): boolean {
    return entry.filename === this.file.filename && entry.contentType === this.contentType;
  }

  /** A pending entry of this size: an earlier run's reservation that never got all its bytes (maybe of another file). */
  private async resumePending(entry: JournalEntry, ownKey: boolean): Promise<{ row: Row } | { step: 'put' | 'finalize' } | undefined> {
    const row = await this.t.get(entry.id, this.sig());
    if (!row) {
      if (ownKey) await this.slot!.dropPending(entry.id);
      return undefined;
    }
    if (!this.sameReservation(entry) && !this.t.isReady(row)) {
      // Another file's reservation: deleted first, forgotten only once the service said so. A DELETE
      // that fails (a 503, Ctrl-C, a cut connection) leaves it pending, never this content's to resume.
      await this.t.remove(entry.id, this.sig());
      await this.slot!.dropPending(entry.id);
      this.note(otherFileNote(entry));
      return undefined;
    }
    // This file's own reservation (or a ready row): judged from now on with this content's entries.
    // Bytes that landed are adopted only on the service's checksum (no sent hash was recorded).
    await this.slot!.adoptPending(entry);
    return this.judgeEntry(entry, row, this.sameReservation(entry));
  }

  private async resumeEntry(entry: JournalEntry, ownKey: boolean): Promise<{ row: Row } | { step: 'put' | 'finalize' } | undefined> {
    const row = await this.t.get(entry.id, this.sig());
    if (!row) {
      // A row of another organization answers 404 too: only this key's entries are known to be gone.
      if (ownKey) {
        await this.drop(entry.id);
        this.note(`${this.t.noun} ${entry.id} of an earlier run no longer exists; uploading anew`);
      }
      return undefined;
    }
    // A reservation takes these bytes only if it was made for this name and type (a copy under
    // another name is still found when its bytes are there: judgeEntry adopts those by hash).
    return this.judgeEntry(entry, row, this.sameReservation(entry));
  }

  /** What to do with an entry whose row exists; `mayResend`: its URL may take this file's bytes. */
  private async judgeEntry(entry: JournalEntry, row: Row, mayResend: boolean): Promise<{ row: Row } | { step: 'put' | 'finalize' } | undefined> {
    this.res = { id: entry.id, uploadUrl: entry.uploadUrl ?? '', uploadExpiresAt: entry.uploadExpiresAt ?? 0 };
    this.state = entry.state;
    this.sentSha = entry.sentSha256;
    const landed = entry.state === 'sent' || entry.state === 'uploaded' || entry.state === 'ready' || row.state === 'uploaded' || this.t.isReady(row);
    if (landed) {
      // Bytes may be there: adopt them only for the very same content (our record, or the service's checksum).
      const shown = serviceSha256(row);
      if (shown ? shown === this.sha : entry.sentSha256 === this.sha) {
        if (this.t.isReady(row)) {
          await this.record('ready');
          this.note(`already uploaded as ${entry.id} (same SHA-256); nothing sent`);
          return { row };
        }
        if (mayResend) {
          this.note(`bytes sent earlier to ${entry.id} (same SHA-256); finalizing without sending again`);
          return { step: 'finalize' };
        }
        // The same bytes, in a reservation made for another name or type: not finished under that name (deleted below).
      } else if (this.t.isReady(row)) {
        // A ready row of other bytes is a real file of someone's: keep it, upload this one anew.
        await this.drop(entry.id);
        return undefined;
      } else if (row.state === 'uploaded') {
        await this.t.remove(entry.id, this.sig());
        await this.drop(entry.id);
        this.note(`${entry.id} holds bytes that cannot be proven to be this file's; deleted it, uploading anew`);
        return undefined;
      }
    }
    if (mayResend && this.urlUsable()) {
      this.note(`resuming ${entry.id}: its upload URL is still valid`);
      return { step: 'put' };
    }
    await this.t.remove(entry.id, this.sig());
    await this.drop(entry.id);
    this.note(mayResend ? `the reservation ${entry.id} expired before its bytes were sent; deleted it, reserving anew` : otherFileNote(entry));
    return undefined;
  }

  private urlUsable(): boolean {
    return !!this.res?.uploadUrl && this.res.uploadExpiresAt - EXPIRY_MARGIN_MS > this.o.now();
  }

  private async reserve(): Promise<void> {
    try {
      this.res = await this.t.reserve(this.file.filename, this.contentType, this.file.size, this.sig());
    } catch (err) {
      // A reserve is not resent after a lost answer (the client never retries a sent POST), and
      // the service names no id we could look for: say what may exist rather than guess.
      if (err instanceof NetworkError && err.sent) {
        this.note(
          `the answer to the reservation was lost; ${withArticle(this.t.noun)} named ${this.file.filename} may have been reserved unused (see \`${this.t.listReservedCommand}\`)`,
        );
      }
      throw err;
    }
    this.sentSha = undefined;
    this.putSends = undefined;
    this.preread = undefined;
    if (this.file.size > SMALL_FILE_BYTES || !this.slot!.hashed) {
      await this.record('reserved');
      return;
    }
    // A small file (#27): its bytes are read now, at once, and fixed in memory with their hash, so
    // the reservation and what will be sent to it are on disk in ONE write ('sent'), before the PUT
    // starts, where 'reserved' then 'sent' took two. A re-run judges that entry as any 'sent' one:
    // finalize, which says upload_incomplete if no byte landed, then PUT again (judgeEntry).
    let read: { bytes: Buffer; sha256: string };
    try {
      read = readSmallFile(this.file);
    } catch (err) {
      await this.record('reserved'); // deleted by dropChanged; recorded in case that delete fails
      if (err instanceof FileChanged) return this.dropChanged(err);
      throw err;
    }
    await this.record('sent', { sentSha256: read.sha256 });
    this.preread = read;
    // Not sent yet: an interruption now leaves it reserved (what pending() reports) until the PUT takes the bytes.
    this.state = 'reserved';
  }

  /** Drop the current reservation and make a new one (bounded). */
  private async renew(why: string): Promise<void> {
    if (++this.renewals > RENEWALS) throw new UploadError(`gave up after ${RENEWALS} new reservations: ${why}`, 'upload_failed', 'unexpected');
    const old = this.res?.id;
    if (old) {
      await this.t.remove(old, this.sig());
      await this.drop(old);
    }
    this.note(`${why}; deleted ${old ?? 'the reservation'}, reserving anew`);
    await this.reserve();
  }

  private async fromStep(first: 'reserve' | 'put' | 'finalize'): Promise<Row> {
    let step: 'put' | 'finalize' = first === 'finalize' ? 'finalize' : 'put';
    if (first === 'reserve') await this.reserve();
    for (;;) {
      if (step === 'put') {
        if (await this.put()) step = 'finalize';
        continue;
      }
      const row = await this.finalize();
      if (row) return row;
      step = 'put';
    }
  }

  /** One PUT; true once the storage holds the bytes. */
  private async put(): Promise<boolean> {
    const res = this.res!;
    if (!this.urlUsable()) {
      await this.renew('the upload URL expired');
      return false;
    }
    const sends = (this.putSends ??= this.o.putter.sendBudget());
    // Bytes an EARLIER attempt sent completely; this attempt's own hash proves nothing about what landed before.
    let priorSha = this.sentSha;
    const size = this.file.size;
    this.o.onEvent?.({ type: 'start', file: this.file.shown, size, contentType: this.contentType, url: res.uploadUrl });
    let answer: PutResult;
    try {
      // The client resends a cut PUT itself (the storage keeps nothing of it; if the answer
      // alone was lost, the next PUT answers 409 and we adopt by hash): no loop of ours around it.
      answer = await this.o.putter.putUpload(res.uploadUrl, () => this.openBody(), {
        contentType: this.contentType,
        sizeBytes: size,
        sends,
        onResend: (why, attempt, max) => {
          // What the failed attempt sent completely is an earlier attempt's to the next one.
          priorSha = this.sentSha;
          this.note(`the upload was cut off (${why}); sending again (attempt ${attempt} of ${max})`);
          this.o.onEvent?.({ type: 'start', file: this.file.shown, size, contentType: this.contentType, url: res.uploadUrl });
        },
        onProgress: (sent) => this.o.onEvent?.({ type: 'progress', file: this.file.shown, sent, size }),
        ...(this.o.idleTimeoutMs ? { idleTimeoutMs: this.o.idleTimeoutMs } : {}),
        ...(this.o.signal ? { signal: this.o.signal } : {}),
      });
    } catch (err) {
      if (err instanceof FileChanged) return this.dropChanged(err);
      throw err;
    }
    const code = isRecord(answer.body) ? answer.body.error : undefined;
    if (answer.status >= 200 && answer.status < 300) {
      this.o.onEvent?.({ type: 'sent', file: this.file.shown, size });
      this.landed();
      return true;
    }
    if (answer.status === 409 && code === 'upload_already_received') {
      // An earlier PUT landed but its answer was lost. Ours if the hash matches.
      const sha = await hashFile(this.file.path, this.sig(), this.file.size);
      if (priorSha && sha === priorSha) {
        this.note(`the storage already holds these bytes (same SHA-256 as sent earlier); not sending again`);
        this.o.onEvent?.({ type: 'sent', file: this.file.shown, size });
        this.landed();
        return true;
      }
      await this.renew(`${res.id} already holds bytes that cannot be proven to be this file's`);
      return false;
    }
    if ((answer.status === 403 && code === 'upload_url_expired') || answer.status === 404) {
      await this.renew(answer.status === 404 ? `${res.id} no longer exists` : 'the upload URL expired');
      return false;
    }
    if (answer.status === 413) {
      // The storage stopped at the limit; finalize releases the reservation and names the numbers.
      await this.finalize();
    }
    throw new ApiError({ status: answer.status, body: answer.body, method: 'PUT', path: '(upload URL)' });
  }

  /** The file changed under the PUT: nothing it sent may be adopted; delete the reservation, fail (exit 7). */
  private async dropChanged(err: FileChanged): Promise<never> {
    const id = this.res?.id;
    if (id) {
      await this.t.remove(id, this.sig());
      await this.drop(id);
    }
    throw new UploadError(
      `${err.message}; deleted the ${this.t.noun} ${id ?? ''} it was reserved as, nothing is kept. Upload it again once it is complete`,
      'file_changed',
      'refused',
    );
  }

  private openBody() {
    const read = this.preread;
    if (read)
      return new BufferBody(read.bytes, () => {
        // Recorded with the reservation; only from now on are they bytes an attempt sent.
        this.sentSha = read.sha256;
        this.state = 'sent';
      });
    return new FileBody(this.file, async (sha) => {
      // A large file's first run learns its content only now: its entries move to the content file first.
      if (!this.slot!.hashed) {
        await this.slot!.settle(sha);
        this.sha = sha;
      }
      await this.record('sent', { sentSha256: sha });
      // Only once on disk: a 409 later adopts bytes of this hash without writing it again (landed()).
      this.sentSha = sha;
    });
  }

  /** Finalize and wait until ready; undefined when the bytes must be sent again. */
  private async finalize(): Promise<Row | undefined> {
    const res = this.res!;
    let row: Row;
    try {
      row = await this.t.finalize(res.id, this.sig());
    } catch (err) {
      if (err instanceof ApiError && err.code === 'upload_incomplete' && (this.putSends?.left() ?? true)) {
        this.note(`${res.id} has no bytes yet; sending them`);
        return undefined;
      }
      // 413/415: the service deleted the row, nothing to resume.
      if (err instanceof ApiError && (err.status === 413 || err.status === 415 || err.status === 404)) await this.drop(res.id);
      throw err;
    }
    if (!this.t.isReady(row)) row = await this.waitReady(res.id, row);
    const landed = row.sizeBytes;
    if (typeof landed === 'number' && landed !== this.file.size) {
      throw new UploadError(`${res.id} holds ${landed} bytes but the file has ${this.file.size}`, 'size_mismatch', 'unexpected');
    }
    await this.record('ready');
    return row;
  }

  private async waitReady(id: string, first: Row): Promise<Row> {
    this.note(`${id} is ${String(first.state)} after finalize; waiting until ready`);
    // Rows are checked by the target (a state of the contract); only `ready` ends it well, a 404 (gone) badly.
    const { value, outcome } = await waitFor(async (signal) => (await this.t.get(id, signal)) ?? { state: GONE }, {
      acceptors: stateAcceptors(['ready'], [GONE]),
      timeoutMs: this.o.waitTimeoutMs,
      intervalMs: 1000,
      now: this.o.now,
      sleep: this.o.sleep,
      signal: this.o.signal,
    });
    if (outcome === 'success' && value) return value;
    if (outcome === 'timeout')
      throw new UploadError(
        `${id} was still ${String((value ?? first).state)} after ${Math.round(this.o.waitTimeoutMs / 1000)} s; run the same command again later`,
        'wait_timeout',
        'waitTimeout',
      );
    throw new UploadError(`${id} disappeared while waiting for it to become ready`, 'upload_failed', 'unexpected');
  }
}
