// The upload as a state machine (moto's lifecycles as transition tables): a
// step (reserve, put, finalize, wait…) answers with a KIND, and the table below
// says which step comes next. Nothing here does I/O: the steps that talk to the
// service, the storage and the journal are in upload-steps.ts, and the loop that
// joins the two is upload.ts's drive(). Also pure: how a PUT's status reads as
// an answer (putAnswerKind), and where an earlier run's journal entry resumes
// (resumeVerdict), so each decision of the flow can be read, and tested, here.
import type { Row } from './upload-targets.js';

/** What a step does next; a fresh upload takes reserve → put → finalize (→ wait) → ready. */
export type Step =
  /** Make a reservation (its upload URL takes the bytes). */
  | 'reserve'
  /** Delete the current reservation, then reserve anew (bounded: RENEWALS). */
  | 'renew'
  /** Send the bytes to the upload URL. */
  | 'put'
  /** Ask the service to finalize what the storage holds. */
  | 'finalize'
  /** Poll until a finalized row is ready. */
  | 'wait'
  /** After a PUT the storage refused as too large: finalize, so the service frees the reservation. */
  | 'release'
  /** The file changed under the upload: delete its reservation, keep nothing. */
  | 'discard';

/** What an answer of each kind carries: for the next step, or what the run fails with. */
interface Carried {
  reserved: Record<never, never>;
  stored: Record<never, never>;
  'already-ours': Record<never, never>;
  incomplete: Record<never, never>;
  /** Grounds for a new reservation (said in the note, and in the failure once the renewals are spent). */
  'url-expired': { why: string };
  'url-refused': { why: string };
  'reservation-gone': { why: string };
  'already-unproven': { why: string };
  ready: { row: Row };
  processing: { row: Row };
  /** What discard is told. */
  'file-changed': { error: Error };
  /** The rest: what the run fails with. */
  'too-large': { error: Error };
  refused: { error: Error };
  'sends-spent': { error: Error };
  'row-deleted': { error: Error };
  'size-mismatch': { error: Error };
  timeout: { error: Error };
  'row-gone': { error: Error };
  released: { error: Error };
  discarded: { error: Error };
}

export type AnswerKind = keyof Carried;

/** A step's answer: its kind picks the next step. */
export type Answer = { [K in AnswerKind]: { kind: K } & Carried[K] }[AnswerKind];

/** Where an answer leads: a step, or the end (ready: the row; fail: the answer's error). */
export type Next = Step | 'ready' | 'fail';

/**
 * Each step × each answer it can give → the next step. A step's code can only answer the
 * kinds of its row (StepAnswer), so a kind without a cell here does not compile.
 */
export const TRANSITIONS = {
  reserve: { reserved: 'put', 'file-changed': 'discard' },
  renew: { reserved: 'put', 'file-changed': 'discard' },
  put: {
    /** 2xx: the storage holds the bytes. */
    stored: 'finalize',
    /** 409 upload_already_received, and the bytes an earlier attempt sent had this file's SHA-256. */
    'already-ours': 'finalize',
    /** 409 upload_already_received, with no proof the bytes there are this file's. */
    'already-unproven': 'renew',
    /** The URL cannot start a PUT within EXPIRY_MARGIN_MS (judged before sending). */
    'url-expired': 'renew',
    /** 403 upload_url_expired. */
    'url-refused': 'renew',
    /** 404: the reservation no longer exists. */
    'reservation-gone': 'renew',
    /** 413: finalize frees the reservation and names the numbers, then the run fails. */
    'too-large': 'release',
    /** Any other status. */
    refused: 'fail',
    'file-changed': 'discard',
  },
  finalize: {
    ready: 'ready',
    /** A state before ready (e.g. uploaded, processing). */
    processing: 'wait',
    /** 409 upload_incomplete, with sends left on this URL's budget. */
    incomplete: 'put',
    /** 409 upload_incomplete, the budget spent. */
    'sends-spent': 'fail',
    /** 413, 415 or 404: the service deleted the row (forgotten in the journal). */
    'row-deleted': 'fail',
    /** Ready, but not holding the file's size. */
    'size-mismatch': 'fail',
  },
  wait: { ready: 'ready', 'size-mismatch': 'fail', timeout: 'fail', 'row-gone': 'fail' },
  release: { released: 'fail' },
  discard: { discarded: 'fail' },
} as const satisfies { [S in Step]: Partial<Record<AnswerKind, Next>> };

/** The answers a step may give: the kinds of its row of the table. */
export type StepAnswer<S extends Step> = S extends Step ? Extract<Answer, { kind: keyof (typeof TRANSITIONS)[S] }> : never;

/** The answers of one kind or some. */
export type AnswerOf<K extends AnswerKind> = Extract<Answer, { kind: K }>;

/** New reservations one upload may make after its first (an expired URL, a reservation gone). */
export const RENEWALS = 2;

/** Where an upload stands: its step, and how many renewals it took. */
export interface Position {
  step: Step;
  renewals: number;
}

/** The next position, or the end: `gave-up` when a renewal is due and RENEWALS are spent. */
export function advance(at: Position, answer: Answer): Position | 'ready' | 'fail' | 'gave-up' {
  const row: Partial<Record<AnswerKind, Next>> = TRANSITIONS[at.step];
  const next = row[answer.kind];
  if (next === undefined) throw new Error(`the upload has no step after ${at.step} answered ${answer.kind}`);
  if (next === 'ready' || next === 'fail') return next;
  if (next !== 'renew') return { step: next, renewals: at.renewals };
  return at.renewals < RENEWALS ? { step: 'renew', renewals: at.renewals + 1 } : 'gave-up';
}

/** How the storage's answer to a PUT reads; `already-received` is settled by hash (ours or unproven) in the put step. */
export function putAnswerKind(status: number, code: unknown): 'stored' | 'already-received' | 'url-refused' | 'reservation-gone' | 'too-large' | 'refused' {
  if (status >= 200 && status < 300) return 'stored';
  if (status === 409 && code === 'upload_already_received') return 'already-received';
  if (status === 403 && code === 'upload_url_expired') return 'url-refused';
  if (status === 404) return 'reservation-gone';
  if (status === 413) return 'too-large';
  return 'refused';
}

/** A reservation whose URL cannot start a PUT within this margin is treated as expired. */
export const EXPIRY_MARGIN_MS = 10_000;

export const urlUsable = (res: { uploadUrl: string; uploadExpiresAt: number } | undefined, now: number): boolean =>
  !!res?.uploadUrl && res.uploadExpiresAt - EXPIRY_MARGIN_MS > now;

/** What an earlier run's entry (whose row the service still has) means for this run. */
export type ResumeVerdict =
  /** The row is ready with these bytes: show it, send nothing. */
  | 'show'
  /** These bytes landed: finalize without sending them again. */
  | 'finalize'
  /** Its URL is still good for these bytes: send them to it. */
  | 'put'
  /** A ready row of other bytes (someone's real file): keep it, forget the entry, upload anew. */
  | 'forget'
  /** Bytes landed that cannot be proven to be this file's: delete the row, upload anew. */
  | 'delete-unproven'
  /** Nothing to continue (URL expired, or a reservation made for another name or type): delete it, upload anew. */
  | 'delete';

export interface EntryFacts {
  /** The journal's state of the entry. */
  entryState: string;
  /** The SHA-256 recorded as sent to it, if any. */
  sentSha256: string | undefined;
  /** The row's state on the service, and whether the target reads that as ready. */
  rowState: unknown;
  rowReady: boolean;
  /** The SHA-256 the service shows for the row, if it shows one. */
  serviceSha256: string | undefined;
  /** This file's SHA-256. */
  sha256: string;
  /** The reservation was made for this file's name and type (only then may its URL take these bytes). */
  mayResend: boolean;
  /** Its upload URL can still start a PUT. */
  urlUsable: boolean;
}

/** Bytes are adopted only for the very same content: the service's checksum when it shows one, else our record. */
export function resumeVerdict(f: EntryFacts): ResumeVerdict {
  const landed = f.entryState === 'sent' || f.entryState === 'uploaded' || f.entryState === 'ready' || f.rowState === 'uploaded' || f.rowReady;
  if (landed) {
    const same = f.serviceSha256 ? f.serviceSha256 === f.sha256 : f.sentSha256 === f.sha256;
    if (same && f.rowReady) return 'show';
    if (same && f.mayResend) return 'finalize';
    // The same bytes in a reservation made for another name or type fall through: not finished under that name.
    if (!same && f.rowReady) return 'forget';
    if (!same && f.rowState === 'uploaded') return 'delete-unproven';
  }
  return f.mayResend && f.urlUsable ? 'put' : 'delete';
}
