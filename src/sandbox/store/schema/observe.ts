// Tables of the sandbox's observe domain.
//
// provider_* tables hold the simulated ad platforms' own state: each entity's
// native payload (the provider's keys and units) in the provider's own order.
// Mutations change it there; live reads read it there.
//
// observe_* tables hold what the service stored: normalized rows written by
// ingestion (src/sandbox/ingest), paged newest first by keyset on `seq`.
export const OBSERVE_SCHEMA = `
CREATE TABLE provider_entities (
  advertiser_id TEXT NOT NULL,
  kind          TEXT NOT NULL,           -- campaign | ad_group | ad | creative | asset_group | shared_budget
  id            TEXT NOT NULL,           -- provider's id (provider_c ads: {adGroupId}~{adId})
  position      INTEGER NOT NULL,        -- the provider's own listing order
  payload       TEXT NOT NULL,           -- JSON, the provider's keys and units
  stamp         INTEGER NOT NULL,        -- provider's last-edit time (ms) as ingestion sees it
  PRIMARY KEY (advertiser_id, kind, id)
) WITHOUT ROWID;
CREATE INDEX provider_entities_order ON provider_entities(advertiser_id, kind, position);

CREATE TABLE provider_insights (
  advertiser_id TEXT NOT NULL,
  date          TEXT NOT NULL,           -- YYYY-MM-DD
  campaign_id   TEXT NOT NULL,
  ad_group_id   TEXT,
  ad_id         TEXT,
  spend         REAL NOT NULL,           -- provider's money unit (minor, whole, micros)
  impressions   INTEGER NOT NULL,
  clicks        INTEGER NOT NULL,
  reach         INTEGER NOT NULL,
  conversions   REAL NOT NULL
);
CREATE INDEX provider_insights_adv ON provider_insights(advertiser_id, date);

CREATE TABLE provider_faults (
  provider              TEXT PRIMARY KEY,
  error_rate            REAL NOT NULL,
  latency_ms            INTEGER NOT NULL,
  rate_limit_per_minute INTEGER,          -- null: no limit
  seed                  INTEGER NOT NULL
);

CREATE TABLE observe_rows (
  seq           INTEGER PRIMARY KEY AUTOINCREMENT,  -- order of first storage; never reused
  kind          TEXT NOT NULL,           -- campaign | ad_group | ad | creative | asset_group
  org_id        TEXT NOT NULL,
  advertiser_id TEXT NOT NULL,
  provider      TEXT NOT NULL,
  id            TEXT NOT NULL,
  status        TEXT NOT NULL,
  campaign_id   TEXT,
  ad_group_id   TEXT,
  source        TEXT NOT NULL,           -- provider edit stamp + currency the row was normalized from
  row           TEXT NOT NULL,           -- JSON of the normalized row without the service times
  created_at    INTEGER NOT NULL,
  updated_at    INTEGER,
  deleted_at    INTEGER
);
CREATE UNIQUE INDEX observe_rows_identity ON observe_rows(advertiser_id, kind, id);
-- Keyset paging (newest first) for each filter a stored read takes; partial so
-- deleted rows cost nothing to skip.
CREATE INDEX observe_rows_org ON observe_rows(org_id, kind, seq) WHERE deleted_at IS NULL;
CREATE INDEX observe_rows_adv ON observe_rows(advertiser_id, kind, seq) WHERE deleted_at IS NULL;
CREATE INDEX observe_rows_campaign ON observe_rows(org_id, kind, campaign_id, seq) WHERE deleted_at IS NULL;

CREATE TABLE observe_insights (
  org_id        TEXT NOT NULL,
  advertiser_id TEXT NOT NULL,
  provider      TEXT NOT NULL,
  currency      TEXT,
  date          TEXT NOT NULL,
  campaign_id   TEXT NOT NULL,
  ad_group_id   TEXT,
  ad_group_type TEXT,
  ad_id         TEXT,
  ad_type       TEXT,
  spend_micros  INTEGER,                 -- whole units × 1e6, exact; null when the currency is unknown
  impressions   INTEGER NOT NULL,
  clicks        INTEGER NOT NULL,
  reach         INTEGER NOT NULL,
  conversions   REAL NOT NULL
);
CREATE INDEX observe_insights_org ON observe_insights(org_id, date);
CREATE INDEX observe_insights_adv ON observe_insights(advertiser_id, date);
`;

// The whole serialized row (contract key order, service times included), so a
// stored read splices stored text into the page instead of parsing and
// re-serializing each row. Written by ingestion with every insert or rewrite;
// null only on rows stored before this column existed (read back the slow way).
export const OBSERVE_ROW_JSON = `
ALTER TABLE observe_rows ADD COLUMN json TEXT;
`;
