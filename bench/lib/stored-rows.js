// Stored campaign rows written straight into a sandbox's SQLite, as ingestion
// stores them (the row, and its serialized answer unless `withJson` is false):
// the bench worlds (bench/lib/sandbox-server.js, bench/sandbox-mixed.js) and
// the memory test (test/e2e/h27-pages-memory.test.ts). Fast; ingestion is not
// what they measure. `storedRowJson` comes from the caller (built or source).
const STATUSES = ['ACTIVE', 'PAUSED', 'ARCHIVED', 'DELETED'];

/** The stored body of campaign `i` (ids from 23,800,000,000,000 + `idBase` + i). */
export function campaignRow(adv, i, idBase = 0) {
  const id = String(23_800_000_000_000 + idBase + i);
  return {
    advertiserId: adv,
    id,
    name: `Campaign ${i}`,
    path: id,
    provider: 'provider_a',
    type: 'campaign',
    status: STATUSES[i % 4],
    currency: 'USD',
    createdTime: 1_780_000_000_000 + i,
    updatedTime: 1_780_000_000_000 + i,
    budget: (i % 500) + 10,
    budgetLevel: 'campaign',
    budgetType: 'daily',
    bidStrategy: null,
    objective: 'OUTCOME_SALES',
    adsetBudgetSharing: null,
  };
}

/** `n` stored campaigns of `adv` in `org`, one transaction; later calls store later (newer) rows. */
export function fillStored(db, storedRowJson, { org, adv, n, idBase = 0, withJson = true }) {
  const insert = db.prepare(
    `INSERT INTO observe_rows (kind, org_id, advertiser_id, provider, id, status, campaign_id, ad_group_id, source, row, json, created_at)
     VALUES ('campaign', ?, ?, 'provider_a', ?, ?, NULL, NULL, '0:USD', ?, ?, ?)`,
  );
  db.transaction(() => {
    for (let i = 1; i <= n; i++) {
      const body = campaignRow(adv, i, idBase);
      const createdAt = 1_790_000_000_000 + idBase + i;
      insert.run(org, adv, body.id, body.status, JSON.stringify(body), withJson ? storedRowJson('campaign', body, createdAt, null) : null, createdAt);
    }
  })();
}
