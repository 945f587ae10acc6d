// The worker that moves mutations through their states:
//
//   pending ──(START_DELAY_MS after creation)──▶ running ──(APPLY_DELAY_MS later)──▶ succeeded | failed
//
// The change is applied to the simulated provider at the running → final step,
// so a live read sees it as soon as the mutation reads `succeeded`. Delays are
// measured on the sandbox clock, so a test with a ManualClock decides exactly
// when each step happens; the worker itself only polls (services.every).
import type { Database } from 'better-sqlite3';
import type { Clock } from '../http/context.js';
import type { AdvertiserRecord, ProviderChange } from '../providers/types.js';
import type { CreateMutation } from '../../contract/schemas/mutations.js';
import { ownedAdvertiser } from './advertisers.js';
import { changeOf } from './mutations.js';
import type { MutationDbRow } from './mutations.js';

export const START_DELAY_MS = 200;
export const APPLY_DELAY_MS = 300;
export const WORKER_POLL_MS = 25;

export type ApplyOutcome =
  | { ok: true; entity: unknown }
  | { ok: false; status: number; error: string; message: string; extra?: Record<string, unknown> };

/** The observe engineer's applyProviderChange, bound to the services. */
export type ApplyChange = (advertiser: AdvertiserRecord, change: ProviderChange) => ApplyOutcome | Promise<ApplyOutcome>;

export interface WorkerDeps {
  db: Database;
  clock: Clock;
  apply: ApplyChange;
}

/**
 * One pass: start every due pending mutation, then finish every due running one.
 * Returns how many changed state. Not re-entrant (the caller guards); each
 * mutation's final step is one conditional update, so a row is applied once.
 */
export async function advanceMutations({ db, clock, apply }: WorkerDeps): Promise<number> {
  const now = clock.now();
  let moved = db
    .prepare(`UPDATE mutations SET state = 'running', started_at = @now, updated_at = @now WHERE state = 'pending' AND created_at + @delay <= @now`)
    .run({ now, delay: START_DELAY_MS }).changes;

  const due = db
    .prepare(`SELECT * FROM mutations WHERE state = 'running' AND started_at + ? <= ? ORDER BY seq`)
    .all(APPLY_DELAY_MS, now) as MutationDbRow[];
  for (const row of due) {
    const outcome = await applyOne(db, apply, row);
    const at = clock.now();
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

async function applyOne(db: Database, apply: ApplyChange, row: MutationDbRow): Promise<ApplyOutcome> {
  // The connection may have changed since the mutation was accepted; the provider then refuses.
  const advertiser = ownedAdvertiser(db, row.org_id, row.advertiser_id);
  if (!advertiser) return { ok: false, status: 404, error: 'not_found', message: 'The advertiser no longer exists.' };
  if (advertiser.connection === 'not_connected') {
    return { ok: false, status: 409, error: 'provider_not_connected', message: 'The advertiser lost its provider connection before the change was applied.', extra: { provider: advertiser.provider } };
  }
  if (advertiser.connection === 'no_write_access') {
    return { ok: false, status: 403, error: 'missing_write_access', message: "The advertiser's connection lost write access before the change was applied." };
  }
  try {
    return await apply(advertiser, changeOf(JSON.parse(row.request) as CreateMutation));
  } catch {
    // A bug in the simulation must not leave the mutation running forever.
    return { ok: false, status: 502, error: 'provider_error', message: 'The provider did not answer.', extra: { provider: advertiser.provider, platformError: {} } };
  }
}

const running = new WeakMap<object, true>();

/** Start polling for this services object, once (later calls are no-ops). */
export function startMutationWorker(services: { db: Database; clock: Clock; every(ms: number, fn: () => void): void }, apply: ApplyChange): void {
  if (running.has(services)) return;
  running.set(services, true);
  let busy = false;
  services.every(WORKER_POLL_MS, () => {
    if (busy) return;
    busy = true;
    advanceMutations({ db: services.db, clock: services.clock, apply })
      .catch(() => undefined)
      .finally(() => {
        busy = false;
      });
  });
}
