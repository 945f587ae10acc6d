// The I/O steps of an upload: each is given the file, talks to the service,
// the storage or the journal once, and answers with a kind of
// upload-machine.ts's table (which says what comes next). The journal write
// comes before the step it announces: a reservation is on disk before its
// bytes are sent, their SHA-256 before the last of them leaves, `ready` before
// the row is shown.
import { ApiError, NetworkError } from '../client/errors.js';
import { isRecord } from '../client/json.js';
import type { PutBody, PutResult } from '../client/upload-put.js';
import { stateAcceptors, waitFor } from '../client/waiter.js';
import { pollPace } from '../client/poll-pace.js';
import { BufferBody, FileBody, FileChanged, hashFile, readSmallFile, SMALL_FILE_BYTES, type SmallRead } from './upload-body.js';
import { putAnswerKind, urlUsable, type AnswerOf, type StepAnswer } from './upload-machine.js';
import { deleteReservation, forget, note, record, UploadError, withArticle, type JudgedFile, type Run } from './upload-run.js';
import type { Reservation, Row } from './upload-targets.js';

/** What the wait's poll answers for a row that no longer exists (404). */
const GONE = 'gone';

/** The reservation a step after reserve works on (there is one: the table reaches them only through reserve or a resume). */
function reservationOf(run: Run): Reservation {
  if (!run.res) throw new Error('an upload step ran without a reservation');
  return run.res;
}

/** Reserve: the service's row and upload URL for this file's name, type and size, on disk before any byte is sent. */
export async function reserveStep(file: JudgedFile, run: Run): Promise<StepAnswer<'reserve'>> {
  const { target, signal } = run.o;
  try {
    run.res = await target.reserve(file.filename, file.contentType, file.size, signal);
  } catch (err) {
    // A reserve is not resent after a lost answer (the client never retries a sent POST), and
    // the service names no id we could look for: say what may exist rather than guess.
    if (err instanceof NetworkError && err.sent) {
      note(
        file,
        run,
        `the answer to the reservation was lost; ${withArticle(target.noun)} named ${file.filename} may have been reserved unused (see \`${target.listReservedCommand}\`)`,
      );
    }
    throw err;
  }
  run.sentSha = undefined;
  run.putSends = undefined;
  run.preread = undefined;
  if (file.size > SMALL_FILE_BYTES || !run.slot.hashed) {
    await record(file, run, 'reserved');
    return { kind: 'reserved' };
  }
  // A small file (#27): its bytes are read now, at once, and fixed in memory with their hash, so
  // the reservation and what will be sent to it are on disk in ONE write ('sent'), before the PUT
  // starts, where 'reserved' then 'sent' took two. A re-run judges that entry as any 'sent' one:
  // finalize, which says upload_incomplete if no byte landed, then PUT again (resumeVerdict).
  let read: SmallRead;
  try {
    // Read when the file was judged (#37); read now only when that read failed, to say why.
    read = file.held ?? readSmallFile(file);
  } catch (err) {
    await record(file, run, 'reserved'); // deleted by discard; recorded in case that delete fails
    if (err instanceof FileChanged) return { kind: 'file-changed', error: err };
    throw err;
  }
  await record(file, run, 'sent', { sentSha256: read.sha256 });
  run.preread = read;
  // Not sent yet: an interruption now leaves it reserved (what pendingOf reports) until the PUT takes the bytes.
  run.state = 'reserved';
  return { kind: 'reserved' };
}

/** Renew: delete the reservation the bytes cannot go to (`why`), and reserve anew. */
export async function renewStep(file: JudgedFile, run: Run, why: string): Promise<StepAnswer<'renew'>> {
  const old = run.res?.id;
  if (old) await deleteReservation(run, old);
  note(file, run, `${why}; deleted ${old ?? 'the reservation'}, reserving anew`);
  return reserveStep(file, run);
}

/** Put: one PUT of the file's bytes to the upload URL (the client resends a cut one itself). */
export async function putStep(file: JudgedFile, run: Run): Promise<StepAnswer<'put'>> {
  const res = reservationOf(run);
  if (!urlUsable(res, run.o.now())) return { kind: 'url-expired', why: 'the upload URL expired' };
  const sent = await sendBytes(file, run, res);
  if ('kind' in sent) return sent;
  return judgePut(file, run, res, sent);
}

/** The PUT itself; `priorSha`: what an EARLIER attempt sent completely (this attempt's own hash proves nothing about what landed before). */
async function sendBytes(
  file: JudgedFile,
  run: Run,
  res: Reservation,
): Promise<{ answer: PutResult; priorSha: string | undefined } | { kind: 'file-changed'; error: FileChanged }> {
  const { o } = run;
  const sends = (run.putSends ??= o.putter.sendBudget());
  let priorSha = run.sentSha;
  const start = () => o.onEvent?.({ type: 'start', file: file.shown, size: file.size, contentType: file.contentType, url: res.uploadUrl });
  start();
  try {
    // The client resends a cut PUT itself (the storage keeps nothing of it; if the answer
    // alone was lost, the next PUT answers 409 and we adopt by hash): no loop of ours around it.
    const answer = await o.putter.putUpload(res.uploadUrl, () => bodyOf(file, run), {
      contentType: file.contentType,
      sizeBytes: file.size,
      sends,
      onResend: (why, attempt, max) => {
        // What the failed attempt sent completely is an earlier attempt's to the next one.
        priorSha = run.sentSha;
        note(file, run, `the upload was cut off (${why}); sending again (attempt ${attempt} of ${max})`);
        start();
      },
      onProgress: (sent) => o.onEvent?.({ type: 'progress', file: file.shown, sent, size: file.size }),
      ...(o.idleTimeoutMs ? { idleTimeoutMs: o.idleTimeoutMs } : {}),
      ...(o.signal ? { signal: o.signal } : {}),
    });
    return { answer, priorSha };
  } catch (err) {
    if (err instanceof FileChanged) return { kind: 'file-changed', error: err };
    throw err;
  }
}

/** One PUT's body: a small file's bytes read at reserve, else the file read as the socket takes it. */
function bodyOf(file: JudgedFile, run: Run): PutBody {
  const read = run.preread;
  if (read)
    return new BufferBody(read.bytes, () => {
      // Recorded with the reservation; only from now on are they bytes an attempt sent.
      run.sentSha = read.sha256;
      run.state = 'sent';
    });
  return new FileBody(file, async (sha) => {
    // A large file's first run learns its content only now: its entries move to the content file first.
    if (!run.slot.hashed) await run.slot.settle(sha);
    await record(file, run, 'sent', { sentSha256: sha });
    // Only once on disk: a 409 later adopts bytes of this hash without writing it again (landed).
    run.sentSha = sha;
  });
}

/** The storage's answer as a kind of the table; a 409 upload_already_received is ours only by hash. */
async function judgePut(
  file: JudgedFile,
  run: Run,
  res: Reservation,
  { answer, priorSha }: { answer: PutResult; priorSha: string | undefined },
): Promise<StepAnswer<'put'>> {
  const kind = putAnswerKind(answer.status, isRecord(answer.body) ? answer.body.error : undefined);
  if (kind === 'stored') return landed(file, run, 'stored');
  if (kind === 'already-received') {
    // An earlier PUT landed but its answer was lost. Ours if the hash matches.
    const sha = await hashFile(file.path, run.o.signal, file.size);
    if (!priorSha || sha !== priorSha) return { kind: 'already-unproven', why: `${res.id} already holds bytes that cannot be proven to be this file's` };
    note(file, run, `the storage already holds these bytes (same SHA-256 as sent earlier); not sending again`);
    return landed(file, run, 'already-ours');
  }
  if (kind === 'url-refused') return { kind, why: 'the upload URL expired' };
  if (kind === 'reservation-gone') return { kind, why: `${res.id} no longer exists` };
  return { kind, error: new ApiError({ status: answer.status, body: answer.body, method: 'PUT', path: '(upload URL)' }) };
}

/**
 * The storage holds the bytes (a 2xx, or a 409 for bytes of the sent hash). Not journaled (#27):
 * the entry already reads `sent` with the SHA-256 of exactly these bytes (recorded before the last
 * of them left), and a re-run judges `sent` as it judged `uploaded` (resumeVerdict: the bytes may be
 * there, adopted only for the same SHA-256, then finalized). The next record is `ready`.
 */
function landed<K extends 'stored' | 'already-ours'>(file: JudgedFile, run: Run, kind: K): { kind: K } {
  run.o.onEvent?.({ type: 'sent', file: file.shown, size: file.size });
  run.state = 'uploaded';
  return { kind };
}

/** Finalize: the service takes what the storage holds; ready now, later (wait), or not yet sent (put again). */
export async function finalizeStep(file: JudgedFile, run: Run): Promise<StepAnswer<'finalize'>> {
  const res = reservationOf(run);
  let row: Row;
  try {
    row = await run.o.target.finalize(res.id, run.o.signal);
  } catch (err) {
    return finalizeRefused(file, run, res, err);
  }
  if (!run.o.target.isReady(row)) return { kind: 'processing', row };
  return readyAs(file, run, res, row);
}

/** A finalize the service refused: the refusals the flow acts on, as kinds; any other is thrown. */
async function finalizeRefused(file: JudgedFile, run: Run, res: Reservation, err: unknown): Promise<StepAnswer<'finalize'>> {
  if (!(err instanceof ApiError)) throw err;
  if (err.code === 'upload_incomplete' && (run.putSends?.left() ?? true)) {
    note(file, run, `${res.id} has no bytes yet; sending them`);
    return { kind: 'incomplete' };
  }
  // 413/415: the service deleted the row, nothing to resume.
  if (err.status === 413 || err.status === 415 || err.status === 404) {
    await forget(run, res.id);
    return { kind: 'row-deleted', error: err };
  }
  if (err.code === 'upload_incomplete') return { kind: 'sends-spent', error: err };
  throw err;
}

/** A ready row holding the file's size is recorded `ready` (before it is shown). */
async function readyAs(file: JudgedFile, run: Run, res: Reservation, row: Row): Promise<AnswerOf<'ready' | 'size-mismatch'>> {
  const landedBytes = row.sizeBytes;
  if (typeof landedBytes === 'number' && landedBytes !== file.size) {
    return {
      kind: 'size-mismatch',
      error: new UploadError(`${res.id} holds ${landedBytes} bytes but the file has ${file.size}`, 'size_mismatch', 'unexpected'),
    };
  }
  await record(file, run, 'ready');
  return { kind: 'ready', row };
}

/** Wait: poll a finalized row (`first`: finalize's answer) until it is ready, bounded by the wait timeout. */
export async function waitStep(file: JudgedFile, run: Run, first: Row): Promise<StepAnswer<'wait'>> {
  const { o } = run;
  const res = reservationOf(run);
  const id = res.id;
  note(file, run, `${id} is ${String(first.state)} after finalize; waiting until ready`);
  // Rows are checked by the target (a state of the contract); only `ready` ends it well, a 404 (gone) badly.
  const { value, outcome } = await waitFor(async (signal) => (await o.target.get(id, signal)) ?? { state: GONE }, {
    acceptors: stateAcceptors(['ready'], [GONE]),
    timeoutMs: o.waitTimeoutMs,
    // `--wait`'s pace, from the one place that says it (an upload has no --interval): soon at first, then every 2 s.
    ...pollPace(undefined),
    now: o.now,
    sleep: o.sleep,
    signal: o.signal,
  });
  if (outcome === 'success' && value) return readyAs(file, run, res, value);
  if (outcome === 'timeout') {
    const state = String((value ?? first).state);
    const message = `${id} was still ${state} after ${Math.round(o.waitTimeoutMs / 1000)} s; run the same command again later`;
    return { kind: 'timeout', error: new UploadError(message, 'wait_timeout', 'waitTimeout') };
  }
  return { kind: 'row-gone', error: new UploadError(`${id} disappeared while waiting for it to become ready`, 'upload_failed', 'unexpected') };
}

/**
 * Release, after a 413 (`tooLarge`): the storage stopped at the limit; finalize frees the
 * reservation and names the numbers. The run fails with finalize's own failure, else the 413.
 */
export async function releaseStep(file: JudgedFile, run: Run, tooLarge: Error): Promise<StepAnswer<'release'>> {
  let answer: StepAnswer<'finalize' | 'wait'> = await finalizeStep(file, run);
  if (answer.kind === 'processing') answer = await waitStep(file, run, answer.row);
  return { kind: 'released', error: 'error' in answer ? answer.error : tooLarge };
}

/** Discard: the file changed under the upload; nothing it sent may be adopted. Delete the reservation, fail (exit 7). */
export async function discardStep(file: JudgedFile, run: Run, changed: Error): Promise<StepAnswer<'discard'>> {
  const id = run.res?.id;
  if (id) await deleteReservation(run, id);
  const message = `${changed.message}; deleted the ${run.o.target.noun} ${id ?? ''} it was reserved as, nothing is kept. Upload it again once it is complete`;
  return { kind: 'discarded', error: new UploadError(message, 'file_changed', 'refused') };
}
