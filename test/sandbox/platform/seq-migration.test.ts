// Migration 009 (src/sandbox/store/schema/seq-rebuild.ts): a store made before it
// keeps every row, its seq and what refers to it, while the written tables lose
// AUTOINCREMENT (and with it the sqlite_sequence write of every insert); foreign
// keys hold and cascade as before; a step that would break a key rolls back.
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { rmSync } from 'node:fs';
import { join } from 'node:path';
import { openDatabase } from '../../../src/sandbox/store/db.js';
import type { Database } from '../../../src/sandbox/store/db.js';
import { MIGRATIONS } from '../../../src/sandbox/store/migrations.js';
import { SEQ_TABLES, withoutAutoincrement } from '../../../src/sandbox/store/schema/seq-rebuild.js';
import { tempDir } from '../../helpers/temp.js';

let dir: string;
beforeEach(() => {
  dir = tempDir('adops-seq-migration-');
});
afterEach(() => rmSync(dir, { recursive: true, force: true }));

const BEFORE_009 = MIGRATIONS.filter((m) => m.name < '009');

/** A store as the code before 009 left it: brands (the newest deleted), what hangs off them, skills, a plan and its line item. */
function oldStore(path: string): void {
  const db = openDatabase(path, BEFORE_009);
  db.exec(`
    INSERT INTO context_brands (org_id, slug, name, created_at, updated_at) VALUES ('org_a', 'b1', 'B1', 1, 1), ('org_a', 'b2', 'B2', 2, 2), ('org_a', 'b3', 'B3', 3, 3);
    DELETE FROM context_brands WHERE slug = 'b3';
    INSERT INTO context_personas (brand_seq, slug, name, created_at, updated_at) VALUES (1, 'p1', 'P1', 4, 4), (2, 'p2', 'P2', 5, 5);
    INSERT INTO context_brand_advertisers (brand_seq, advertiser_id, attached_at) VALUES (1, 'acc_1', 6);
    INSERT INTO context_skills (org_id, slug, name, source, created_at, updated_at) VALUES ('org_a', 's1', 'S1', 'custom', 7, 7);
    INSERT INTO context_campaign_plans (org_id, slug, name, currency, status, created_at, updated_at) VALUES ('org_a', 'plan', 'Plan', 'USD', 'draft', 8, 8);
    INSERT INTO context_line_items (id, plan_seq, name, created_at, updated_at) VALUES ('li_1', 1, 'L1', 9, 9);
  `);
  db.close();
}

const rows = (db: Database, table: string) => db.prepare(`SELECT * FROM ${table} ORDER BY seq`).all();
const tableSql = (db: Database, table: string) => String(db.prepare(`SELECT sql FROM sqlite_master WHERE type = 'table' AND name = ?`).pluck().get(table));
const indexNames = (db: Database) =>
  db.prepare(`SELECT name FROM sqlite_master WHERE type = 'index' AND sql IS NOT NULL ORDER BY name`).pluck().all().map(String);

describe('migration 009: seq without AUTOINCREMENT', () => {
  it('a store made before it keeps every row with its seq, its indexes, and its foreign keys (checked and cascading)', () => {
    const path = join(dir, 'old.db');
    oldStore(path);
    const old = openDatabase(path, BEFORE_009);
    const before = Object.fromEntries(SEQ_TABLES.map((t) => [t, rows(old, t)]));
    const indexesBefore = indexNames(old);
    expect(tableSql(old, 'context_brands')).toMatch(/AUTOINCREMENT/);
    old.close();

    const db = openDatabase(path);
    expect(db.prepare(`SELECT name FROM migrations ORDER BY name`).pluck().all()).toEqual(MIGRATIONS.map((m) => m.name));
    for (const t of SEQ_TABLES) {
      expect(rows(db, t), t).toEqual(before[t]);
      expect(tableSql(db, t), t).not.toMatch(/AUTOINCREMENT/i);
    }
    // Every index kept, but for what a later migration changes (011: the mutations' due indexes for mutations_open).
    const after011 = [...indexesBefore.filter((i) => i !== 'mutations_open'), 'mutations_pending_due', 'mutations_running_due'].sort();
    expect(indexNames(db)).toEqual(after011);
    expect(before.context_personas).toHaveLength(2); // the children survived their parents' DROP
    expect(db.prepare('PRAGMA foreign_keys').pluck().get()).toBe(1);
    expect(db.prepare('PRAGMA foreign_key_check').all()).toEqual([]);
    // Still refused: a Persona of no Brand. Still cascading: a Brand's delete takes its Persona and attachment.
    expect(() => db.exec(`INSERT INTO context_personas (brand_seq, slug, name, created_at, updated_at) VALUES (99, 'x', 'X', 1, 1)`)).toThrow(/FOREIGN KEY/);
    db.exec(`DELETE FROM context_brands WHERE seq = 1`);
    expect(db.prepare(`SELECT slug FROM context_personas`).pluck().all()).toEqual(['p2']);
    expect(db.prepare(`SELECT count(*) FROM context_brand_advertisers`).pluck().get()).toBe(0);
    // An insert no longer keeps a sequence: the new row takes the largest seq + 1.
    db.exec(`INSERT INTO context_brands (org_id, slug, name, created_at, updated_at) VALUES ('org_a', 'b4', 'B4', 10, 10)`);
    expect(db.prepare(`SELECT seq FROM context_brands WHERE slug = 'b4'`).pluck().get()).toBe(3);
    const sequences = db.prepare(`SELECT name FROM sqlite_sequence`).pluck().all().map(String);
    for (const t of SEQ_TABLES) expect(sequences).not.toContain(t);
    db.close();
  });

  it('a new store is made the same way: no written table keeps AUTOINCREMENT, observe_rows does', () => {
    const db = openDatabase(':memory:');
    for (const t of SEQ_TABLES) expect(tableSql(db, t), t).not.toMatch(/AUTOINCREMENT/i);
    expect(tableSql(db, 'observe_rows')).toMatch(/AUTOINCREMENT/);
    db.close();
  });

  it('a migration with foreign keys off that leaves a row referring to nothing rolls back whole', () => {
    const path = join(dir, 'broken.db');
    const orphan = {
      name: '999_orphan',
      sql: `CREATE TABLE half_made (x INTEGER)`,
      foreignKeysOff: true,
      step: (db: Database) => db.exec(`INSERT INTO context_personas (brand_seq, slug, name, created_at, updated_at) VALUES (42, 'o', 'O', 1, 1)`),
    };
    expect(() => openDatabase(path, [...MIGRATIONS, orphan])).toThrow(/999_orphan would leave 1 row/);
    const db = openDatabase(path);
    expect(db.prepare(`SELECT count(*) FROM context_personas`).pluck().get()).toBe(0);
    expect(db.prepare(`SELECT count(*) FROM sqlite_master WHERE name = 'half_made'`).pluck().get()).toBe(0);
    expect(db.prepare(`SELECT count(*) FROM migrations WHERE name = '999_orphan'`).pluck().get()).toBe(0);
    expect(db.prepare('PRAGMA foreign_keys').pluck().get()).toBe(1);
    db.close();
  });

  it('the new definition is the old one renamed, with its key the plain rowid; anything unexpected stops the migration', () => {
    expect(withoutAutoincrement('CREATE TABLE t (\n  seq INTEGER PRIMARY KEY AUTOINCREMENT, -- paging\n  a TEXT\n)', 't', 't_009')).toBe(
      'CREATE TABLE t_009 (\n  seq INTEGER PRIMARY KEY, -- paging\n  a TEXT\n)',
    );
    expect(withoutAutoincrement('CREATE TABLE "t" (seq INTEGER PRIMARY KEY AUTOINCREMENT)', 't', 'u')).toBe('CREATE TABLE u (seq INTEGER PRIMARY KEY)');
    expect(() => withoutAutoincrement('CREATE TABLE t (seq INTEGER PRIMARY KEY)', 't', 'u')).toThrow(/AUTOINCREMENT/);
    expect(() => withoutAutoincrement('CREATE TABLE other (seq INTEGER PRIMARY KEY AUTOINCREMENT)', 't', 'u')).toThrow(/unexpected/);
  });
});
