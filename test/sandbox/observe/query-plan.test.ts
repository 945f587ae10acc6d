// Paging cost must not grow with depth: stored reads are keyset queries that
// walk an index in seq order (no OFFSET, no sort). Checked on the query plan,
// not with timings (bench/stored-read.js measures those).
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Database } from '../../../src/sandbox/store/sqlite.js';
import { openDatabase } from '../../../src/sandbox/store/db.js';
import { storedPage } from '../../../src/sandbox/ingest/stored-reads.js';
import type { StoredQuery } from '../../../src/sandbox/ingest/stored-reads.js';

let db: Database;
beforeAll(() => {
  db = openDatabase(':memory:');
  const insert = db.prepare(
    `INSERT INTO observe_rows (kind, org_id, advertiser_id, provider, id, status, campaign_id, source, row, json, created_at)
     VALUES (?, ?, ?, 'provider_a', ?, 'ACTIVE', NULL, '0:USD', '{}', '{}', 0)`,
  );
  // Many organizations and kinds share the table, as in a real store.
  const kinds = ['campaign', 'ad_group', 'ad'];
  db.transaction(() => {
    for (let i = 0; i < 6000; i++) insert.run(kinds[i % 3], `org_${i % 20}`, `acc_${i % 100}`, String(i));
  })();
  db.exec('ANALYZE');
});
afterAll(() => db.close());

/** The SQL and parameters storedPage runs, captured through an injected db (no global patching). */
function capture(query: StoredQuery): { sql: string; params: Record<string, unknown> } {
  let seen: { sql: string; params: Record<string, unknown> } | undefined;
  const spy = new Proxy(db, {
    get(target, prop) {
      if (prop !== 'prepare') return Reflect.get(target, prop);
      return (sql: string) => {
        const stmt = target.prepare(sql);
        // The page's own statement is the one with the LIMIT; the probe for a further row is not kept.
        const keep = (params: Record<string, unknown>) => {
          if (sql.includes('@__limit')) seen = { sql, params };
        };
        return {
          all: (params: Record<string, unknown>) => (keep(params), stmt.all(params)),
          get: (params: Record<string, unknown>) => (keep(params), stmt.get(params)),
        };
      };
    },
  });
  const secret = Buffer.alloc(32, 1);
  const first = storedPage({ db: spy, secret, orgId: 'org_1' }, 'campaign', 'listCampaigns', { ...query, limit: 10 });
  // Page 2 (with a cursor) is the deep-page shape: seq < @__after.
  storedPage({ db: spy, secret, orgId: 'org_1' }, 'campaign', 'listCampaigns', { ...query, limit: 10, cursor: first.nextCursor });
  return seen!;
}

function plan(query: StoredQuery): string {
  const { sql, params } = capture(query);
  expect(sql).toContain('@__after');
  expect(sql).not.toMatch(/OFFSET/i);
  return (db.prepare(`EXPLAIN QUERY PLAN ${sql}`).all(params) as Array<{ detail: string }>).map((r) => r.detail).join('\n');
}

describe('stored read query plans', () => {
  it('no filter: the (org, kind, seq) index, in order, no temporary sort', () => {
    const p = plan({ limit: 10 });
    expect(p).toMatch(/USING INDEX observe_rows_org/);
    expect(p).not.toMatch(/TEMP B-TREE/);
  });

  it('advertiserId filter: the (advertiser, kind, seq) index, no sort', () => {
    const p = plan({ limit: 10, advertiserId: 'acc_1' });
    expect(p).toMatch(/USING INDEX observe_rows_(adv|org)/);
    expect(p).not.toMatch(/TEMP B-TREE/);
  });

  it('status and provider filters still walk an index in seq order', () => {
    const p = plan({ limit: 10, status: 'ACTIVE', provider: 'provider_a' });
    expect(p).toMatch(/USING INDEX observe_rows_/);
    expect(p).not.toMatch(/TEMP B-TREE/);
  });
});
