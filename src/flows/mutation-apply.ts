// Many changes at once (`mutations apply`): a bounded pool of workers, each
// row through the start flow with its own Idempotency-Key taken from (or first
// written to) the journal. Rate limits are the client's one retry policy: it
// waits out 429 and a provider's throttling (Retry-After honoured) and sends
// the row again with the same key, within its bound on sends per request; the
// workers share one ThrottleGate, so while one waits, the pool waits. A row
// still refused after that is refused (no second retry loop around the first).
// No terminal code: progress through onNote, results as data.
import { randomUUID } from 'node:crypto';
import { ApiError, NetworkError } from '../client/errors.js';
import { commandName } from '../contract/command-line.js';
import type { ApiClient } from '../client/http.js';
import { realRetryDeps, ThrottleGate } from '../client/retry.js';
import { MUTATION_STATE_WORDS, UnexpectedAnswerError } from '../client/answer-check.js';
import { MUTATION_ACCEPTORS, stateOf, waitFor } from '../client/waiter.js';
import type { PollPace } from '../client/poll-pace.js';
import { Journal } from '../state/mutation-journal.js';
import { bodyHash, rowIds } from './mutation-match.js';
import { OutcomeUnknownError, startMutation, type StartOptions } from './mutation-start.js';
import { runPool, runWorkers } from './pool.js';

type Obj = Record<string, unknown>;

export interface ApplyRow {
  line: number;
  body: Obj;
}

/** The words adops uses, or a state word the service sent (`string & {}` keeps the words named). */
export type RowState = 'pending' | 'running' | 'succeeded' | 'failed' | 'refused' | 'unknown' | 'not sent' | typeof UNEXPECTED | (string & {});

/** A started row whose poll answered something without a state of the contract (exit 1). */
export const UNEXPECTED = 'unexpected answer';

export interface RowOutcome {
  line: number;
  row: string;
  mutationId?: string;
  state: RowState;
  error?: string;
  /** A refusal from the service: its status and code (for the exit code, the answer table's row). */
  status?: number;
  code?: string;
  /** Started by an earlier run (found in the journal), not sent now. */
  earlier?: boolean;
}

export interface ApplyOptions {
  journal: Journal;
  concurrency: number;
  signal?: AbortSignal;
  onNote?: (m: string) => void;
  now?: () => number;
  sleep?: (ms: number, signal?: AbortSignal) => Promise<void>;
  /** Send again, as a new change with a new key, rows whose mutation failed (it changed nothing). */
  retryFailed?: boolean;
}

const isStartState = (v: unknown): v is string => typeof v === 'string' && MUTATION_STATE_WORDS.some((w) => w === v);

/** A row in doubt longer than this may have outlived its Idempotency-Key (kept 24 h): never resent blindly. */
export const KEY_SAFE_MS = 23 * 60 * 60 * 1000;

/** Row identities in file order, as rowIds gives them for the whole list (a repeat numbered by occurrence). */
export function rowIdsInOrder(): (body: Obj) => string {
  const seen = new Map<string, number>();
  return (body) => {
    const h = bodyHash(body);
    const n = (seen.get(h) ?? 0) + 1;
    seen.set(h, n);
    return `${h}#${n}`;
  };
}

/** Rows read and recorded ahead of the sends, in multiples of the concurrency (see streamRows). */
const BATCHES_AHEAD = 4;
/** The longest an answer's journal line waits for a commit. */
const ANSWER_COMMIT_MS = 25;

export interface StreamOptions {
  /** The row's identity, called once per row in file order (default: counted here, as rowIds does). */
  idOf?: (body: Obj) => string;
  /**
   * Each outcome, in row order, as soon as it and every row before it are done; then it is
   * dropped (nothing per row is kept, so memory is bounded by the rows in flight, not the file).
   */
  onOutcome: (outcome: RowOutcome, row: ApplyRow) => void | Promise<void>;
}

/** Every row's outcome, in row order (held: the caller polls them with waitRows, say). */
export async function applyRows(client: ApiClient, rows: readonly ApplyRow[], opts: ApplyOptions): Promise<RowOutcome[]> {
  const ids = rowIds(rows.map((r) => r.body));
  let k = 0;
  const outcomes: RowOutcome[] = [];
  await streamRows(client, rows, { ...opts, idOf: () => ids[k++]!, onOutcome: (o) => void outcomes.push(o) });
  // A stop before every row was read: the others are `not sent` too.
  for (let i = outcomes.length; i < rows.length; i++) outcomes.push({ line: rows[i]!.line, row: ids[i]!, state: 'not sent' });
  return outcomes;
}

type Send = { idempotencyKey: string; firstSentAt: number };
interface Slot {
  row: ApplyRow;
  out: RowOutcome;
  /** The key it is sent with (undefined: nothing to send). */
  send: Send | undefined;
  /**
   * Resolves once the row's key line is on disk: its batch's commit, one promise for the batch's rows
   * (#37 session 6: not a promise and its handler per row).
   */
  committed: Promise<void>;
  done: boolean;
}

/** What every step of one run reads. */
interface Run {
  client: ApiClient;
  opts: ApplyOptions & StreamOptions;
  now: () => number;
  sleep: (ms: number, signal?: AbortSignal) => Promise<void>;
  idOf: (body: Obj) => string;
  /** While one worker waits out throttling, the others hold their next send too. */
  gate: ThrottleGate;
  /** The answers' lines waiting for a commit (a batch's commit takes them too). */
  answers: AnswerCommits;
}

/** The `committed` of every row with nothing to send (one promise for all of them). */
const NOTHING_TO_COMMIT: Promise<void> = Promise.resolve();

/**
 * What a row needs, judged from the journal: nothing (started by an earlier run, or in doubt for
 * longer than its key is kept), or a send. For a send its key line is appended to the journal now
 * the worker sends it once `committed` (its batch's commit) put it on disk.
 */
function prepare(run: Run, r: ApplyRow, committed: Promise<void>): Slot {
  const { journal, onNote } = run.opts;
  const { line } = r;
  const row = run.idOf(r.body);
  const out: RowOutcome = { line, row, state: 'not sent' };
  const recorded = journal.get(row);
  // A failed mutation changed nothing: with --retry-failed its row starts over with a new key.
  const prior = recorded?.mutationId && recorded.state === 'failed' && run.opts.retryFailed ? undefined : recorded;
  if (prior?.mutationId) {
    Object.assign(out, { mutationId: prior.mutationId, state: prior.state ?? 'pending', earlier: true });
    return { row: r, out, send: undefined, committed: NOTHING_TO_COMMIT, done: false };
  }
  if (prior && run.now() - prior.firstSentAt > KEY_SAFE_MS) {
    Object.assign(out, {
      state: 'unknown',
      error: `in doubt since ${new Date(prior.firstSentAt).toISOString()}; its Idempotency-Key ${prior.idempotencyKey} may have expired: check \`${commandName('listMutations')}\` before sending it again`,
    });
    return { row: r, out, send: undefined, committed: NOTHING_TO_COMMIT, done: false };
  }
  const idempotencyKey = prior?.idempotencyKey ?? randomUUID();
  const firstSentAt = prior?.firstSentAt ?? run.now();
  if (prior) onNote?.(`line ${line}: in doubt from an earlier run; sending again with its Idempotency-Key`);
  else if (recorded) onNote?.(`line ${line}: its change ${String(recorded.mutationId)} failed; sending it again as a new change (new Idempotency-Key)`);
  // On disk before the POST (the worker awaits `committed`): a kill right after it still leaves the key to resend with.
  journal.note({ row, line, idempotencyKey, firstSentAt, mutationId: null, state: 'sending' });
  return { row: r, out, send: { idempotencyKey, firstSentAt }, committed, done: false };
}

/** Rows a batch at a time (a CSV slice's rows): read with one await per batch, not per row. */
export type RowBatches = AsyncIterator<readonly ApplyRow[]> | Iterator<readonly ApplyRow[]>;

/** A list is one batch; a stream of rows one batch per row. */
function batchesOf(rows: Iterable<ApplyRow> | AsyncIterable<ApplyRow>): RowBatches {
  if (Symbol.asyncIterator in rows) return oneByOne(rows);
  return [Array.from(rows)][Symbol.iterator]();
}

async function* oneByOne(rows: AsyncIterable<ApplyRow>): AsyncGenerator<readonly ApplyRow[]> {
  for await (const r of rows) yield [r];
}

/**
 * The rows, read and prepared ahead of the sends. Keys are recorded a batch at a time with one
 * commit (one write and one fsync) per batch: when no more than `low` rows wait, the next batch is
 * read up to `high` and its commit runs while the rows before it are in flight, off the path of
 * every POST. One commit per row (each POST awaiting its own, the ones arriving during an fsync
 * sharing the next) made ~0.37 commits per row, each two round trips through libuv's thread pool.
 * A run stopped early leaves at most `high` rows "in doubt" that were never sent: resent with
 * their keys, they are made once all the same.
 */
class ReadAhead {
  /** Prepared, not yet taken by a worker. */
  private readonly waiting: Slot[] = [];
  private ended = false;
  private reading: Promise<void> = Promise.resolve();
  private readonly high: number;
  /** The batch being read, and the next of its rows to prepare. */
  private batch: readonly ApplyRow[] = [];
  private at = 0;

  constructor(
    private readonly run: Run,
    private readonly source: RowBatches,
    private readonly low: number,
    /** Each row as it is prepared, in file order. */
    private readonly onRead: (slot: Slot) => void,
  ) {
    this.high = low * BATCHES_AHEAD;
  }

  /**
   * The next row to send, in file order; undefined once the rows end. A promise only when no row
   * waits (#37 session 6: not an async function's promise and microtask per row).
   */
  take(): Slot | undefined | Promise<Slot | undefined> {
    if (!this.ended && this.waiting.length <= this.low) {
      const next = this.fill();
      // Rows still wait: take one now, the batch is read meanwhile (a failed read is met by the
      // worker that next finds no row waiting: `reading` keeps the failure).
      if (this.waiting.length === 0) return next.then(() => this.waiting.shift());
      next.catch(() => undefined);
    }
    return this.waiting.shift();
  }

  /** One reader at a time: the batch after the one being read. */
  private fill(): Promise<void> {
    this.reading = this.reading.then(() => this.readBatch());
    return this.reading;
  }

  /** Reads until `high` rows wait or the rows end; then commits the batch's key lines. */
  private async readBatch(): Promise<void> {
    let settle!: (commit: Promise<void>) => void;
    const committed = new Promise<void>((resolve) => (settle = resolve));
    // Awaited by the workers of its rows; a run stopped before that must not leave it unhandled.
    committed.catch(() => undefined);
    /** Whether the batch holds a row to send (a batch of rows recorded earlier commits nothing). */
    let toCommit = false;
    try {
      while (!this.ended && this.waiting.length < this.high) {
        if (this.at === this.batch.length) {
          const r = await this.source.next();
          if (r.done) {
            this.ended = true;
            break;
          }
          this.batch = r.value;
          this.at = 0;
          continue;
        }
        const slot = prepare(this.run, this.batch[this.at++]!, committed);
        if (slot.send) toCommit = true;
        this.waiting.push(slot);
        this.onRead(slot);
      }
    } finally {
      // A read that failed still commits what it recorded (its rows are not sent: the run stops).
      // The answers noted so far ride with this commit: their own timer is not needed for them (#37 session 14).
      if (toCommit) this.run.answers.committing();
      settle(toCommit ? this.run.opts.journal.commit() : Promise.resolve());
    }
  }
}

/** Every row read, handed to onOutcome in file order as soon as it and every row before it are done. */
class InOrder {
  /** Read, not yet handed on (held until every row before it is done). */
  private readonly slots: Slot[] = [];
  /** The hand-on under way while an onOutcome's promise is awaited (it goes on to every row done meanwhile). */
  private handing: Promise<void> | undefined;

  constructor(private readonly onOutcome: StreamOptions['onOutcome']) {}

  add(slot: Slot): void {
    this.slots.push(slot);
  }

  /**
   * Hands every finished row at the head on, one at a time. Synchronous while onOutcome is (#37
   * session 6: a promise chain link and an async function per row before); else the promise of
   * the hand-on under way, which reaches every row done before it ends.
   */
  handOn(): Promise<void> | undefined {
    if (this.handing) return this.handing;
    while (this.slots[0]?.done) {
      const s = this.slots.shift()!;
      let pending: void | Promise<void>;
      try {
        pending = this.onOutcome(s.out, s.row);
      } catch (err) {
        // Thrown at once (stdout closed): the answer of every later hand-on too, as for a failed promise.
        pending = Promise.reject(err instanceof Error ? err : new Error(String(err)));
      }
      if (pending) {
        // A failed onOutcome stays the answer of every later hand-on, as the run stops.
        this.handing = pending.then(() => {
          this.handing = undefined;
          return this.handOn();
        });
        return this.handing;
      }
    }
    return undefined;
  }

  /** After a stop: rows read but not sent still go out, in order, as they are (`not sent`). */
  async handAll(): Promise<void> {
    for (const s of this.slots) s.done = true;
    await this.handOn();
  }
}

/**
 * An answer's line rides with the next batch's commit, or at the latest ANSWER_COMMIT_MS after it
 * was noted: a crash then loses only the last moment's answers (those rows are resent with their
 * keys), for a handful of commits per second rather than one per answer.
 */
class AnswerCommits {
  private timer: NodeJS.Timeout | undefined;

  constructor(private readonly journal: Journal) {}

  answered(): void {
    this.timer ??= setTimeout(() => {
      this.timer = undefined;
      // A commit that fails here fails again at the next batch or at the end (flush), which report it.
      this.journal.commit().catch(() => undefined);
    }, ANSWER_COMMIT_MS);
  }

  /**
   * A batch's commit is starting: it writes every line noted before it, so the timer of the
   * answers noted so far goes (the next answer sets a new one). At a few hundred rows a second a
   * batch commits every few ms, and a timer's commit of its own was ~a third of a run's fsyncs.
   */
  committing(): void {
    clearTimeout(this.timer);
    this.timer = undefined;
  }

  stop(): void {
    clearTimeout(this.timer);
  }
}

/** One row through the start flow with its recorded key; its outcome (and journal line) from the answer. */
async function send(run: Run, slot: Slot): Promise<void> {
  const answers = run.answers;
  const sendInfo = slot.send;
  if (!sendInfo) return;
  await slot.committed;
  const { opts } = run;
  const { line, body } = slot.row;
  const { row } = slot.out;
  const out = slot.out;
  const { idempotencyKey, firstSentAt } = sendInfo;
  try {
    const onNote = opts.onNote;
    const start: StartOptions = { idempotencyKey, lookupPages: 0, sleep: run.sleep, gate: run.gate, signal: opts.signal };
    if (onNote) start.onNote = (m: string) => onNote(`line ${line}: ${m}`);
    const { mutation } = await startMutation(run.client, body, start);
    // The id is checked (an answer without one is "could not tell", below); a state word the
    // contract does not know is not recorded as final: the row is pending until a poll says more.
    const state = isStartState(mutation.state) ? mutation.state : 'pending';
    opts.journal.note({ row, line, idempotencyKey, firstSentAt, mutationId: mutation.id, state });
    answers.answered();
    out.mutationId = mutation.id;
    out.state = state;
  } catch (err) {
    if (opts.signal?.aborted) throw err;
    if (err instanceof OutcomeUnknownError) return void Object.assign(out, { state: 'unknown', error: `${err.message}; re-run to send it again with its key` });
    if (err instanceof NetworkError) return void Object.assign(out, { state: 'not sent', error: err.message });
    if (err instanceof ApiError) {
      opts.journal.note({ row, line, idempotencyKey, firstSentAt, mutationId: null, state: 'refused', error: err.code });
      answers.answered();
      return void Object.assign(out, { state: 'refused', error: `${err.code}: ${err.message}`, status: err.status, code: err.code });
    }
    throw err;
  }
}

/**
 * The rows, read one at a time from `rows` (a list, or a stream of a file), sent by a bounded
 * pool and handed to `onOutcome` in order: parse, send, record, drop.
 */
export function streamRows(client: ApiClient, rows: Iterable<ApplyRow> | AsyncIterable<ApplyRow>, opts: ApplyOptions & StreamOptions): Promise<void> {
  return streamRowBatches(client, batchesOf(rows), opts);
}

/** streamRows with the rows a batch at a time (a file's rows as readRowBatches parses them). */
export async function streamRowBatches(client: ApiClient, batches: RowBatches, opts: ApplyOptions & StreamOptions): Promise<void> {
  const run: Run = {
    client,
    opts,
    now: opts.now ?? Date.now,
    sleep: opts.sleep ?? realRetryDeps.sleep,
    idOf: opts.idOf ?? rowIdsInOrder(),
    gate: new ThrottleGate(),
    answers: new AnswerCommits(opts.journal),
  };
  const { answers } = run;
  const inOrder = new InOrder(opts.onOutcome);
  const concurrency = Math.max(1, opts.concurrency);
  const rowsAhead = new ReadAhead(run, batches, concurrency, (slot) => inOrder.add(slot));
  // A worker that fails (stdout closed under the rows, say) stops the others taking rows; the sends under way end
  // and their answers are noted before the journal's last flush below.
  const worker = async (stop: AbortSignal) => {
    while (!opts.signal?.aborted && !stop.aborted) {
      const taken = rowsAhead.take();
      const slot = taken instanceof Promise ? await taken : taken;
      if (!slot) return;
      await send(run, slot);
      slot.done = true;
      const handing = inOrder.handOn();
      if (handing) await handing;
    }
  };
  try {
    await runWorkers(concurrency, worker);
    await inOrder.handAll();
  } finally {
    answers.stop();
    // The answers' lines not yet committed: on disk before the run reports (and after a failure).
    opts.journal.flush();
  }
}

/** How far apart each row's polls are: the PollPace (client/poll-pace.ts) of its fields. */
export interface WaitRowsOptions extends PollPace {
  journal: Journal;
  concurrency: number;
  timeoutMs: number;
  now: () => number;
  sleep: (ms: number, signal?: AbortSignal) => Promise<void>;
  signal?: AbortSignal;
}

/** Poll every started row to its end (one deadline for all); the journal keeps each final state. */
export async function waitRows(client: ApiClient, outcomes: RowOutcome[], opts: WaitRowsOptions): Promise<void> {
  const deadline = opts.now() + opts.timeoutMs;
  const todo = outcomes.filter((o) => o.mutationId && !['succeeded', 'failed'].includes(o.state));
  const waitOne = async (o: RowOutcome, stop: AbortSignal): Promise<void> => {
    const id = o.mutationId ?? '';
    let waited;
    try {
      // A poll that failed stops the others (runPool): none goes on after the command ended.
      const signal = opts.signal ? AbortSignal.any([opts.signal, stop]) : stop;
      waited = await waitFor((s) => client.call('getMutation', { params: { id } }, { signal: s }), {
        acceptors: MUTATION_ACCEPTORS,
        view: 'mutationPolled',
        timeoutMs: Math.max(0, deadline - opts.now()),
        intervalMs: opts.intervalMs,
        firstMs: opts.firstMs,
        now: opts.now,
        sleep: opts.sleep,
        signal,
      });
    } catch (err) {
      // An answer without a state of the contract: this row's end is not known (the others go on).
      if (!(err instanceof UnexpectedAnswerError)) throw err;
      Object.assign(o, { state: UNEXPECTED, error: err.message });
      return;
    }
    const { value, outcome } = waited;
    o.state = stateOf(value) ?? o.state;
    const err = value?.error;
    if (outcome === 'failure' && err) o.error = `${err.error ?? 'failed'}${err.message ? `: ${err.message}` : ''}`;
    const prior = opts.journal.get(o.row);
    if (prior) opts.journal.note({ ...prior, state: o.state });
  };
  try {
    await runPool(todo, opts.concurrency, waitOne, opts.signal);
  } finally {
    opts.journal.flush();
  }
}
