// Tables of the sandbox's assets domain, and the upload slots that Assets and
// Brand Documents share (models/uploads). Bytes live in the file store under
// the upload id, never in the database.
export const ASSETS_SCHEMA = `
CREATE TABLE uploads (
  id           TEXT PRIMARY KEY,        -- upl_…; also the file's key in the file store
  org_id       TEXT NOT NULL,
  purpose      TEXT NOT NULL CHECK (purpose IN ('asset', 'document')),
  state        TEXT NOT NULL CHECK (state IN ('awaiting_bytes', 'received', 'too_large')),
  content_type TEXT,                    -- as the PUT sent it
  size_bytes   INTEGER,
  limits       TEXT NOT NULL,           -- JSON {mediaType: maxBytes}, fixed at reservation
  expires_at   INTEGER NOT NULL,        -- the upload URL cannot start an upload after this
  created_at   INTEGER NOT NULL,
  received_at  INTEGER
);

CREATE TABLE assets (
  seq          INTEGER PRIMARY KEY AUTOINCREMENT,  -- newest-first paging
  id           TEXT NOT NULL UNIQUE,               -- ast_…
  org_id       TEXT NOT NULL,
  upload_id    TEXT NOT NULL,
  filename     TEXT NOT NULL,
  state        TEXT NOT NULL CHECK (state IN ('reserved', 'ready')),
  kind         TEXT CHECK (kind IN ('image', 'video')),
  mime_type    TEXT,
  size_bytes   INTEGER,
  width        INTEGER,
  height       INTEGER,
  revision     INTEGER NOT NULL DEFAULT 1,
  created_by   TEXT NOT NULL,                      -- member id
  created_at   INTEGER NOT NULL,
  updated_at   INTEGER NOT NULL,
  finalized_at INTEGER
);
CREATE INDEX assets_org ON assets(org_id, seq);
CREATE INDEX assets_org_state ON assets(org_id, state, seq);

CREATE TABLE asset_registrations (
  seq               INTEGER PRIMARY KEY AUTOINCREMENT,
  id                TEXT NOT NULL UNIQUE,          -- areg_…
  asset_id          TEXT NOT NULL REFERENCES assets(id) ON DELETE CASCADE,
  advertiser_id     TEXT NOT NULL,
  provider          TEXT NOT NULL,
  provider_asset_id TEXT NOT NULL,                 -- the id the provider's library gave it
  created_at        INTEGER NOT NULL,
  UNIQUE (asset_id, advertiser_id)
);
`;

/** The SHA-256 of a ready Asset's bytes, set at finalize (null before, and on rows older than this column). */
export const ASSET_SHA256 = `ALTER TABLE assets ADD COLUMN sha256 TEXT;`;
/**
 * Why a PUT was cut off (#13): the limit that stopped it and whether it was the
 * reservation's (its type's limit, or the size it named) or the organization's
 * quota, so finalize can say which. The index serves the quota's sum of stored bytes.
 */
export const UPLOAD_REFUSALS = `
ALTER TABLE uploads ADD COLUMN limit_bytes INTEGER;
ALTER TABLE uploads ADD COLUMN refused_by TEXT CHECK (refused_by IN ('limit', 'org_quota'));
CREATE INDEX uploads_org_state ON uploads(org_id, state);
`;
