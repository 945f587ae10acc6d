// The mutation worker on its own (no HTTP): a fake provider stands in for
// applyProviderChange so the worker's own rules can be seen in isolation.
// (The HTTP tests use the real provider simulation.)
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { openDatabase } from '../../../src/sandbox/store/db.js';
import type { Database } from '../../../src/sandbox/store/db.js';
import { ManualClock } from '../clock.js';
import { createServices } from '../../../src/sandbox/services.js';
import { scopeFor } from '../../../src/sandbox/models/scope.js';
import { advanceMutations, FINISH_DUE_SQL, NEXT_DUE_SQL, nextDueAt, START_DUE_SQL } from '../../../src/sandbox/models/mutations-worker.js';
import { APPLY_DELAY_MS, START_DELAY_MS } from '../../../src/sandbox/models/lifecycle.js';
import type { ApplyChange } from '../../../src/sandbox/models/mutations-worker.js';
import { changeOf } from '../../../src/sandbox/models/mutation-rows.js';
import { startMutation } from '../../../src/sandbox/models/mutations.js';
import { canonicalJson } from '../../../src/contract/canonical-json.js';
import type { CreateMutation } from '../../../src/contract/schemas/mutations.js';

let db: Database;
const clock = new ManualClock();
/** The caller's scope over this test's store (no uploads here: a files directory never created). */
const scope = () =>
  scopeFor(createServices({ db, clock, secret: Buffer.alloc(32), dataDir: null, filesDir: '/nonexistent/adops-test-files' }), {
    orgId: 'org_1',
    memberId: 'mem_1',
  });

beforeEach(() => {
  db = openDatabase(':memory:');
  db.prepare(`INSERT INTO organizations (id, name, subscribed, paywall_url) VALUES ('org_1', 'o', 1, 'https://x')`).run();
  db.prepare(
    `INSERT INTO advertisers (id, org_id, provider, name, currency, connection) VALUES ('acc_1', 'org_1', 'provider_a', 'a', 'USD', 'connected')`,
  ).run();
});
afterEach(() => db.close());

const pause: CreateMutation = { advertiserId: 'acc_1', target: { type: 'campaign', id: '7' }, action: 'pause' };
const stateOf = (id: string) => db.prepare('SELECT state, error FROM mutations WHERE id = ?').get(id) as { state: string; error: string | null };

describe('advanceMutations', () => {
  it('moves pending → running → succeeded on the clock, applying the change exactly once', async () => {
    const calls: unknown[] = [];
    const apply: ApplyChange = (_adv, change) => {
      calls.push(change);
      return { ok: true, entity: { id: '7', status: 'PAUSED' } };
    };
    const { mutation } = startMutation(scope(), pause);
    await advanceMutations({ db, clock, apply });
    expect(stateOf(mutation.id).state).toBe('pending');
    clock.advance(START_DELAY_MS);
    await advanceMutations({ db, clock, apply });
    expect(stateOf(mutation.id).state).toBe('running');
    clock.advance(APPLY_DELAY_MS - 1);
    await advanceMutations({ db, clock, apply });
    expect(calls).toHaveLength(0);
    clock.advance(1);
    await advanceMutations({ db, clock, apply });
    await advanceMutations({ db, clock, apply });
    expect(stateOf(mutation.id).state).toBe('succeeded');
    expect(calls).toEqual([{ entityType: 'campaign', entityId: '7', status: 'PAUSED' }]);
  });

  it('records a refusal as failed with the error body (extra fields kept, error and message win)', async () => {
    const apply: ApplyChange = () => ({
      ok: false,
      status: 502,
      error: 'provider_error',
      message: 'no',
      extra: { provider: 'provider_a', platformError: { code: 2 }, error: 'ignored' },
    });
    const { mutation } = startMutation(scope(), pause);
    clock.advance(START_DELAY_MS);
    await advanceMutations({ db, clock, apply });
    clock.advance(APPLY_DELAY_MS);
    await advanceMutations({ db, clock, apply });
    const row = stateOf(mutation.id);
    expect(row.state).toBe('failed');
    expect(JSON.parse(row.error!)).toEqual({ error: 'provider_error', message: 'no', provider: 'provider_a', platformError: { code: 2 } });
  });

  it('never leaves a mutation running when the provider simulation throws', async () => {
    const apply: ApplyChange = () => {
      throw new Error('bug');
    };
    const { mutation } = startMutation(scope(), pause);
    clock.advance(START_DELAY_MS + APPLY_DELAY_MS);
    await advanceMutations({ db, clock, apply });
    clock.advance(APPLY_DELAY_MS);
    await advanceMutations({ db, clock, apply });
    expect(stateOf(mutation.id).state).toBe('failed');
  });

  it('fails without calling the provider when the connection was lost after acceptance', async () => {
    let called = false;
    const apply: ApplyChange = () => {
      called = true;
      return { ok: true, entity: {} };
    };
    const { mutation } = startMutation(scope(), pause);
    db.prepare(`UPDATE advertisers SET connection = 'no_write_access'`).run();
    clock.advance(START_DELAY_MS);
    await advanceMutations({ db, clock, apply });
    clock.advance(APPLY_DELAY_MS);
    await advanceMutations({ db, clock, apply });
    expect(called).toBe(false);
    expect(JSON.parse(stateOf(mutation.id).error!).error).toBe('missing_write_access');
  });
});

describe('request helpers', () => {
  it('maps each action to the provider change', () => {
    const base = { advertiserId: 'acc_1', target: { type: 'ad_group' as const, id: '9' } };
    expect(changeOf({ ...base, action: 'archive' })).toMatchObject({ entityType: 'ad_group', entityId: '9', status: 'ARCHIVED' });
    expect(changeOf({ ...base, action: 'activate' }).status).toBe('ACTIVE');
    expect(changeOf({ ...base, action: 'delete' }).status).toBe('DELETED');
    expect(changeOf({ ...base, action: 'set_budget', budget: { amount: 5 } })).toEqual({ entityType: 'ad_group', entityId: '9', budget: { amount: 5 } });
    expect(changeOf({ ...base, action: 'set_bid', bidAmount: 1 })).toEqual({ entityType: 'ad_group', entityId: '9', bidAmount: 1 });
  });

  it('canonical JSON ignores key order and undefined', () => {
    expect(canonicalJson({ b: 1, a: { d: [1, { y: 2, x: 1 }], c: undefined } })).toBe(canonicalJson({ a: { d: [1, { x: 1, y: 2 }] }, b: 1 }));
    expect(canonicalJson({ a: 1 })).not.toBe(canonicalJson({ a: '1' }));
  });
});

describe('a pass reads only the due mutations (#27, #37)', () => {
  // Every Mutations request runs a pass: a scan of every mutation ever made grew each request's cost with the store
  // (#27), and a read of every open one with the rate (#37: ~500 open at the table's 0.5 s and 1,000 changes a second).
  it.each([
    ['start the due pending', START_DUE_SQL, /SEARCH mutations USING INDEX mutations_pending_due \(created_at<\?\)/],
    ['finish the due running', FINISH_DUE_SQL, /SEARCH mutations USING INDEX mutations_running_due \(started_at<\?\)/],
    [
      'the next due time',
      NEXT_DUE_SQL,
      /SEARCH mutations USING COVERING INDEX mutations_pending_due.*SEARCH mutations USING COVERING INDEX mutations_running_due/,
    ],
  ])("%s: a range of its state's due index, never a scan", (_what, sql, range) => {
    const plan = db
      .prepare<[], { detail: string }>(`EXPLAIN QUERY PLAN ${sql.replace(/@now|@start|@apply|\?/g, '0')}`)
      .all()
      .map((r) => r.detail)
      .join(' | ');
    expect(plan).toMatch(range);
    expect(plan).not.toMatch(/SCAN mutations/);
  });

  it('a store of many finished mutations and one open: the pass still moves the open one, and nothing else', async () => {
    const insert = db.prepare(
      `INSERT INTO mutations (id, org_id, member_id, advertiser_id, provider, target_type, target_id, action, request, state, created_at, updated_at)
       VALUES (?, 'org_1', 'mem_1', 'acc_1', 'provider_a', 'campaign', '1', 'pause', '{}', ?, 0, 0)`,
    );
    for (let i = 0; i < 500; i++) insert.run(`mut_done_${i}`, i % 2 ? 'succeeded' : 'failed');
    insert.run('mut_open', 'pending');
    expect(nextDueAt(db)).toBe(START_DELAY_MS);
    clock.set(START_DELAY_MS);
    expect(await advanceMutations({ db, clock, apply: () => ({ ok: true, entity: null }) })).toBe(1);
    expect(db.prepare(`SELECT state FROM mutations WHERE id = 'mut_open'`).get()).toEqual({ state: 'running' });
    expect(db.prepare(`SELECT COUNT(*) AS n FROM mutations WHERE state IN ('succeeded', 'failed')`).get()).toEqual({ n: 500 });
  });
});
