// Upload one local file to an Asset or a Document: judge its bytes, reserve,
// stream them to the upload URL (no API key), finalize, and wait until ready.
// Every step is recorded in the journal first, so a re-run of the same
// command after Ctrl-C, a cut connection or a crash finishes the job: it
// never sends again what already landed, and adopts what landed only when the
// file's SHA-256 equals the one recorded when it was sent. No terminal code:
// progress and notes go through onEvent.
//
// Read it as a walk (docs/architecture.md, "An upload you can walk"): the file
// is a parameter of every call, from uploadFile to the step that sends it
// (upload-steps.ts) and the journal write (upload-run.ts's record); drive()
// asks upload-machine.ts's table which step comes after each answer.
import { closeSync, openSync, readSync } from 'node:fs';
import { codeOf } from '../client/errors.js';
import { SNIFF_HEAD_BYTES } from '../contract/media.js';
import { advance, RENEWALS, type Answer, type Position, type Step } from './upload-machine.js';
import { smallFileOnce } from './upload-body.js';
import { openSlot, resume } from './upload-resume.js';
import { pendingOf, note, UploadError, withArticle, type FileOutcome, type JudgedFile, type LocalFile, type Run, type UploadOptions } from './upload-run.js';
import { discardStep, finalizeStep, putStep, releaseStep, renewStep, reserveStep, waitStep } from './upload-steps.js';
import type { Row } from './upload-targets.js';

export { UploadError, type FileOutcome, type LocalFile, type UploadEvent, type UploadOptions, type UploadStatus } from './upload-run.js';

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

const isAbort = (err: unknown) => err instanceof Error && (err.name === 'AbortError' || codeOf(err) === 'ABORT_ERR');

export async function uploadFile(file: LocalFile, o: UploadOptions): Promise<FileOutcome> {
  let run: Run | undefined;
  try {
    // A small file is read once (here, or by sync's hashing before): its type, its journal key, its body.
    const held = smallFileOnce(file);
    const judged = judgeBytes(held ? { ...file, held, sha256: file.sha256 ?? held.sha256 } : file, o);
    const { slot, sha256 } = await openSlot(judged, o);
    run = { o, slot };
    const { row, already } = await uploadHeld(sha256 ? { ...judged, sha256 } : judged, run);
    const shown = o.afterReady ? await o.afterReady(row) : row;
    return { file, status: already ? 'already' : 'uploaded', row: shown };
  } catch (err) {
    const pending = pendingOf(run);
    return { file, status: isAbort(err) || o.signal?.aborted ? 'interrupted' : 'failed', error: err, ...(pending ? { pending } : {}) };
  } finally {
    file.held = undefined; // its bytes are sent or not needed: not held while the other files go
  }
}

/** The type the file's bytes are sent as; a refusal when the target takes no such bytes (nothing reserved). */
function judgeBytes(file: LocalFile, o: UploadOptions): JudgedFile {
  const t = o.target;
  const head = file.held ? file.held.bytes.subarray(0, SNIFF_HEAD_BYTES) : readHead(file.path, file.size);
  const judged = t.judge(head, file.size, file.filename);
  if (!judged.ok) throw refuseBytes(`the bytes are ${judged.looksLike}, not a type ${withArticle(t.noun)} accepts (${t.accepted}); nothing was reserved`);
  const contentType = judged.contentType;
  const claimed = claimedType(file.shown);
  if (claimed && claimed !== contentType) note(file, { o }, `named like ${claimed}, but the bytes are ${contentType}: sending ${contentType}`);
  return { ...file, contentType };
}

/** Go on from what an earlier run left, else from a reservation; the journal's locks are held throughout. */
async function uploadHeld(file: JudgedFile, run: Run): Promise<{ row: Row; already: boolean }> {
  try {
    const from = await resume(file, run);
    if (from && 'row' in from) return { row: from.row, already: true };
    return { row: await drive(file, run, from?.step ?? 'reserve'), already: false };
  } finally {
    run.slot.release();
  }
}

/** Each step's answer, through the table, to the next step, until the row is ready or the run fails. */
async function drive(file: JudgedFile, run: Run, first: 'reserve' | 'put' | 'finalize'): Promise<Row> {
  let at: Position = { step: first, renewals: 0 };
  let cause: Answer | undefined;
  for (;;) {
    const answer = await take(at.step, file, run, cause);
    const next = advance(at, answer);
    if (typeof next !== 'string') {
      at = next;
      cause = answer;
    } else if (next === 'ready' && 'row' in answer) return answer.row;
    else if (next === 'gave-up') throw new UploadError(`gave up after ${RENEWALS} new reservations: ${whyOf(answer)}`, 'upload_failed', 'unexpected');
    else throw errorOf(answer);
  }
}

/** One step, given the file and what the answer that led to it carries. */
function take(step: Step, file: JudgedFile, run: Run, cause: Answer | undefined): Promise<Answer> {
  switch (step) {
    case 'reserve':
      return reserveStep(file, run);
    case 'renew':
      return renewStep(file, run, whyOf(cause));
    case 'put':
      return putStep(file, run);
    case 'finalize':
      return finalizeStep(file, run);
    case 'wait':
      return waitStep(file, run, cause && 'row' in cause ? cause.row : {});
    case 'release':
      return releaseStep(file, run, errorOf(cause));
    case 'discard':
      return discardStep(file, run, errorOf(cause));
  }
}

const whyOf = (a: Answer | undefined): string => (a && 'why' in a ? a.why : 'no reason given');
const errorOf = (a: Answer | undefined): Error => (a && 'error' in a ? a.error : new Error(`the upload stopped after ${a?.kind ?? 'no'} answer`));
