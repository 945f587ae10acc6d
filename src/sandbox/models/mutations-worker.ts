// Moves mutations along their machine in the transition table (lifecycle.ts):
//
//   pending ──(START_DELAY_MS after creation)──▶ running ──(APPLY_DELAY_MS later)──▶ succeeded | failed
//
// The change is applied to the simulated provider at the running → final step,
// so a live read sees it as soon as the mutation reads `succeeded`. Steps are
// taken when due, by `MutationAdvancer.advance()`: on access (the Mutations
// and Observe routes call it) and by the ticker of a serving sandbox. Each
// step is stamped with the time it fell due, so a test driving a ManualClock
// sees the same rows whenever it looks.
import type { Database } from '../store/sqlite.js';
import type { Clock } from '../clock.js';
import type { AdvertiserRecord, ProviderChange } from '../providers/types.js';
import { ownedAdvertiser } from './advertisers.js';
import { LIFECYCLES, type MutationDelays } from './lifecycle.js';
import { changeOf, requestOf } from './mutation-rows.js';
import type { MutationDbRow } from './mutation-rows.js';

// The transition table's delays: every sandbox's pace unless it was started with its own.
const TABLE: MutationDelays = { startMs: LIFECYCLES.mutation.pending.due.afterMs, applyMs: LIFECYCLES.mutation.running.due.afterMs };

export type ApplyOutcome = { ok: true; entity: unknown } | { ok: false; status: number; error: string; message: string; extra?: Record<string, unknown> };

/** applyProviderChange, bound to the services. */
export type ApplyChange = (advertiser: AdvertiserRecord, change: ProviderChange) => ApplyOutcome | Promise<ApplyOutcome>;

export interface WorkerDeps {
  db: Database;
  clock: Clock;
  apply: ApplyChange;
  /** This sandbox's delays (default: the transition table's). */
  delays?: MutationDelays | undefined;
}

/**
 * Only the due rows are read, through the partial indexes of migration 011 (schema/mutations.ts):
 * each holds one state's open rows by the time their next step counts from, so the bound on that
 * column is a range of the index. A query's WHERE must repeat an index's own condition for SQLite to
 * use it. Before, through mutations_open, a pass read every open row (#37), and before that every
 * mutation ever made (#27: a sandbox that had taken 40k mutations applied 20k rows in 46 s, against
 * 14 s fresh).
 */
export const START_DUE_SQL = `UPDATE mutations SET state = 'running', started_at = created_at + @start, updated_at = created_at + @start
  WHERE state = 'pending' AND created_at <= @now - @start`;
// Named: with `ORDER BY seq` (the rowid) SQLite prefers walking the whole table in that order to sorting the few due rows.
export const FINISH_DUE_SQL = `SELECT * FROM mutations INDEXED BY mutations_running_due WHERE state = 'running' AND started_at <= @now - @apply ORDER BY seq`;
/** The earliest creation and start of the open rows (each one step into its index), or null where none is. */
export const NEXT_DUE_SQL = `SELECT (SELECT MIN(created_at) FROM mutations WHERE state = 'pending') AS pending,
  (SELECT MIN(started_at) FROM mutations WHERE state = 'running') AS running`;

/**
 * One pass: start every due pending mutation, then finish every due running one
 * (one that became running in this pass too, if its apply step is also due).
 * Returns how many changed state. Not re-entrant (MutationAdvancer serializes
 * passes); each final step is one conditional update, so a row is applied once.
 */
export async function advanceMutations({ db, clock, apply, delays = TABLE }: WorkerDeps): Promise<number> {
  const now = clock.now();
  let moved = db.prepare(START_DUE_SQL).run({ now, start: delays.startMs }).changes;

  const due = db.prepare<[{ now: number; apply: number }], MutationDbRow>(FINISH_DUE_SQL).all({ now, apply: delays.applyMs });
  for (const row of due) {
    const outcome = await applyOne(db, apply, row);
    const at = row.started_at! + delays.applyMs;
    const done = outcome.ok
      ? db
          .prepare(`UPDATE mutations SET state = 'succeeded', result = ?, updated_at = ?, completed_at = ? WHERE id = ? AND state = 'running'`)
          .run(JSON.stringify(outcome.entity ?? null), at, at, row.id)
      : db
          .prepare(`UPDATE mutations SET state = 'failed', error = ?, updated_at = ?, completed_at = ? WHERE id = ? AND state = 'running'`)
          .run(JSON.stringify({ ...(outcome.extra ?? {}), error: outcome.error, message: outcome.message }), at, at, row.id);
    moved += done.changes;
  }
  return moved;
}

/** When the next step of any open mutation falls due (ms), or null when none is open. */
export function nextDueAt(db: Database, delays: MutationDelays = TABLE): number | null {
  const r = db.prepare<[], { pending: number | null; running: number | null }>(NEXT_DUE_SQL).get();
  const pending = r && r.pending !== null ? r.pending + delays.startMs : null;
  const running = r && r.running !== null ? r.running + delays.applyMs : null;
  if (pending === null) return running;
  return running === null ? pending : Math.min(pending, running);
}

async function applyOne(db: Database, apply: ApplyChange, row: MutationDbRow): Promise<ApplyOutcome> {
  // The connection may have changed since the mutation was accepted; the provider then refuses.
  const advertiser = ownedAdvertiser(db, row.org_id, row.advertiser_id);
  if (!advertiser) return { ok: false, status: 404, error: 'not_found', message: 'The advertiser no longer exists.' };
  if (advertiser.connection === 'not_connected') {
    return {
      ok: false,
      status: 409,
      error: 'provider_not_connected',
      message: 'The advertiser lost its provider connection before the change was applied.',
      extra: { provider: advertiser.provider },
    };
  }
  if (advertiser.connection === 'no_write_access') {
    return { ok: false, status: 403, error: 'missing_write_access', message: "The advertiser's connection lost write access before the change was applied." };
  }
  try {
    return await apply(advertiser, changeOf(requestOf(row)));
  } catch {
    // A bug in the simulation must not leave the mutation running forever.
    return {
      ok: false,
      status: 502,
      error: 'provider_error',
      message: 'The provider did not answer.',
      extra: { provider: advertiser.provider, platformError: {} },
    };
  }
}

/**
 * The one advancer of a sandbox (a typed field of its services). It knows when
 * the next step falls due, so an access with nothing due costs one comparison,
 * and it runs one pass at a time, so a change is never applied twice.
 */
export class MutationAdvancer {
  /** With this sandbox's delays settled: the table's unless it was started with its own. */
  readonly #deps: WorkerDeps & { delays: MutationDelays };
  #due: number | null;
  #pass: Promise<void> = Promise.resolve();
  /** Passes chained and not yet finished. */
  #passes = 0;

  constructor(deps: WorkerDeps) {
    this.#deps = { ...deps, delays: deps.delays ?? TABLE };
    this.#due = nextDueAt(deps.db, this.#deps.delays);
  }

  /** A mutation was created at `at`: its first step falls due the start delay later. */
  noteCreated(at: number): void {
    const due = at + this.#deps.delays.startMs;
    if (this.#due === null || due < this.#due) this.#due = due;
  }

  /** Nothing is due by now and no pass is under way: advance() would have nothing to wait for. */
  get idle(): boolean {
    return this.#passes === 0 && (this.#due === null || this.#due > this.#deps.clock.now());
  }

  /** Resolves once the passes chained so far have ended (a store is closed only after: `Runtime.stop`). */
  settled(): Promise<void> {
    return this.#pass;
  }

  /** Take every step that is due now (resolves once they are taken). */
  advance(): Promise<void> {
    if (this.#due === null || this.#due > this.#deps.clock.now()) return this.#pass;
    this.#passes++;
    this.#pass = this.#pass
      .then(async () => {
        if (this.#due === null || this.#due > this.#deps.clock.now()) return;
        try {
          await advanceMutations(this.#deps);
        } finally {
          this.#due = nextDueAt(this.#deps.db, this.#deps.delays);
        }
      })
      // A failed pass (a closed store at shutdown) must not block every later one; the request that asked still answers.
      .catch((err: unknown) => console.error('adops sandbox: advancing mutations failed:', err))
      .finally(() => {
        this.#passes--;
      });
    return this.#pass;
  }
}
