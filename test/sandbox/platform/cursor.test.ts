// Spec: Limits → Paging (nextCursor only when more rows; cursor bound to its query)
// and the stored-read rule "newest first, a row stored while paging never shifts a page".
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { randomBytes } from 'node:crypto';
import { ServiceError } from '../../../src/sandbox/models/errors.js';
import { canonicalFilters, decodeCursor, decodeSeqCursor, encodeCursor, keysetPage } from '../../../src/sandbox/store/cursor.js';
import { openDatabase } from '../../../src/sandbox/store/db.js';
import { minimalWorld, startTestSandbox, withAdvertiser, withOrganization } from '../../helpers/sandbox.js';
import type { TestSandbox } from '../../helpers/sandbox.js';
import { registerProbeRoutes } from './probe-routes.js';

const secret = randomBytes(32);

function expectInvalidCursor(fn: () => unknown): void {
  try {
    fn();
  } catch (err) {
    expect(err).toBeInstanceOf(ServiceError);
    expect((err as ServiceError).status).toBe(400);
    expect((err as ServiceError).code).toBe('invalid_cursor');
    return;
  }
  throw new Error('expected invalid_cursor');
}

describe('encodeCursor / decodeCursor', () => {
  const filters = { status: 'ACTIVE', advertiserId: 'acc_1' };

  it('round-trips the position for the same scope and filters', () => {
    const c = encodeCursor(secret, 'listCampaigns', filters, { seq: 42, t: 'x' });
    expect(decodeCursor(secret, 'listCampaigns', { ...filters }, c)).toEqual({ seq: 42, t: 'x' });
  });

  it('ignores cursor, limit, undefined values and key order when binding filters', () => {
    const c = encodeCursor(secret, 'op', { b: 1, a: 'x', limit: 10 }, 7);
    expect(decodeSeqCursor(secret, 'op', { a: 'x', b: 1, limit: 500, cursor: c, z: undefined }, c)).toBe(7);
    expect(canonicalFilters({ b: 1, a: [{ y: 1, x: 2 }] })).toBe(canonicalFilters({ a: [{ x: 2, y: 1 }], b: 1 }));
  });

  it('refuses another scope (operation)', () => {
    const c = encodeCursor(secret, 'listCampaigns', filters, 1);
    expectInvalidCursor(() => decodeCursor(secret, 'listAdGroups', filters, c));
  });

  it('refuses other filters (added, removed or changed)', () => {
    const c = encodeCursor(secret, 'listCampaigns', filters, 1);
    expectInvalidCursor(() => decodeCursor(secret, 'listCampaigns', { ...filters, status: 'PAUSED' }, c));
    expectInvalidCursor(() => decodeCursor(secret, 'listCampaigns', { status: 'ACTIVE' }, c));
    expectInvalidCursor(() => decodeCursor(secret, 'listCampaigns', { ...filters, provider: 'provider_a' }, c));
  });

  it('refuses a tampered payload or signature, and another secret', () => {
    const c = encodeCursor(secret, 'op', {}, 1);
    const [payload, mac] = c.split('.') as [string, string];
    const forged = Buffer.from(JSON.stringify({ p: 999 })).toString('base64url');
    expectInvalidCursor(() => decodeCursor(secret, 'op', {}, `${forged}.${mac}`));
    // Every one-character change of the signature is refused, spare base64 bits included.
    for (let i = 0; i < mac.length; i++) {
      const flipped = mac.slice(0, i) + (mac[i] === 'A' ? 'B' : 'A') + mac.slice(i + 1);
      expectInvalidCursor(() => decodeCursor(secret, 'op', {}, `${payload}.${flipped}`));
    }
    expectInvalidCursor(() => decodeCursor(secret, 'op', {}, `${payload}x.${mac}`));
    expectInvalidCursor(() => decodeCursor(randomBytes(32), 'op', {}, c));
  });

  it.each(['', 'x', 'abc.def', '...', 'a'.repeat(5000), '%%%', 'eyJwIjoxfQ', 'eyJwIjoxfQ.', '\u00e9.\u00e9'])('refuses garbage %j', (garbage) => {
    expectInvalidCursor(() => decodeCursor(secret, 'op', {}, garbage));
  });

  it('decodeSeqCursor refuses a signed position that is not a non-negative integer', () => {
    for (const p of [-1, 1.5, 'x', null, { seq: 1 }]) {
      expectInvalidCursor(() => decodeSeqCursor(secret, 'op', {}, encodeCursor(secret, 'op', {}, p)));
    }
  });
});

describe('keysetPage', () => {
  const db = openDatabase(':memory:');
  db.exec(`CREATE TABLE t (seq INTEGER PRIMARY KEY, grp TEXT NOT NULL, name TEXT NOT NULL); CREATE INDEX t_grp ON t(grp, seq);`);
  const insert = db.prepare('INSERT INTO t (grp, name) VALUES (?, ?)');
  db.transaction(() => {
    for (let i = 1; i <= 25; i++) insert.run(i % 2 ? 'odd' : 'even', `n${i}`);
  })();
  const page = (filters: { grp?: string }, limit: number, cursor?: string) =>
    keysetPage<{ name: string }, string>({
      db,
      secret,
      scope: 'probe',
      filters,
      cursor,
      limit,
      select: 'name',
      from: 't',
      seq: 'seq',
      where: [filters.grp ? 'grp = @grp' : null],
      params: { grp: filters.grp },
      map: (r) => r.name,
    });

  it('pages newest first, nextCursor only while more rows exist, every row once', () => {
    const seen: string[] = [];
    let cursor: string | undefined;
    let pages = 0;
    do {
      const p = page({}, 10, cursor);
      seen.push(...p.data);
      cursor = p.nextCursor;
      pages++;
    } while (cursor);
    expect(pages).toBe(3);
    expect(seen).toEqual(Array.from({ length: 25 }, (_, i) => `n${25 - i}`));
  });

  it('an exact multiple of the limit ends without a cursor (no empty last page)', () => {
    const first = page({ grp: 'even' }, 6);
    expect(first.data).toHaveLength(6);
    expect(first.nextCursor).toBeDefined();
    const second = page({ grp: 'even' }, 6, first.nextCursor);
    expect(second.data).toHaveLength(6); // 12 even rows: two full pages, then nothing
    expect(second.nextCursor).toBeUndefined();
    expect(page({ grp: 'even' }, 12).nextCursor).toBeUndefined();
  });

  it('a row stored while paging does not shift the next page', () => {
    const first = page({}, 5);
    insert.run('odd', 'late');
    const second = page({}, 5, first.nextCursor);
    expect(second.data[0]).toBe(`n${Number(first.data[4]!.slice(1)) - 1}`);
    expect(page({}, 1).data).toEqual(['late']);
  });

  it('the cursor is bound to the filters', () => {
    const c = page({ grp: 'odd' }, 2).nextCursor!;
    expectInvalidCursor(() => page({ grp: 'even' }, 2, c));
    expectInvalidCursor(() => page({}, 2, c));
    expect(page({ grp: 'odd' }, 50, c).data.length).toBeGreaterThan(0); // limit may change
  });

  it('uses no OFFSET (page depth does not change the plan)', () => {
    const plan = db.prepare(`EXPLAIN QUERY PLAN SELECT name FROM t WHERE grp = 'odd' AND seq < 10 ORDER BY seq DESC LIMIT 6`).all() as Array<{
      detail: string;
    }>;
    expect(plan.map((p) => p.detail).join(' ')).toMatch(/USING (COVERING )?INDEX t_grp/);
  });
});

describe('cursors over HTTP', () => {
  let sb: TestSandbox;
  beforeAll(async () => {
    let w = withOrganization(minimalWorld(), 'org_other');
    for (let i = 1; i <= 7; i++) w = withAdvertiser(w, { id: `acc_${i}`, provider: i % 2 ? 'provider_a' : 'provider_b' });
    w = withAdvertiser(w, { id: 'acc_other_1', organization: 'org_other' });
    sb = await startTestSandbox({ world: w, extraRoutes: registerProbeRoutes });
  });
  afterAll(() => sb.close());
  const list = (query: Record<string, string | number>, key = sb.keys.full) => sb.req('GET', '/_probe/observe/campaigns', { key, query });

  it('limit defaults to 100 and nextCursor is absent on the last page', async () => {
    const res = await list({});
    expect(res.status).toBe(200);
    expect(res.body.data.map((r: { id: string }) => r.id)).toEqual(['acc_7', 'acc_6', 'acc_5', 'acc_4', 'acc_3', 'acc_2', 'acc_1']);
    expect('nextCursor' in res.body).toBe(false);
  });

  it('pages with the same filters; reusing the cursor with other filters → 400 invalid_cursor', async () => {
    const first = await list({ limit: 2, provider: 'provider_a' });
    expect(first.body.data.map((r: { id: string }) => r.id)).toEqual(['acc_7', 'acc_5']);
    const next = await list({ limit: 2, provider: 'provider_a', cursor: first.body.nextCursor });
    expect(next.body.data.map((r: { id: string }) => r.id)).toEqual(['acc_3', 'acc_1']);
    expect(next.body.nextCursor).toBeUndefined();
    const other = await list({ limit: 2, provider: 'provider_b', cursor: first.body.nextCursor });
    expect(other.status).toBe(400);
    expect(other.body).toEqual({ error: 'invalid_cursor', message: expect.any(String) });
    const dropped = await list({ limit: 2, cursor: first.body.nextCursor });
    expect(dropped.body.error).toBe('invalid_cursor');
  });

  it('garbage cursor → 400 invalid_cursor; empty cursor → 400 invalid_request (min length 1)', async () => {
    expect((await list({ cursor: 'garbage' })).body.error).toBe('invalid_cursor');
    const empty = await list({ cursor: '' });
    expect(empty.status).toBe(400);
    expect(empty.body.error).toBe('invalid_request');
  });

  it("another organization's rows are invisible", async () => {
    const res = await list({}, 'acr_test_org_other_0001');
    expect(res.body.data.map((r: { id: string }) => r.id)).toEqual(['acc_other_1']);
  });
});
