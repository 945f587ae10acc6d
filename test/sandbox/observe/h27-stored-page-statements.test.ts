// #27: every statement a stored page runs walks an index. The page used to ask a
// second query whether a further row exists (`seq < @__last LIMIT 1`); SQLite
// planned it on the rowid and walked up from the oldest row, so the pages of the
// advertiser stored last cost 5 ms instead of 0.2 ms over 20k rows (the mixed
// bench reads them after every write). Now one query reads the page and one row
// more. Checked on the query plans (as query-plan.test.ts), and the page edges.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { openDatabase } from '../../../src/sandbox/store/db.js';
import type { Database } from '../../../src/sandbox/store/sqlite.js';
import { storedPage, type StoredQuery } from '../../../src/sandbox/ingest/stored-reads.js';

const ADVERTISERS = ['acc_first', 'acc_second', 'acc_last'];
const PER = 3_000;
let db: Database;
const secret = Buffer.alloc(32, 1);

beforeAll(() => {
  db = openDatabase(':memory:');
  const insert = db.prepare(
    `INSERT INTO observe_rows (kind, org_id, advertiser_id, provider, id, status, campaign_id, source, row, json, created_at)
     VALUES ('campaign', 'org_1', ?, 'provider_a', ?, 'ACTIVE', NULL, '0:USD', '{}', ?, 0)`,
  );
  // Each advertiser's rows stored together, one advertiser after the other (as one ingestion run each).
  db.transaction(() => {
    for (const adv of ADVERTISERS) for (let i = 0; i < PER; i++) insert.run(adv, `${adv}-${i}`, JSON.stringify({ id: `${adv}-${i}` }));
  })();
  // No ANALYZE: the sandbox never gathers statistics (with them, SQLite plans some of these pages on the rowid).
});
afterAll(() => db.close());

/** Every statement storedPage runs for `query` (page 1, then page 2 by its cursor), captured through an injected db. */
function statements(query: StoredQuery): Array<{ sql: string; params: Record<string, unknown> }> {
  const seen: Array<{ sql: string; params: Record<string, unknown> }> = [];
  const spy = new Proxy(db, {
    get(target, prop) {
      if (prop !== 'prepare') return Reflect.get(target, prop);
      return (sql: string) => {
        const stmt = target.prepare(sql);
        const keep = (params: Record<string, unknown>) => seen.push({ sql, params });
        return {
          all: (params: Record<string, unknown>) => (keep(params), stmt.all(params)),
          get: (params: Record<string, unknown>) => (keep(params), stmt.get(params)),
        };
      };
    },
  });
  const first = storedPage({ db: spy, secret, orgId: 'org_1' }, 'campaign', 'listCampaigns', query);
  expect(first.nextCursor).toBeDefined();
  storedPage({ db: spy, secret, orgId: 'org_1' }, 'campaign', 'listCampaigns', { ...query, cursor: first.nextCursor });
  return seen;
}

const planOf = (s: { sql: string; params: Record<string, unknown> }) =>
  db
    .prepare<[Record<string, unknown>], { detail: string }>(`EXPLAIN QUERY PLAN ${s.sql}`)
    .all(s.params)
    .map((r) => r.detail)
    .join('\n');

describe('stored page statements (#27)', () => {
  it.each(ADVERTISERS)('%s: every statement of page 1 and page 2 searches an observe_rows index, never the rowid range', (advertiserId) => {
    const all = statements({ limit: 100, advertiserId });
    for (const s of all) {
      const plan = planOf(s);
      expect(plan, s.sql).toMatch(/USING (COVERING )?INDEX observe_rows_/);
      expect(plan, s.sql).not.toMatch(/INTEGER PRIMARY KEY|SCAN observe_rows/);
    }
  });

  it('the page edges: a full last page has no nextCursor, one row more has one', () => {
    const read = (limit: number, cursor?: string) =>
      storedPage({ db, secret, orgId: 'org_1' }, 'campaign', 'listCampaigns', { limit, advertiserId: 'acc_second', ...(cursor ? { cursor } : {}) });
    const rowsOf = (p: { rows: Buffer | string }): Array<{ id: string }> => JSON.parse(`[${String(p.rows)}]`);
    // 3,000 rows: 6 pages of 500, the 6th full and the last.
    let page = read(500);
    const ids: string[] = [];
    for (let n = 1; ; n++) {
      ids.push(...rowsOf(page).map((r) => r.id));
      if (!page.nextCursor) {
        expect(n).toBe(6);
        break;
      }
      page = read(500, page.nextCursor);
    }
    expect(ids).toHaveLength(PER);
    expect(new Set(ids).size).toBe(PER);
    expect(ids[0]).toBe(`acc_second-${PER - 1}`);
    // 2,999 rows in: one row left, a page of one with no cursor after it.
    const deep = read(2_999);
    expect(rowsOf(deep)).toHaveLength(2_999);
    const tail = read(500, deep.nextCursor);
    expect(rowsOf(tail).map((r) => r.id)).toEqual(['acc_second-0']);
    expect(tail.nextCursor).toBeUndefined();
  });
});
