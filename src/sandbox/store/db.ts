// Opens the sandbox's SQLite store and brings its schema up to date. Each
// migration runs in its own transaction together with its record in
// `migrations`, so a crash leaves either the old or the new schema, never half.
import { openSqlite, openSqliteImage } from './sqlite.js';
import type { Database as DatabaseType } from './sqlite.js';
import { mkdirSync } from 'node:fs';
import { dirname } from 'node:path';
import { randomBytes } from 'node:crypto';
import { MIGRATIONS } from './migrations.js';
import type { Migration } from './migrations.js';

export type { DatabaseType as Database };

/** `path` is a file, or ':memory:'. */
export function openDatabase(path: string, migrations: readonly Migration[] = MIGRATIONS): DatabaseType {
  if (path !== ':memory:') mkdirSync(dirname(path), { recursive: true });
  return prepareStore(openSqlite(path), path !== ':memory:', migrations);
}

/**
 * An in-memory store holding a copy of a database file's bytes, if `accept` takes it as it is
 * (before any migration runs on it); else undefined, as where the driver cannot open an image.
 */
export function openDatabaseImage(
  image: Buffer,
  accept: (db: DatabaseType) => boolean,
  migrations: readonly Migration[] = MIGRATIONS,
): DatabaseType | undefined {
  const db = openSqliteImage(image);
  if (!db) return undefined;
  let accepted = false;
  try {
    accepted = accept(db);
  } finally {
    if (!accepted) db.close();
  }
  return accepted ? prepareStore(db, false, migrations) : undefined;
}

function prepareStore(db: DatabaseType, file: boolean, migrations: readonly Migration[]): DatabaseType {
  try {
    if (file) db.exec('PRAGMA journal_mode = WAL');
    db.exec('PRAGMA foreign_keys = ON');
    db.exec('PRAGMA busy_timeout = 5000');
    db.exec('PRAGMA synchronous = NORMAL');
    migrate(db, migrations);
    cacheStatements(db);
  } catch (err) {
    db.close();
    throw err;
  }
  return db;
}

function migrate(db: DatabaseType, migrations: readonly Migration[]): void {
  db.exec(`CREATE TABLE IF NOT EXISTS migrations (name TEXT PRIMARY KEY, applied_at INTEGER NOT NULL)`);
  const applied = new Set(db.prepare('SELECT name FROM migrations').pluck().all());
  const record = db.prepare('INSERT INTO migrations (name, applied_at) VALUES (?, ?)');
  for (const m of migrations) {
    if (applied.has(m.name)) continue;
    if (m.foreignKeysOff) db.exec('PRAGMA foreign_keys = OFF');
    try {
      db.transaction(() => {
        if (m.sql.trim()) db.exec(m.sql);
        m.step?.(db);
        if (m.foreignKeysOff) assertForeignKeysHold(db, m.name);
        record.run(m.name, Date.now());
      })();
    } finally {
      if (m.foreignKeysOff) db.exec('PRAGMA foreign_keys = ON');
    }
  }
}

/** Throws (so the migration rolls back) if any row refers to a row that is not there. */
function assertForeignKeysHold(db: DatabaseType, migration: string): void {
  const broken = db.prepare('PRAGMA foreign_key_check').all();
  if (broken.length > 0) throw new Error(`migration ${migration} would leave ${broken.length} row(s) referring to nothing`);
}

/** Distinct SQL texts kept prepared; dynamic list queries have few shapes, so this is never reached in practice. */
const STATEMENT_CACHE_SIZE = 1000;

/**
 * Prepare each SQL text once per database: preparing costs more than running a
 * small statement, and the models run the same few texts on every request. The
 * cache belongs to this db object (no module-level state) and dies with it.
 * A cached statement keeps the modes set on it (pluck, raw), so a text is
 * always used in one mode; statements are never iterated while reused.
 */
function cacheStatements(db: DatabaseType): void {
  const prepare = db.prepare.bind(db);
  const cache = new Map<string, ReturnType<typeof prepare>>();
  db.prepare = ((sql: string) => {
    let stmt = cache.get(sql);
    if (!stmt) {
      if (cache.size >= STATEMENT_CACHE_SIZE) cache.clear();
      stmt = prepare(sql);
      cache.set(sql, stmt);
    }
    return stmt;
  }) as typeof db.prepare;
}

/** A value of `sandbox_meta`, created with `init()` the first time it is asked for. */
export function metaValue(db: DatabaseType, key: string, init: () => Buffer): Buffer {
  const row = db.prepare<[string], { value: Buffer }>('SELECT value FROM sandbox_meta WHERE key = ?').get(key);
  if (row) return Buffer.from(row.value);
  const value = init();
  db.prepare('INSERT INTO sandbox_meta (key, value) VALUES (?, ?)').run(key, value);
  return value;
}

/** The store's HMAC secret: random once, then stable so cursors survive restarts. */
export function storeSecret(db: DatabaseType): Buffer {
  return metaValue(db, 'secret', () => randomBytes(32));
}

/** The names of the migrations a store has applied (its schema version), sorted. */
export function appliedMigrations(db: DatabaseType): string[] {
  return db
    .prepare<[], string>('SELECT name FROM migrations ORDER BY name')
    .pluck()
    .all()
    .map((name) => String(name));
}

export function isWorldLoaded(db: DatabaseType): boolean {
  return db.prepare(`SELECT 1 FROM sandbox_meta WHERE key = 'world_loaded'`).get() !== undefined;
}

export function markWorldLoaded(db: DatabaseType): void {
  db.prepare(`INSERT OR REPLACE INTO sandbox_meta (key, value) VALUES ('world_loaded', ?)`).run(Buffer.from('1'));
}
