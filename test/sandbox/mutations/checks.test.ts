// POST /mutations checks, in order after the platform's auth: body schema (400)
// → Idempotency-Key replay → advertiser owned (422) → connection (409) → write
// access (403) → amount (422). Then who may read a mutation, the history list,
// and Idempotency-Key.
import { describe, expect, it } from 'vitest';
import { startTestSandbox, useTestSandbox } from '../../helpers/sandbox.js';
import { ManualClock } from '../clock.js';
import { mutationsWorld } from './world.js';
import { settle, start } from './helpers.js';

const clock = new ManualClock();
const sb = useTestSandbox({ world: mutationsWorld(), clock });

const pause = (advertiserId: string, id = '100') => ({ advertiserId, target: { type: 'campaign', id }, action: 'pause' });
const budget = (advertiserId: string, amount: unknown) => ({ advertiserId, target: { type: 'campaign', id: '100' }, action: 'set_budget', budget: { amount } });

describe('POST /mutations checks', () => {
  it('400 invalid_request for a wrong shape, naming the field', async () => {
    const cases: Array<[unknown, string]> = [
      [{ target: { type: 'campaign', id: '1' }, action: 'pause' }, '/advertiserId'],
      [{ advertiserId: 'acc_a', action: 'pause' }, '/target'],
      [{ advertiserId: 'acc_a', target: { type: 'ad', id: '1' }, action: 'pause' }, '/target/type'],
      [{ advertiserId: 'acc_a', target: { type: 'campaign', id: '1' }, action: 'rename' }, '/name'],
      [{ advertiserId: 'acc_a', target: { type: 'campaign', id: '1' }, action: 'set_budget', budget: { amount: '50' } }, '/budget/amount'],
      [{ advertiserId: 'acc_a', target: { type: 'campaign', id: '1' }, action: 'set_bid' }, '/bidStrategy'],
      [{ advertiserId: 'acc_a', target: { type: 'campaign', id: '1' }, action: 'pause', extra: 1 }, '/extra'],
    ];
    for (const [body, path] of cases) {
      const res = await start(sb, body);
      expect(res.status, JSON.stringify(body)).toBe(400);
      expect(res.body.error).toBe('invalid_request');
      expect(
        res.body.issues.map((i: { path: string }) => i.path),
        JSON.stringify(body),
      ).toContain(path);
    }
    const action = await start(sb, { advertiserId: 'acc_a', target: { type: 'campaign', id: '1' }, action: 'explode' });
    expect(action.status).toBe(400);
  });

  it('checks the key before the body (401, then 403 without mutation:write)', async () => {
    const noKey = await sb.req('POST', '/mutations', { body: { nonsense: true } });
    expect(noKey.status).toBe(401);
    const readOnly = await start(sb, { nonsense: true }, { key: sb.key('read-only') });
    expect(readOnly.status).toBe(403);
    expect(readOnly.body.error).toBe('forbidden');
  });

  it('422 advertiser_not_owned for another organization’s or an unknown advertiser', async () => {
    for (const id of ['acc_other', 'acc_unknown']) {
      const res = await start(sb, pause(id));
      expect(res.status).toBe(422);
      expect(res.body.error).toBe('advertiser_not_owned');
    }
  });

  it('409 provider_not_connected with provider; 403 missing_write_access', async () => {
    const nc = await start(sb, pause('acc_nc'));
    expect(nc.status).toBe(409);
    expect(nc.body).toMatchObject({ error: 'provider_not_connected', provider: 'provider_b' });
    const ro = await start(sb, pause('acc_ro'));
    expect(ro.status).toBe(403);
    expect(ro.body.error).toBe('missing_write_access');
  });

  it('422 invalid_amount for a refused amount, synchronously', async () => {
    for (const amount of [0, -5, 12.345]) {
      const res = await start(sb, budget('acc_a', amount));
      expect(res.status, String(amount)).toBe(422);
      expect(res.body.error).toBe('invalid_amount');
    }
    const yen = await start(sb, budget('acc_jpy', 10.5));
    expect(yen.status).toBe(422);
    expect((await start(sb, budget('acc_jpy', 1000))).status).toBe(202);
    const bid = await start(sb, { advertiserId: 'acc_a', target: { type: 'ad_group', id: '200' }, action: 'set_bid', bidAmount: -1 });
    expect(bid.body.error).toBe('invalid_amount');
  });

  it('applies the checks in order: owned, then connection, then write access, then amount', async () => {
    expect((await start(sb, budget('acc_other', -1))).body.error).toBe('advertiser_not_owned');
    expect((await start(sb, budget('acc_nc', -1))).body.error).toBe('provider_not_connected');
    expect((await start(sb, budget('acc_ro', -1))).body.error).toBe('missing_write_access');
  });
});

describe('GET /mutations/{id}', () => {
  it('answers only the member who started it', async () => {
    const res = await start(sb, pause('acc_a'));
    const id = res.body.id as string;
    expect((await sb.req('GET', `/mutations/${id}`, { key: sb.keys.full })).status).toBe(200);
    // Another key of the same member may poll.
    expect((await sb.req('GET', `/mutations/${id}`, { key: sb.key('owner-2') })).status).toBe(200);
    const other = await sb.req('GET', `/mutations/${id}`, { key: sb.key('second') });
    expect(other.status).toBe(403);
    expect(other.body.error).toBe('forbidden');
    const otherOrg = await sb.req('GET', `/mutations/${id}`, { key: sb.key('org-other') });
    expect(otherOrg.status).toBe(404);
    expect(otherOrg.body.error).toBe('not_found');
    expect((await sb.req('GET', '/mutations/mut_nope', { key: sb.keys.full })).status).toBe(404);
    // mutation:read is not enough to poll.
    expect((await sb.req('GET', `/mutations/${id}`, { key: sb.key('read-only') })).status).toBe(403);
  });
});

describe('GET /mutations', () => {
  it("lists the organization's history newest first with cursors and filters", async () => {
    const own = await startTestSandbox({ world: mutationsWorld(), clock: new ManualClock() });
    try {
      const ids: string[] = [];
      for (const adv of ['acc_a', 'acc_b', 'acc_a', 'acc_c', 'acc_a']) ids.push((await start(own, pause(adv, adv === 'acc_a' ? '100' : 'x'))).body.id);
      ids.push((await start(own, pause('acc_a'), { key: own.key('second') })).body.id);
      const first = await own.req('GET', '/mutations', { key: own.key('read-only'), query: { limit: 4 } });
      expect(first.status).toBe(200);
      expect(first.body.data.map((m: { id: string }) => m.id)).toEqual([ids[5], ids[4], ids[3], ids[2]]);
      const second = await own.req('GET', '/mutations', { key: own.key('read-only'), query: { limit: 4, cursor: first.body.nextCursor } });
      expect(second.body.data.map((m: { id: string }) => m.id)).toEqual([ids[1], ids[0]]);
      expect(second.body.nextCursor).toBeUndefined();

      const onlyA = await own.req('GET', '/mutations', { key: own.keys.full, query: { advertiserId: 'acc_a', state: 'pending' } });
      expect(onlyA.body.data.map((m: { id: string }) => m.id)).toEqual([ids[5], ids[4], ids[2], ids[0]]);
      const none = await own.req('GET', '/mutations', { key: own.keys.full, query: { state: 'succeeded' } });
      expect(none.body).toEqual({ data: [] });

      const wrongFilter = await own.req('GET', '/mutations', { key: own.keys.full, query: { limit: 4, advertiserId: 'acc_a', cursor: first.body.nextCursor } });
      expect(wrongFilter.body.error).toBe('invalid_cursor');
      expect((await own.req('GET', '/mutations', { key: own.keys.full, query: { limit: 0 } })).status).toBe(400);
      expect((await own.req('GET', '/mutations', { key: own.key('write-only') })).status).toBe(403);
      const otherOrg = await own.req('GET', '/mutations', { key: own.key('org-other') });
      expect(otherOrg.body).toEqual({ data: [] });
    } finally {
      await own.close();
    }
  });
});

describe('Idempotency-Key', () => {
  it('same key and body: the mutation already started, no second change', async () => {
    const body = { advertiserId: 'acc_a', target: { type: 'campaign', id: '100' }, action: 'rename', name: 'Once' };
    const first = await start(sb, body, { idempotencyKey: 'rename-once' });
    expect(first.status).toBe(202);
    // Same body with its keys in another order.
    const reordered = { name: 'Once', action: 'rename', target: { id: '100', type: 'campaign' }, advertiserId: 'acc_a' };
    const again = await start(sb, reordered, { idempotencyKey: 'rename-once' });
    expect(again.status).toBe(202);
    expect(again.body.id).toBe(first.body.id);
    // After it finished, a replay answers the finished mutation.
    await settle(sb, clock, [first.body.id]);
    const later = await start(sb, body, { idempotencyKey: 'rename-once' });
    expect(later.status).toBe(202);
    expect(later.body).toMatchObject({ id: first.body.id, state: 'succeeded' });
    const history = await sb.req('GET', '/mutations', { key: sb.keys.full, query: { limit: 500 } });
    expect(history.body.data.filter((m: { changes: { name?: string } }) => m.changes.name === 'Once')).toHaveLength(1);
  });

  it('same key, different body: 422 idempotency_key_reused, nothing started', async () => {
    const first = await start(sb, pause('acc_a'), { idempotencyKey: 'k-diff' });
    expect(first.status).toBe(202);
    const before = (await sb.req('GET', '/mutations', { key: sb.keys.full, query: { limit: 500 } })).body.data.length;
    const res = await start(sb, pause('acc_b', '300'), { idempotencyKey: 'k-diff' });
    expect(res.status).toBe(422);
    expect(res.body.error).toBe('idempotency_key_reused');
    expect((await sb.req('GET', '/mutations', { key: sb.keys.full, query: { limit: 500 } })).body.data.length).toBe(before);
  });

  it('is scoped per organization and forgotten after 24 hours', async () => {
    const mine = await start(sb, pause('acc_a'), { idempotencyKey: 'shared-key' });
    const theirs = await start(sb, pause('acc_other'), { key: sb.key('org-other'), idempotencyKey: 'shared-key' });
    expect(theirs.status).toBe(202);
    expect(theirs.body.id).not.toBe(mine.body.id);
    clock.advance(24 * 60 * 60 * 1000);
    const fresh = await start(sb, pause('acc_a'), { idempotencyKey: 'shared-key' });
    expect(fresh.status).toBe(202);
    expect(fresh.body.id).not.toBe(mine.body.id);
  });

  it('a refused request does not consume the key', async () => {
    const refused = await start(sb, budget('acc_a', -1), { idempotencyKey: 'k-refused' });
    expect(refused.status).toBe(422);
    const fixed = await start(sb, budget('acc_a', 10), { idempotencyKey: 'k-refused' });
    expect(fixed.status).toBe(202);
  });

  it('400 for a malformed key', async () => {
    const res = await start(sb, pause('acc_a'), { idempotencyKey: 'x'.repeat(256) });
    expect(res.status).toBe(400);
    expect(res.body.issues[0]).toMatchObject({ in: 'headers', path: '/idempotency-key' });
  });
});
