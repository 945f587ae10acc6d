// Stored reads (GET /observe/campaigns and its siblings): every query
// parameter of the spec's table, paging, ordering, and what ingestion writes
// (createdAt, updatedAt, deletedAt, budget rule 5); a page kept by the page
// cache is the very answer a fresh read gives, and no write lets an old one out.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ManualClock } from '../clock.js';
import { ingestAll } from '../../../src/sandbox/ingest/index.js';
import { applyProviderChange } from '../../../src/sandbox/providers/mutate.js';
import { removeProviderEntity, writeProviderEntity } from '../../../src/sandbox/providers/store.js';
import { PROVIDER_FILTER_VALUES } from '../../../src/contract/ids.js';
import { startTestSandbox } from '../../helpers/sandbox.js';
import type { TestResponse, TestSandbox } from '../../helpers/sandbox.js';
import { OTHER_KEY_LABEL, observeWorld } from './world.js';

const RESOURCES = ['campaigns', 'ad-groups', 'ads', 'creatives', 'asset-groups'] as const;
const T0 = Date.UTC(2026, 9, 1, 12);

let sb: TestSandbox;
let key: string;
let clock: ManualClock;
beforeAll(async () => {
  clock = new ManualClock(T0);
  sb = await startTestSandbox({ world: observeWorld(), clock });
  key = sb.keys.full!;
});
afterAll(() => sb.close());

const get = (path: string, query: Record<string, string | number | undefined> = {}, k = key) => sb.req('GET', path, { key: k, query });
const ids = (r: { body: { data: Array<{ id: string }> } }) => r.body.data.map((x) => x.id);
/** Everything a client sees but the Date header. */
const seen = (r: TestResponse) => ({ status: r.status, headers: [...r.headers].filter(([name]) => name !== 'date'), text: r.text });

async function readAll(path: string, query: Record<string, string | number> = {}, limit = 2): Promise<string[]> {
  const out: string[] = [];
  let cursor: string | undefined;
  for (let i = 0; i < 100; i++) {
    const r = await get(path, { ...query, limit, cursor });
    expect(r.status).toBe(200);
    out.push(...ids(r));
    if (r.body.nextCursor === undefined) return out;
    expect(r.body.data).toHaveLength(limit);
    cursor = r.body.nextCursor;
  }
  throw new Error('paging never ended');
}

describe('paging and order', () => {
  it('newest first: the row stored last comes first (ingestion order is provider order, so reversed)', async () => {
    const r = await get('/observe/campaigns', { advertiserId: 'acc_a' });
    expect(ids(r)).toEqual(['1002', '1001']);
  });

  for (const resource of RESOURCES) {
    it(`${resource}: paging with limit 2 visits every row once; nextCursor only while more rows exist`, async () => {
      const all = await get(`/observe/${resource}`, { limit: 500 });
      expect(all.body.nextCursor).toBeUndefined();
      const paged = await readAll(`/observe/${resource}`);
      expect(paged).toEqual(ids(all));
    });
  }

  it('rows stored before the serialized copy existed (json NULL) read back the same, page by page', async () => {
    const pages = async () => {
      const out: unknown[] = [];
      let cursor: string | undefined;
      do {
        const r = await get('/observe/ad-groups', { limit: 2, cursor });
        out.push(r.text);
        cursor = r.body.nextCursor;
      } while (cursor);
      return out;
    };
    const spliced = await pages();
    const { db } = sb.services;
    const saved = db.prepare(`SELECT seq, json FROM observe_rows WHERE kind = 'ad_group'`).all() as Array<{ seq: number; json: string }>;
    // Every other row, so some pages mix both kinds of row.
    db.prepare(`UPDATE observe_rows SET json = NULL WHERE kind = 'ad_group' AND seq % 2 = 0`).run();
    try {
      expect(await pages()).toEqual(spliced);
    } finally {
      const put = db.prepare('UPDATE observe_rows SET json = ? WHERE seq = ?');
      for (const r of saved) put.run(r.json, r.seq);
    }
  });

  it('limit defaults to 100, accepts 1 and 500, refuses 0, 501 and non-integers with 400 invalid_request', async () => {
    expect((await get('/observe/campaigns', { limit: 1 })).body.data).toHaveLength(1);
    expect((await get('/observe/campaigns', { limit: 500 })).status).toBe(200);
    for (const limit of ['0', '501', '1.5', 'abc', '-1']) {
      const r = await get('/observe/campaigns', { limit });
      expect(r.status).toBe(400);
      expect(r.body.error).toBe('invalid_request');
      expect(r.body.issues[0]).toMatchObject({ in: 'query', path: '/limit' });
    }
  });

  it('limit default is 100 rows', async () => {
    // 150 extra campaigns at acc_a, then the first page holds exactly 100.
    const { db } = sb.services;
    for (let i = 0; i < 150; i++) {
      writeProviderEntity(
        db,
        'acc_a_jpy',
        'campaign',
        String(50_000 + i),
        {
          id: String(50_000 + i),
          name: `Bulk ${i}`,
          objective: 'OUTCOME_TRAFFIC',
          status: 'ACTIVE',
          created_time: '2026-08-01T10:00:00+0000',
          updated_time: '2026-08-01T10:00:00+0000',
        },
        1,
      );
    }
    ingestAll(sb.services);
    const r = await get('/observe/campaigns', { advertiserId: 'acc_a_jpy' });
    expect(r.body.data).toHaveLength(100);
    expect(typeof r.body.nextCursor).toBe('string');
    const rest = await get('/observe/campaigns', { advertiserId: 'acc_a_jpy', cursor: r.body.nextCursor });
    expect(rest.body.data).toHaveLength(51);
    expect(rest.body.nextCursor).toBeUndefined();
  });

  it('a cursor reused with other filters, on another list, or edited answers 400 invalid_cursor', async () => {
    const first = await get('/observe/campaigns', { limit: 1 });
    const cursor = first.body.nextCursor as string;
    const cases: Array<[string, Record<string, string>]> = [
      ['/observe/campaigns', { cursor, status: 'ACTIVE' }],
      ['/observe/campaigns', { cursor, advertiserId: 'acc_a' }],
      ['/observe/ad-groups', { cursor }],
      ['/observe/acc_a/campaigns', { cursor }],
      ['/observe/campaigns', { cursor: cursor.slice(0, -2) + (cursor.endsWith('AA') ? 'BB' : 'AA') }],
      ['/observe/campaigns', { cursor: 'garbage' }],
    ];
    for (const [path, query] of cases) {
      const r = await get(path, query);
      expect([path, r.status, r.body.error]).toEqual([path, 400, 'invalid_cursor']);
    }
    // The same filters with another limit is fine (limit is not a filter).
    expect((await get('/observe/campaigns', { cursor, limit: 3 })).status).toBe(200);
  });

  it('an empty cursor is a schema error (min length 1)', async () => {
    const r = await get('/observe/campaigns', { cursor: '' });
    expect(r.status).toBe(400);
    expect(r.body.error).toBe('invalid_request');
  });

  it('a campaign stored while a client pages does not move an already-read page', async () => {
    const p1 = await get('/observe/campaigns', { advertiserId: 'acc_c', limit: 2 });
    expect(ids(p1)).toEqual(['9004', '9003']);
    writeProviderEntity(
      sb.services.db,
      'acc_c',
      'campaign',
      '9999',
      { id: '9999', name: 'Arrived late', status: 'ENABLED', advertisingChannelType: 'SEARCH', budgetAmountMicros: 1_000_000 },
      0,
    );
    clock.advance(1000);
    ingestAll(sb.services);
    const p2 = await get('/observe/campaigns', { advertiserId: 'acc_c', limit: 2, cursor: p1.body.nextCursor });
    expect(ids(p2)).toEqual(['9002', '9001']);
    expect(ids(await get('/observe/campaigns', { advertiserId: 'acc_c', limit: 1 }))).toEqual(['9999']);
  });
});

describe('filters', () => {
  it('ids: comma-separated bare ids', async () => {
    expect(ids(await get('/observe/campaigns', { ids: '1001,9001,nope' })).sort()).toEqual(['1001', '9001']);
    expect(ids(await get('/observe/ads', { ids: '9101~9201' }))).toEqual(['9101~9201']);
  });

  it('advertiserId must start acc_; one not owned answers 200 with an empty list', async () => {
    const bad = await get('/observe/campaigns', { advertiserId: 'adv_1' });
    expect(bad.status).toBe(400);
    expect(bad.body.issues[0]).toMatchObject({ in: 'query', path: '/advertiserId' });
    expect(JSON.stringify(bad.body)).not.toContain('adv_1');
    for (const advertiserId of ['acc_other', 'acc_never_existed']) {
      const r = await get('/observe/campaigns', { advertiserId });
      expect([r.status, r.body.data]).toEqual([200, []]);
    }
    // The other organization sees its own advertiser and none of ours.
    const other = await get('/observe/campaigns', { limit: 500 }, sb.key(OTHER_KEY_LABEL));
    expect(new Set(other.body.data.map((r: { advertiserId: string }) => r.advertiserId))).toEqual(new Set(['acc_other']));
  });

  it('provider accepts the seven tokens; e, f, g and d answer empty; anything else is 400', async () => {
    const counts: Record<string, number> = {};
    for (const provider of PROVIDER_FILTER_VALUES) {
      const r = await get('/observe/campaigns', { provider, limit: 500 });
      expect(r.status).toBe(200);
      counts[provider] = r.body.data.length;
      for (const row of r.body.data) expect(row.provider).toBe(provider);
    }
    expect(counts).toMatchObject({ provider_e: 0, provider_f: 0, provider_g: 0, provider_d: 0 });
    expect(counts.provider_a! * counts.provider_b! * counts.provider_c!).toBeGreaterThan(0);
    expect((await get('/observe/campaigns', { provider: 'PROVIDER_A' })).status).toBe(400);
    expect((await get('/observe/campaigns', { provider: 'provider_h' })).status).toBe(400);
  });

  it('status filters on the normalized status; stored DELETED rows stay listed (the provider still holds them)', async () => {
    for (const status of ['ACTIVE', 'PAUSED', 'DELETED', 'ARCHIVED']) {
      const r = await get('/observe/campaigns', { status, limit: 500 });
      expect(r.body.data.length).toBeGreaterThan(0);
      for (const row of r.body.data) expect(row.status).toBe(status);
    }
    expect((await get('/observe/campaigns', { status: 'active' })).status).toBe(400);
  });

  it('campaignId narrows ad groups, ads and asset groups; adGroupId narrows ads', async () => {
    expect(ids(await get('/observe/ad-groups', { campaignId: '1002' })).sort()).toEqual(['2002', '2003']);
    expect(ids(await get('/observe/ads', { campaignId: '1001' }))).toEqual(['3001']);
    expect(ids(await get('/observe/ads', { adGroupId: '6001' }))).toEqual(['7001']);
    expect(ids(await get('/observe/asset-groups', { campaignId: '9004' }))).toEqual(['9301']);
  });

  it('a disconnected advertiser still answers its stored rows', async () => {
    expect(ids(await get('/observe/campaigns', { advertiserId: 'acc_b_off' }))).toEqual(['5101']);
  });
});

describe('ingestion', () => {
  it('createdAt when first stored; updatedAt null until rewritten; a rewrite keeps the row in place', async () => {
    const before = await get('/observe/campaigns', { advertiserId: 'acc_b' });
    const row = before.body.data.find((r: { id: string }) => r.id === '5001');
    expect(row.createdAt).toBe(T0);
    expect(row.updatedAt).toBeNull();
    clock.advance(60_000);
    const changed = await applyProviderChange(sb.services, 'acc_b', { entityType: 'campaign', entityId: '5001', status: 'PAUSED', name: 'Renamed' });
    expect(changed.ok).toBe(true);
    const at = clock.now();
    ingestAll(sb.services);
    const after = await get('/observe/campaigns', { advertiserId: 'acc_b' });
    expect(ids(after)).toEqual(ids(before));
    const rewritten = after.body.data.find((r: { id: string }) => r.id === '5001');
    expect(rewritten).toMatchObject({ status: 'PAUSED', name: 'Renamed', createdAt: T0, updatedAt: at, deletedAt: null });
    // Ingesting again with nothing new leaves updatedAt alone.
    clock.advance(60_000);
    ingestAll(sb.services);
    expect((await get('/observe/campaigns', { ids: '5001' })).body.data[0].updatedAt).toBe(at);
  });

  it('a budget-only edit at the provider may be missed by ingestion; a live read answers the current budget (rule 5)', async () => {
    const changed = await applyProviderChange(sb.services, 'acc_a', { entityType: 'ad_group', entityId: '2002', budget: { amount: 99.5 } });
    expect(changed.ok).toBe(true);
    ingestAll(sb.services);
    const storedRow = (await get('/observe/ad-groups', { ids: '2002' })).body.data[0];
    expect(storedRow.budget).toBe(12.34);
    const liveRow = (await get('/observe/acc_a/ad-groups', { ids: '2002' })).body.data[0];
    expect(liveRow.budget).toBe(99.5);
  });

  it('a row the provider no longer has gets deletedAt and leaves every listing', async () => {
    expect(removeProviderEntity(sb.services.db, 'acc_d', 'campaign', 'cmp-1')).toBe(true); // provider_d: not stored anyway
    expect(removeProviderEntity(sb.services.db, 'acc_b', 'ad', '7001')).toBe(true);
    clock.advance(1000);
    ingestAll(sb.services);
    expect(ids(await get('/observe/ads', { advertiserId: 'acc_b' }))).toEqual([]);
    const deletedAt = sb.services.db.prepare("SELECT deleted_at FROM observe_rows WHERE advertiser_id = 'acc_b' AND kind = 'ad' AND id = '7001'").pluck().get();
    expect(deletedAt).toBe(clock.now());
  });
});

describe('kept pages (store/page-cache.ts): the same answer until the store changes', () => {
  it('is answered again with the same status, headers and bytes, and is kept once', async () => {
    const before = sb.services.storedPages.size.entries;
    const first = await get('/observe/campaigns', { limit: 2 });
    const again = await get('/observe/campaigns', { limit: 2 });
    expect(first.status).toBe(200);
    expect(seen(again)).toEqual(seen(first));
    expect(first.headers.get('content-type')).toBe('application/json');
    expect(Number(first.headers.get('content-length'))).toBe(Buffer.byteLength(first.text));
    expect(sb.services.storedPages.size.entries).toBe(before + 1);
  });

  it('is per query: operation, organization, filters, cursor and limit each make another page', async () => {
    const pages = [
      await get('/observe/campaigns', { limit: 1 }),
      await get('/observe/campaigns', { limit: 2 }),
      await get('/observe/campaigns', { limit: 1, advertiserId: 'acc_a' }),
      await get('/observe/ad-groups', { limit: 1 }),
      await get('/observe/campaigns', { limit: 1 }, sb.key(OTHER_KEY_LABEL)),
    ];
    const next = await get('/observe/campaigns', { limit: 1, cursor: pages[0]!.body.nextCursor });
    const texts = [...pages, next].map((r) => r.text);
    expect(new Set(texts).size).toBe(texts.length);
    // The other organization's page holds only its own rows.
    expect(pages[4]!.body.data.map((r: { advertiserId: string }) => r.advertiserId)).toEqual(['acc_other']);
  });

  it('keeps no failure: a bad cursor is refused every time', async () => {
    for (let i = 0; i < 2; i++) expect((await get('/observe/campaigns', { cursor: 'garbage' })).body.error).toBe('invalid_cursor');
  });

  // A kept page is answered before the app dispatches the request (routes/observe.ts,
  // storedReadShortcut): every check must still give what the app gives.
  it('is never answered to a key that stopped resolving, even with no write (expiry is on the clock)', async () => {
    const { db } = sb.services;
    const addKey = (key: string, permissions: string, expiresAt: number | null) =>
      db
        .prepare(
          `INSERT INTO api_keys (id, key, member_id, permissions, state, expires_at, label, description, seq)
           SELECT ?, ?, member_id, ?, 'active', ?, ?, '', 1000 + (SELECT count(*) FROM api_keys) FROM api_keys WHERE key = ?`,
        )
        .run(`key_${key}`, key, permissions, expiresAt, key, sb.keys.full);
    addKey('acr_expiring_soon_0001', '"all"', clock.now() + 60_000);
    addKey('acr_no_observe_0001', '["mutation:read"]', null);
    const kept = await get('/observe/campaigns', { limit: 3 }, 'acr_expiring_soon_0001');
    expect(seen(await get('/observe/campaigns', { limit: 3 }, 'acr_expiring_soon_0001'))).toEqual(seen(kept));
    // The same query with a key lacking observe:read, then with none, then a malformed one.
    for (const k of ['acr_no_observe_0001', '', 'Basic abc']) {
      const r = await sb.req('GET', '/observe/campaigns', {
        query: { limit: 3 },
        headers: k ? { authorization: k.startsWith('acr_') ? `Bearer ${k}` : k } : {},
      });
      expect([r.status, r.body.error]).toEqual(k === 'acr_no_observe_0001' ? [403, 'forbidden'] : [401, 'unauthorized']);
    }
    clock.advance(60_000);
    const expired = await get('/observe/campaigns', { limit: 3 }, 'acr_expiring_soon_0001');
    expect([expired.status, expired.body.error]).toEqual([401, 'unauthorized']);
    // Still kept for a key that resolves.
    expect((await get('/observe/campaigns', { limit: 3 })).text).toBe(kept.text);
  });

  it('is never answered to a key revoked, or an organization whose subscription lapsed, after it was kept', async () => {
    const { db } = sb.services;
    db.prepare(
      `INSERT INTO api_keys (id, key, member_id, permissions, state, expires_at, label, description, seq)
       SELECT 'key_revoke_me', 'acr_revoke_me_0001', member_id, '"all"', 'active', NULL, 'revoke-me', '', 2000 FROM api_keys WHERE key = ?`,
    ).run(sb.keys.full);
    const kept = await get('/observe/campaigns', { limit: 5 }, 'acr_revoke_me_0001');
    expect((await get('/observe/campaigns', { limit: 5 }, 'acr_revoke_me_0001')).text).toBe(kept.text);
    db.prepare(`UPDATE api_keys SET state = 'revoked' WHERE key = 'acr_revoke_me_0001'`).run();
    const revoked = await get('/observe/campaigns', { limit: 5 }, 'acr_revoke_me_0001');
    expect([revoked.status, revoked.body.error]).toEqual([401, 'unauthorized']);
    // The full key reads the page (kept again), then its organization stops paying.
    await get('/observe/campaigns', { limit: 5 });
    expect((await get('/observe/campaigns', { limit: 5 })).status).toBe(200);
    // The page is kept again, by another key of the same organization: still not for the revoked one.
    const again = await get('/observe/campaigns', { limit: 5 }, 'acr_revoke_me_0001');
    expect([again.status, again.body.error]).toEqual([401, 'unauthorized']);
    const org = db
      .prepare<[string], { org_id: string }>(`SELECT m.org_id FROM api_keys k JOIN members m ON m.id = k.member_id WHERE k.key = ?`)
      .get(sb.keys.full)!;
    db.prepare(`UPDATE organizations SET subscribed = 0 WHERE id = ?`).run(org.org_id);
    try {
      const lapsed = await get('/observe/campaigns', { limit: 5 });
      expect([lapsed.status, lapsed.body.error]).toEqual([402, 'organization_unentitled']);
    } finally {
      db.prepare(`UPDATE organizations SET subscribed = 1 WHERE id = ?`).run(org.org_id);
    }
  });

  it('with an Origin, CORS answers as for any request: the console origin gets its headers, another is refused', async () => {
    await get('/observe/campaigns', { limit: 4 });
    const plain = await get('/observe/campaigns', { limit: 4 });
    const fromConsole = await sb.req('GET', '/observe/campaigns', { key, query: { limit: 4 }, headers: { origin: 'https://console.adops.example' } });
    expect([fromConsole.status, fromConsole.text]).toEqual([200, plain.text]);
    expect(fromConsole.headers.get('access-control-allow-origin')).toBe('https://console.adops.example');
    expect(fromConsole.headers.get('vary')).toBe('Origin');
    const foreign = await sb.req('GET', '/observe/campaigns', { key, query: { limit: 4 }, headers: { origin: 'https://evil.example' } });
    expect([foreign.status, foreign.body.error]).toEqual([403, 'forbidden']);
    expect(foreign.headers.get('access-control-allow-origin')).toBeNull();
  });

  it('is the same whether the query is spelled the same or otherwise (each spelling its own page)', async () => {
    const a = await sb.req('GET', '/observe/campaigns?limit=2&advertiserId=acc_a', { key });
    const b = await sb.req('GET', '/observe/campaigns?advertiserId=acc_a&limit=2', { key });
    const again = await sb.req('GET', '/observe/campaigns?limit=2&advertiserId=acc_a', { key });
    expect(b.text).toBe(a.text);
    expect(seen(again)).toEqual(seen(a));
  });

  it('after ingestion stores a new row', async () => {
    const before = await get('/observe/campaigns', { advertiserId: 'acc_c', limit: 500 });
    writeProviderEntity(
      sb.services.db,
      'acc_c',
      'campaign',
      '9876',
      { id: '9876', name: 'Came later', status: 'ENABLED', advertisingChannelType: 'SEARCH', budgetAmountMicros: 1_000_000 },
      0,
    );
    clock.advance(1000);
    ingestAll(sb.services);
    const after = await get('/observe/campaigns', { advertiserId: 'acc_c', limit: 500 });
    expect(after.body.data.length).toBe(before.body.data.length + 1);
    expect(after.body.data[0].id).toBe('9876');
  });

  it('after a raw write to a stored row, and after one that leaves other tables alone', async () => {
    const { db } = sb.services;
    const first = await get('/observe/campaigns', { advertiserId: 'acc_a', limit: 500 });
    const row = db
      .prepare<[], { seq: number; json: string }>(`SELECT seq, json FROM observe_rows WHERE advertiser_id = 'acc_a' AND kind = 'campaign' LIMIT 1`)
      .get()!;
    const renamed = row.json.replace(/"name":"[^"]*"/, '"name":"Renamed in place"');
    db.prepare('UPDATE observe_rows SET json = ? WHERE seq = ?').run(renamed, row.seq);
    try {
      const after = await get('/observe/campaigns', { advertiserId: 'acc_a', limit: 500 });
      expect(after.text).not.toBe(first.text);
      expect(after.text).toContain('Renamed in place');
    } finally {
      db.prepare('UPDATE observe_rows SET json = ? WHERE seq = ?').run(row.json, row.seq);
    }
    expect((await get('/observe/campaigns', { advertiserId: 'acc_a', limit: 500 })).text).toBe(first.text);
  });

  it('after a row is marked deleted', async () => {
    const { db } = sb.services;
    const first = await get('/observe/ads', { limit: 500 });
    const seq = db.prepare(`SELECT seq FROM observe_rows WHERE kind = 'ad' AND deleted_at IS NULL LIMIT 1`).pluck().get() as number;
    db.prepare('UPDATE observe_rows SET deleted_at = 1 WHERE seq = ?').run(seq);
    try {
      expect((await get('/observe/ads', { limit: 500 })).body.data.length).toBe(first.body.data.length - 1);
    } finally {
      db.prepare('UPDATE observe_rows SET deleted_at = NULL WHERE seq = ?').run(seq);
    }
  });
});
