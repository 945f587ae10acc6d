// Where an upload starts: the journal's entries for these bytes (locked for
// the whole upload), and what an earlier run left of them: a ready row to
// show, a reservation to send to or finalize, or nothing (reserve). Bytes that
// landed are adopted only when the file's SHA-256 equals the one recorded when
// they were sent, or the one the service shows; the judgement of one entry is
// upload-machine.ts's resumeVerdict, applied here.
import { waitingNote, SIZE_FIRST_BYTES, type ContentSlot, type JournalEntry } from '../state/upload-journal.js';
import type { LockHolder } from '../state/lock.js';
import { hashFile } from './upload-body.js';
import { resumeVerdict, urlUsable } from './upload-machine.js';
import { deleteReservation, forget, note, record, type JudgedFile, type Run, type UploadOptions } from './upload-run.js';
import { serviceSha256, type Row } from './upload-targets.js';

/** Where a resumed upload goes on: a ready row (nothing to send), a step, or undefined (reserve anew). */
export type ResumeFrom = { row: Row } | { step: 'put' | 'finalize' } | undefined;

/**
 * The journal is keyed by content: hash first, then hold this content's
 * entries until done. A large file takes its size's lock first, and is not
 * hashed before it is sent when nothing of its size was ever recorded (its
 * PUT's own hash names the entries then; see upload-journal.ts). `sha256`: the
 * file's, when known now.
 */
export async function openSlot(file: JudgedFile, o: UploadOptions): Promise<{ slot: ContentSlot; sha256: string | undefined }> {
  const wait = (of: 'bytes' | 'size') => ({
    ...(o.signal ? { signal: o.signal } : {}),
    onWait: (h: LockHolder | undefined) => note(file, { o }, waitingNote(h, of)),
  });
  if (file.size < SIZE_FIRST_BYTES) {
    const sha256 = file.sha256 ?? (await hashFile(file.path, o.signal, file.size));
    return { slot: await o.journal.open(o.target.key, file.size, sha256, wait('bytes')), sha256 };
  }
  const size = await o.journal.lockSize(o.target.key, file.size, wait('size'));
  try {
    if (!size.seen && !file.sha256) return { slot: size.unhashed(), sha256: undefined };
    const sha256 = file.sha256 ?? (await hashFile(file.path, o.signal, file.size));
    return { slot: await size.content(sha256, wait('bytes')), sha256 };
  } catch (err) {
    size.release();
    throw err;
  }
}

/** What an earlier run left of these bytes (`file.sha256` is known whenever the slot is hashed). */
export async function resume(file: JudgedFile, run: Run): Promise<ResumeFrom> {
  if (!run.slot.hashed) return undefined;
  const mine = run.o.journal.keyFp;
  // A large file's run cut short before its PUT's hash: its reservation holds no bytes of ours.
  for (const entry of [...run.slot.pending]) {
    const found = await resumePending(file, run, entry, entry.keyFp === mine);
    if (found) return found;
  }
  // This key's entries first, newest first; another key's may be the same organization's.
  const entries = [...run.slot.entries].sort((a, b) => Number(b.keyFp === mine) - Number(a.keyFp === mine) || b.updatedAt - a.updatedAt);
  for (const entry of entries) {
    const found = await resumeEntry(file, run, entry, entry.keyFp === mine);
    if (found) return found;
  }
  return undefined;
}

/** Whether an entry's reservation was made for this very file's name and type (only then may it take these bytes). */
const sameReservation = (file: JudgedFile, entry: JournalEntry): boolean => entry.filename === file.filename && entry.contentType === file.contentType;

const otherFileNote = (entry: JournalEntry) =>
  `the reservation ${entry.id} of an earlier run was made for ${entry.filename ?? 'another file'}, its bytes never all sent; deleted it, reserving anew`;

/** A pending entry of this size: an earlier run's reservation that never got all its bytes (maybe of another file). */
async function resumePending(file: JudgedFile, run: Run, entry: JournalEntry, ownKey: boolean): Promise<ResumeFrom> {
  const { target, signal } = run.o;
  const row = await target.get(entry.id, signal);
  if (!row) {
    if (ownKey) await run.slot.dropPending(entry.id);
    return undefined;
  }
  if (!sameReservation(file, entry) && !target.isReady(row)) {
    // Another file's reservation: deleted first, forgotten only once the service said so. A DELETE
    // that fails (a 503, Ctrl-C, a cut connection) leaves it pending, never this content's to resume.
    await target.remove(entry.id, signal);
    await run.slot.dropPending(entry.id);
    note(file, run, otherFileNote(entry));
    return undefined;
  }
  // This file's own reservation (or a ready row): judged from now on with this content's entries.
  // Bytes that landed are adopted only on the service's checksum (no sent hash was recorded).
  await run.slot.adoptPending(entry);
  return judgeEntry(file, run, entry, row, sameReservation(file, entry));
}

async function resumeEntry(file: JudgedFile, run: Run, entry: JournalEntry, ownKey: boolean): Promise<ResumeFrom> {
  const row = await run.o.target.get(entry.id, run.o.signal);
  if (!row) {
    // A row of another organization answers 404 too: only this key's entries are known to be gone.
    if (ownKey) {
      await forget(run, entry.id);
      note(file, run, `${run.o.target.noun} ${entry.id} of an earlier run no longer exists; uploading anew`);
    }
    return undefined;
  }
  // A reservation takes these bytes only if it was made for this name and type (a copy under
  // another name is still found when its bytes are there: resumeVerdict adopts those by hash).
  return judgeEntry(file, run, entry, row, sameReservation(file, entry));
}

/** Act on the verdict for an entry whose row exists; `mayResend`: its URL may take this file's bytes. */
async function judgeEntry(file: JudgedFile, run: Run, entry: JournalEntry, row: Row, mayResend: boolean): Promise<ResumeFrom> {
  // Held from now on: what stays reserved if this run stops before it is settled.
  run.res = { id: entry.id, uploadUrl: entry.uploadUrl ?? '', uploadExpiresAt: entry.uploadExpiresAt ?? 0 };
  run.state = entry.state;
  run.sentSha = entry.sentSha256;
  const verdict = resumeVerdict({
    entryState: entry.state,
    sentSha256: entry.sentSha256,
    rowState: row.state,
    rowReady: run.o.target.isReady(row),
    serviceSha256: serviceSha256(row),
    sha256: file.sha256 ?? '',
    mayResend,
    urlUsable: urlUsable(run.res, run.o.now()),
  });
  switch (verdict) {
    case 'show':
      await record(file, run, 'ready');
      note(file, run, `already uploaded as ${entry.id} (same SHA-256); nothing sent`);
      return { row };
    case 'finalize':
      note(file, run, `bytes sent earlier to ${entry.id} (same SHA-256); finalizing without sending again`);
      return { step: 'finalize' };
    case 'put':
      note(file, run, `resuming ${entry.id}: its upload URL is still valid`);
      return { step: 'put' };
    case 'forget':
      // A ready row of other bytes is a real file of someone's: keep it, upload this one anew.
      await forget(run, entry.id);
      return undefined;
    case 'delete-unproven':
      await deleteReservation(run, entry.id);
      note(file, run, `${entry.id} holds bytes that cannot be proven to be this file's; deleted it, uploading anew`);
      return undefined;
    case 'delete':
      await deleteReservation(run, entry.id);
      note(file, run, mayResend ? `the reservation ${entry.id} expired before its bytes were sent; deleted it, reserving anew` : otherFileNote(entry));
      return undefined;
  }
}
