// Migration 010 (#37 review): a written table's `seq` is never used twice.
//
// 009 dropped AUTOINCREMENT (its sqlite_sequence write on every INSERT), and
// with it the promise: SQLite gives a new row max(seq) + 1, so after the
// newest row is deleted the next row takes its number. Paging alone would
// survive that, but a `seq` resolved by one statement and written by the next
// would not: a route resolves a Brand or a Persona, then writes `WHERE seq = ?`
// or attaches a child to `brand_seq = ?`; another process on the same store
// file deleting that row and creating one in between would have the write land
// on the new row (another organization's, possibly) instead of failing as
// "deleted meanwhile". And a cursor "after seq N" handed out before the delete
// would show the row created after it.
//
// The promise back, without a write per INSERT: one row per table in
// `seq_high_water`, written only when the table's newest row is deleted (a
// trigger), and every INSERT names its seq as max(max(seq), high water) + 1
// (`nextSeq`). A second trigger refuses an INSERT whose seq is not above the
// high water: an INSERT that forgot `nextSeq` fails loudly the first time it
// would reuse a number, never silently.
import { SEQ_TABLES } from './seq-rebuild.js';

export type SeqTable = (typeof SEQ_TABLES)[number];

/** The seq of a new row of `table`: above every seq the table has held. An SQL expression (a subquery). */
export function nextSeq(table: SeqTable): string {
  return `(SELECT max(coalesce((SELECT max(seq) FROM ${table}), 0), coalesce((SELECT seq FROM seq_high_water WHERE name = '${table}'), 0)) + 1)`;
}

function triggers(table: SeqTable): string {
  return `
CREATE TRIGGER seq_high_water_${table} AFTER DELETE ON ${table}
  WHEN OLD.seq > coalesce((SELECT max(seq) FROM ${table}), 0)
  BEGIN
    INSERT INTO seq_high_water (name, seq) VALUES ('${table}', OLD.seq)
      ON CONFLICT (name) DO UPDATE SET seq = max(seq, excluded.seq);
  END;
CREATE TRIGGER seq_never_reused_${table} AFTER INSERT ON ${table}
  WHEN NEW.seq <= coalesce((SELECT seq FROM seq_high_water WHERE name = '${table}'), 0)
  BEGIN
    SELECT RAISE(ABORT, 'seq of ${table} would be reused: insert with nextSeq');
  END;`;
}

export const SEQ_HIGH_WATER = `
CREATE TABLE seq_high_water (
  name TEXT PRIMARY KEY,
  seq  INTEGER NOT NULL
) WITHOUT ROWID;
${SEQ_TABLES.map(triggers).join('\n')}
`;
