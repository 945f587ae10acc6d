// Tables of the sandbox's platform domain: who may call (organizations,
// members, API keys), which advertisers they connect, and the store's own
// settings (the HMAC secret, whether a world was loaded).
export const PLATFORM_SCHEMA = `
CREATE TABLE sandbox_meta (
  key   TEXT PRIMARY KEY,
  value BLOB NOT NULL
);

CREATE TABLE organizations (
  id          TEXT PRIMARY KEY,
  name        TEXT NOT NULL,
  subscribed  INTEGER NOT NULL CHECK (subscribed IN (0, 1)),
  paywall_url TEXT NOT NULL
);

CREATE TABLE members (
  id     TEXT PRIMARY KEY,
  org_id TEXT NOT NULL REFERENCES organizations(id),
  email  TEXT NOT NULL,
  role   TEXT NOT NULL CHECK (role IN ('owner', 'admin', 'member')),
  state  TEXT NOT NULL CHECK (state IN ('active', 'left', 'deleted'))
);
CREATE INDEX members_org ON members(org_id);

-- The sandbox keeps keys in clear so 'adops sandbox keys' can list them; a real
-- service would keep only a hash.
CREATE TABLE api_keys (
  id          TEXT PRIMARY KEY,
  key         TEXT NOT NULL UNIQUE,
  member_id   TEXT NOT NULL REFERENCES members(id),
  permissions TEXT NOT NULL,          -- JSON: "all" or an array of permission names
  state       TEXT NOT NULL CHECK (state IN ('active', 'revoked', 'expired')),
  expires_at  INTEGER,                -- epoch ms; past it the key is expired whatever its state
  label       TEXT NOT NULL,
  description TEXT NOT NULL,
  seq         INTEGER NOT NULL
);

CREATE TABLE advertisers (
  seq        INTEGER PRIMARY KEY,     -- insertion order, for newest-first lists
  id         TEXT NOT NULL UNIQUE,
  org_id     TEXT NOT NULL REFERENCES organizations(id),
  provider   TEXT NOT NULL,
  name       TEXT NOT NULL,
  currency   TEXT,
  connection TEXT NOT NULL CHECK (connection IN ('connected', 'not_connected', 'no_write_access'))
);
CREATE INDEX advertisers_org ON advertisers(org_id, seq);
`;
