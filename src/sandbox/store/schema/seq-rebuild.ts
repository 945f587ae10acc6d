// Migration 009 (#37): the written tables' `seq` without AUTOINCREMENT.
//
// AUTOINCREMENT only promises that a rowid is never used twice, even after
// the newest row is deleted; it keeps that promise by reading and writing
// `sqlite_sequence` on every INSERT (~1 µs of each create). No `seq` here
// needs it: lists page newest first on `seq` (a reused number is the newest
// row, which a walk already under way never reaches), and what hangs off a
// row by its `seq` is deleted with it (ON DELETE CASCADE). observe_rows keeps
// it: its seq is "order of first storage", and ingestion is not a request.
//
// SQLite cannot drop AUTOINCREMENT in place: each table is made again
// (SQLite's "making other kinds of table schema changes": new table, copy,
// drop, rename, indexes again), from the table's text as this store holds it
// (columns later migrations added included). Foreign keys are off meanwhile,
// or dropping a parent would delete its children (migrations.ts runs this
// step so, and checks every foreign key before the step commits).
import type { Database } from '../sqlite.js';

/** The tables made again, parents before children (any order works with foreign keys off). */
export const SEQ_TABLES = [
  'context_skills',
  'context_brands',
  'context_brand_advertisers',
  'context_personas',
  'context_documents',
  'context_campaign_plans',
  'context_line_items',
  'context_line_item_executions',
  'mutations',
  'assets',
  'asset_registrations',
] as const;

const AUTOINCREMENT = /\bPRIMARY\s+KEY\s+AUTOINCREMENT\b/gi;

/** A table's CREATE text with another name and its seq a plain INTEGER PRIMARY KEY (the rowid itself). */
export function withoutAutoincrement(createSql: string, table: string, newName: string): string {
  const head = /^CREATE\s+TABLE\s+("?)([A-Za-z0-9_]+)\1\s*\(/i.exec(createSql);
  if (!head || head[2] !== table) throw new Error(`migration 009: unexpected definition of ${table}`);
  if ((createSql.match(AUTOINCREMENT) ?? []).length !== 1) throw new Error(`migration 009: ${table} has no single AUTOINCREMENT key`);
  return `CREATE TABLE ${newName} (${createSql.slice(head[0].length).replace(AUTOINCREMENT, 'PRIMARY KEY')}`;
}

function rebuild(db: Database, table: string): void {
  const create = db.prepare<[string], string>(`SELECT sql FROM sqlite_master WHERE type = 'table' AND name = ?`).pluck().get(table);
  if (typeof create !== 'string') throw new Error(`migration 009: no table ${table}`);
  const indexes = db
    .prepare<[string], string>(`SELECT sql FROM sqlite_master WHERE type = 'index' AND tbl_name = ? AND sql IS NOT NULL ORDER BY name`)
    .pluck()
    .all(table)
    .map(String);
  const next = `${table}_009`;
  db.exec(withoutAutoincrement(create, table, next));
  db.exec(`INSERT INTO ${next} SELECT * FROM ${table}`);
  db.exec(`DROP TABLE ${table}`);
  db.exec(`ALTER TABLE ${next} RENAME TO ${table}`);
  for (const sql of indexes) db.exec(sql);
}

/** The step of migration 009: every table of SEQ_TABLES made again without AUTOINCREMENT. */
export function seqWithoutAutoincrement(db: Database): void {
  for (const table of SEQ_TABLES) rebuild(db, table);
}
