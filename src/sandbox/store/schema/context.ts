// Tables of the sandbox's context domain (Skills, Brands and what hangs off a
// Brand, Campaign Plans and their Line Items). Every row is scoped by org_id:
// a row of another organization is simply not found (spec: never 403).
// `seq` orders lists newest first (keyset paging); handles (slugs) are unique
// per organization, persona slugs per brand. Amounts are stored as integers in
// minor units of the plan's currency so whole-unit decimals never drift.
export const CONTEXT_SCHEMA = `
CREATE TABLE context_skills (
  seq             INTEGER PRIMARY KEY AUTOINCREMENT,
  org_id          TEXT    NOT NULL,
  slug            TEXT    NOT NULL,
  name            TEXT    NOT NULL,
  description     TEXT    NOT NULL DEFAULT '',
  body            TEXT    NOT NULL DEFAULT '',
  source          TEXT    NOT NULL CHECK (source IN ('custom', 'catalog')),
  catalog_slug    TEXT,
  catalog_version TEXT,
  imported_at     INTEGER,
  revision        INTEGER NOT NULL DEFAULT 1,
  created_at      INTEGER NOT NULL,
  updated_at      INTEGER NOT NULL,
  UNIQUE (org_id, slug)
);

CREATE TABLE context_brands (
  seq         INTEGER PRIMARY KEY AUTOINCREMENT,
  org_id      TEXT    NOT NULL,
  slug        TEXT    NOT NULL,
  name        TEXT    NOT NULL,
  description TEXT    NOT NULL DEFAULT '',
  logo_url    TEXT,
  identity    TEXT,
  voice       TEXT,
  guidelines  TEXT,
  messaging   TEXT,
  revision    INTEGER NOT NULL DEFAULT 1,
  created_at  INTEGER NOT NULL,
  updated_at  INTEGER NOT NULL,
  UNIQUE (org_id, slug)
);

CREATE TABLE context_brand_advertisers (
  seq           INTEGER PRIMARY KEY AUTOINCREMENT,
  brand_seq     INTEGER NOT NULL REFERENCES context_brands (seq) ON DELETE CASCADE,
  advertiser_id TEXT    NOT NULL,
  attached_at   INTEGER NOT NULL,
  UNIQUE (brand_seq, advertiser_id)
);

CREATE TABLE context_personas (
  seq          INTEGER PRIMARY KEY AUTOINCREMENT,
  brand_seq    INTEGER NOT NULL REFERENCES context_brands (seq) ON DELETE CASCADE,
  slug         TEXT    NOT NULL,
  name         TEXT    NOT NULL,
  description  TEXT    NOT NULL DEFAULT '',
  demographics TEXT,
  goals        TEXT    NOT NULL DEFAULT '[]',
  pain_points  TEXT    NOT NULL DEFAULT '[]',
  channels     TEXT    NOT NULL DEFAULT '[]',
  revision     INTEGER NOT NULL DEFAULT 1,
  created_at   INTEGER NOT NULL,
  updated_at   INTEGER NOT NULL,
  UNIQUE (brand_seq, slug)
);

CREATE TABLE context_documents (
  seq          INTEGER PRIMARY KEY AUTOINCREMENT,
  id           TEXT    NOT NULL UNIQUE,
  brand_seq    INTEGER NOT NULL REFERENCES context_brands (seq) ON DELETE CASCADE,
  filename     TEXT    NOT NULL,
  content_type TEXT    NOT NULL,
  declared_size INTEGER,
  size_bytes   INTEGER,
  state        TEXT    NOT NULL CHECK (state IN ('pending_upload', 'ready')),
  file_key     TEXT    NOT NULL,
  created_at   INTEGER NOT NULL,
  updated_at   INTEGER NOT NULL,
  finalized_at INTEGER
);

CREATE TABLE context_campaign_plans (
  seq          INTEGER PRIMARY KEY AUTOINCREMENT,
  org_id       TEXT    NOT NULL,
  slug         TEXT    NOT NULL,
  name         TEXT    NOT NULL,
  description  TEXT    NOT NULL DEFAULT '',
  currency     TEXT    NOT NULL,
  budget_minor INTEGER,
  start_date   TEXT,
  end_date     TEXT,
  status       TEXT    NOT NULL CHECK (status IN ('draft', 'approved', 'archived')),
  approved_at  INTEGER,
  archived_at  INTEGER,
  revision     INTEGER NOT NULL DEFAULT 1,
  created_at   INTEGER NOT NULL,
  updated_at   INTEGER NOT NULL,
  UNIQUE (org_id, slug)
);

CREATE TABLE context_line_items (
  seq           INTEGER PRIMARY KEY AUTOINCREMENT,
  id            TEXT    NOT NULL UNIQUE,
  plan_seq      INTEGER NOT NULL REFERENCES context_campaign_plans (seq) ON DELETE CASCADE,
  name          TEXT    NOT NULL,
  provider      TEXT,
  advertiser_id TEXT,
  budget_minor  INTEGER,
  budget_type   TEXT,
  start_date    TEXT,
  end_date      TEXT,
  objective     TEXT,
  validation    TEXT,
  revision      INTEGER NOT NULL DEFAULT 1,
  created_at    INTEGER NOT NULL,
  updated_at    INTEGER NOT NULL
);
CREATE INDEX context_line_items_plan ON context_line_items (plan_seq, seq);

CREATE TABLE context_line_item_executions (
  seq          INTEGER PRIMARY KEY AUTOINCREMENT,
  id           TEXT    NOT NULL UNIQUE,
  line_item_seq INTEGER NOT NULL REFERENCES context_line_items (seq) ON DELETE CASCADE,
  provider     TEXT    NOT NULL,
  entity_type  TEXT    NOT NULL,
  entity_id    TEXT    NOT NULL,
  mutation_id  TEXT,
  recorded_at  INTEGER NOT NULL
);
CREATE INDEX context_line_item_executions_item ON context_line_item_executions (line_item_seq, seq);
`;
