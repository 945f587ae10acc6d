// Tables of the sandbox's mutations domain: the changes started on advertisers
// (a state machine driven by the worker in models/mutations-worker.ts) and the
// Idempotency-Key records of POST /mutations.
export const MUTATIONS_SCHEMA = `
CREATE TABLE mutations (
  seq           INTEGER PRIMARY KEY AUTOINCREMENT, -- newest-first paging
  id            TEXT NOT NULL UNIQUE,              -- mut_…
  org_id        TEXT NOT NULL,
  member_id     TEXT NOT NULL,                     -- the starter: only they may poll it
  advertiser_id TEXT NOT NULL,
  provider      TEXT NOT NULL,
  target_type   TEXT NOT NULL CHECK (target_type IN ('campaign', 'ad_group')),
  target_id     TEXT NOT NULL,
  action        TEXT NOT NULL,
  request       TEXT NOT NULL,                     -- JSON: the accepted body
  state         TEXT NOT NULL CHECK (state IN ('pending', 'running', 'succeeded', 'failed')),
  error         TEXT,                              -- JSON error body when failed
  result        TEXT,                              -- JSON: the entity as the provider answered
  created_at    INTEGER NOT NULL,
  updated_at    INTEGER NOT NULL,
  started_at    INTEGER,
  completed_at  INTEGER
);
CREATE INDEX mutations_org ON mutations(org_id, seq);
CREATE INDEX mutations_org_adv ON mutations(org_id, advertiser_id, seq);
CREATE INDEX mutations_open ON mutations(state, seq) WHERE state IN ('pending', 'running');

CREATE TABLE mutation_idempotency (
  org_id       TEXT NOT NULL,
  key          TEXT NOT NULL,
  request_hash TEXT NOT NULL,                      -- sha256 of the canonical body
  mutation_id  TEXT NOT NULL,
  created_at   INTEGER NOT NULL,                   -- kept 24 h, then the key may start a new mutation
  PRIMARY KEY (org_id, key)
);
`;

/**
 * Migration 011 (#37 session 10): the worker's steps found by when they fall due. Through
 * mutations_open a pass read every open mutation (the due time is a column of the row, not of that
 * index), and a pass runs on nearly every Mutations request: at the table's 0.5 s lifecycle and
 * ~1,000 changes a second, ~500 rows read per request, most of the sandbox's CPU per change. Each of
 * these holds the open mutations of one state by the time their next step is counted from, so a
 * pass reads the due rows and the earliest of the others, whatever the number open. mutations_open
 * goes: no query reads it any more (the list's state filter is `state = ?`, which SQLite does not
 * match to an index whose condition is an IN), and each change of state rewrote it for nothing.
 */
export const MUTATIONS_DUE = `
CREATE INDEX mutations_pending_due ON mutations(created_at) WHERE state = 'pending';
CREATE INDEX mutations_running_due ON mutations(started_at) WHERE state = 'running';
DROP INDEX mutations_open;
`;
