// The SQLite the sandbox runs on, behind the few calls it makes (docs/decisions.md
// "SQLite on every Node the package admits (#18)"):
// - node:sqlite where Node has it complete (22.15+, 23.11+: unflagged, with
//   setAllowUnknownNamedParameters): no native module to build or to mismatch;
// - else better-sqlite3 12 (an optionalDependency, compiled on install), which
//   runs on Node 20 and 22 but aborts in its Statement destructor on Node ≥ 24.19
//   (fixed only in 13.x, which needs Node ≥ 22; there node:sqlite is used).
// ADOPS_SQLITE_DRIVER=better-sqlite3|node:sqlite forces one (tests and CI use it).
// Both answer the same way here: rows are plain objects with Buffers for blobs,
// errors carry better-sqlite3's SQLITE_* codes, transactions nest as savepoints.
import { createRequire } from 'node:module';

export type RunResult = { changes: number; lastInsertRowid: number | bigint };

/** A prepared statement; `pluck()` switches it (for good) to answering the first column only. */
export interface Statement<P extends unknown[] = unknown[], R = unknown> {
  run(...params: P): RunResult;
  get(...params: P): R | undefined;
  all(...params: P): R[];
  pluck(): Statement<P, unknown>;
}

export interface Database {
  prepare<P extends unknown[] = unknown[], R = unknown>(sql: string): Statement<P, R>;
  exec(sql: string): void;
  /** better-sqlite3's contract: the returned function runs `fn` in a transaction (a savepoint when nested). */
  transaction<A extends unknown[], T>(fn: (...args: A) => T): (...args: A) => T;
  close(): void;
  /** A SQL function of no arguments that calls `fn` (and answers NULL), on this connection only. */
  function(name: string, fn: () => null): unknown;
  readonly open: boolean;
  /** better-sqlite3's: a transaction is open on this connection (store/page-cache.ts keeps nothing made inside one). */
  readonly inTransaction: boolean;
}

export type SqliteDriver = 'node:sqlite' | 'better-sqlite3';

/** Neither SQLite can be had on this Node: what is missing and what to do (the CLI shows both, exit 1). */
export class SqliteUnavailableError extends Error {
  override readonly name = 'SqliteUnavailableError';
  constructor(
    message: string,
    readonly hint: string,
    readonly code: 'native_module_mismatch' | 'sqlite_unavailable',
  ) {
    super(message);
  }
}

export interface OpenOptions {
  readonly?: boolean;
}

export function openSqlite(path: string, opts: OpenOptions = {}, env: NodeJS.ProcessEnv = process.env): Database {
  return sqliteDriver(env) === 'node:sqlite' ? openNodeSqlite(path, opts) : openBetterSqlite(path, opts);
}

/**
 * An in-memory database holding a copy of `image` (the bytes of a database file), writable; or
 * undefined where the driver cannot: node:sqlite before `deserialize()` (Node 26). better-sqlite3
 * documents `new Database(buffer)` for this (the bytes of `serialize()`, i.e. of a database file).
 */
export function openSqliteImage(image: Buffer, env: NodeJS.ProcessEnv = process.env): Database | undefined {
  if (sqliteDriver(env) === 'better-sqlite3') return openBetterSqlite(image, {});
  const m = nodeSqlite();
  if (!m) return openNodeSqlite(':memory:', {}); // throws what is missing
  if (!imagesInMemory(env)) return undefined;
  const db = new m.DatabaseSync(':memory:');
  sqliteCoded(() => db.deserialize?.(image));
  return new NodeDatabase(db);
}

/** Whether openSqliteImage can open an image here: better-sqlite3, or a node:sqlite with deserialize(). */
export function imagesInMemory(env: NodeJS.ProcessEnv = process.env): boolean {
  if (sqliteDriver(env) === 'better-sqlite3') return true;
  const m = nodeSqlite();
  return m !== undefined && 'deserialize' in m.DatabaseSync.prototype && typeof m.DatabaseSync.prototype.deserialize === 'function';
}

export function sqliteDriver(env: NodeJS.ProcessEnv = process.env): SqliteDriver {
  const forced = env.ADOPS_SQLITE_DRIVER;
  if (forced && forced !== 'better-sqlite3' && forced !== 'node:sqlite') {
    throw new SqliteUnavailableError(
      `ADOPS_SQLITE_DRIVER=${forced} names no SQLite driver`,
      'set it to node:sqlite or better-sqlite3, or unset it',
      'sqlite_unavailable',
    );
  }
  if (forced === 'better-sqlite3') return forced;
  if (forced === 'node:sqlite' || nodeSqlite() !== undefined) return 'node:sqlite';
  return 'better-sqlite3';
}

// ---- node:sqlite -----------------------------------------------------------

// The part of node:sqlite used here (@types/node 20 has no node:sqlite).
interface NodeStatement {
  run(...params: unknown[]): RunResult;
  get(...params: unknown[]): unknown;
  all(...params: unknown[]): unknown[];
  setAllowUnknownNamedParameters(enabled: boolean): void;
}
interface NodeSqliteDatabase {
  prepare(sql: string): NodeStatement;
  exec(sql: string): void;
  close(): void;
  /** Node 22.13+ (so every node:sqlite used here): a user-defined SQL function. */
  function(name: string, fn: () => null): void;
  /** Node 26+ (and later 24.x): replace this database by a copy of a serialized one. */
  deserialize?(image: Uint8Array): void;
  /** Node 22.16+: a transaction is open (also one begun by exec). */
  readonly isTransaction?: boolean;
}
interface NodeSqliteModule {
  DatabaseSync: { new (path: string, options?: { readOnly?: boolean }): NodeSqliteDatabase; prototype: object };
  StatementSync: { prototype: Partial<NodeStatement> };
}
let nodeModule: NodeSqliteModule | null | undefined;

/** node:sqlite if this Node has all we use, loaded without its "experimental" warning. */
function nodeSqlite(): NodeSqliteModule | undefined {
  if (nodeModule === undefined) {
    // Put back exactly what was there (its own property, or none over the prototype's).
    const own = Object.getOwnPropertyDescriptor(process, 'emitWarning');
    const emit = process.emitWarning.bind(process);
    process.emitWarning = (warning: string | Error, ...rest: unknown[]) => {
      if (!String(warning).includes('SQLite')) Reflect.apply(emit, process, [warning, ...rest]);
    };
    try {
      const m = process.getBuiltinModule?.('node:sqlite');
      nodeModule = isCompleteNodeSqlite(m) ? m : null;
    } catch {
      nodeModule = null;
    } finally {
      if (own) Object.defineProperty(process, 'emitWarning', own);
      else Reflect.deleteProperty(process, 'emitWarning');
    }
  }
  return nodeModule ?? undefined;
}

/** node:sqlite with StatementSync#setAllowUnknownNamedParameters (22.15+, 23.11+). */
function isCompleteNodeSqlite(m: unknown): m is NodeSqliteModule {
  if (typeof m !== 'object' || m === null || !('DatabaseSync' in m) || !('StatementSync' in m) || typeof m.StatementSync !== 'function') return false;
  const proto: unknown = m.StatementSync.prototype;
  return typeof proto === 'object' && proto !== null && 'setAllowUnknownNamedParameters' in proto && typeof proto.setAllowUnknownNamedParameters === 'function';
}

function openNodeSqlite(path: string, opts: OpenOptions): Database {
  const m = nodeSqlite();
  if (!m)
    throw new SqliteUnavailableError(
      `this Node (${process.version}) has no complete node:sqlite`,
      'use Node 22.15 or newer, or unset ADOPS_SQLITE_DRIVER',
      'sqlite_unavailable',
    );
  return new NodeDatabase(new m.DatabaseSync(path, { readOnly: opts.readonly ?? false }));
}

/** Extended result codes → better-sqlite3's names (slug.ts and others look at `code`). */
const CODES: Record<number, string> = {
  1: 'SQLITE_ERROR',
  5: 'SQLITE_BUSY',
  6: 'SQLITE_LOCKED',
  8: 'SQLITE_READONLY',
  11: 'SQLITE_CORRUPT',
  13: 'SQLITE_FULL',
  14: 'SQLITE_CANTOPEN',
  19: 'SQLITE_CONSTRAINT',
  26: 'SQLITE_NOTADB',
  275: 'SQLITE_CONSTRAINT_CHECK',
  787: 'SQLITE_CONSTRAINT_FOREIGNKEY',
  1299: 'SQLITE_CONSTRAINT_NOTNULL',
  1555: 'SQLITE_CONSTRAINT_PRIMARYKEY',
  2067: 'SQLITE_CONSTRAINT_UNIQUE',
};

function sqliteCoded<T>(work: () => T): T {
  try {
    return work();
  } catch (err) {
    if (err instanceof Error && 'code' in err && err.code === 'ERR_SQLITE_ERROR' && 'errcode' in err && typeof err.errcode === 'number') {
      err.code = CODES[err.errcode] ?? CODES[err.errcode & 0xff] ?? 'SQLITE_ERROR';
    }
    throw err;
  }
}

/**
 * better-sqlite3's binding: arrays spread, one plain object is the named parameters, undefined is NULL.
 * node:sqlite refuses a value it cannot bind (as better-sqlite3 does) with its own message.
 */
function bindArgs(params: unknown[]): unknown[] {
  let named: Record<string, unknown> | undefined;
  const positional: unknown[] = [];
  for (const p of params.flat()) {
    if (p !== null && typeof p === 'object' && !(p instanceof Uint8Array)) {
      named = {};
      for (const [k, v] of Object.entries(p)) named[k] = v ?? null;
    } else positional.push(p ?? null);
  }
  return named ? [named, ...positional] : positional;
}

function plainRow(row: object): Record<string, unknown> {
  const out: Record<string, unknown> = {};
  for (const [k, v] of Object.entries(row)) out[k] = blobAsBuffer(v);
  return out;
}

function blobAsBuffer(v: unknown): unknown {
  return v instanceof Uint8Array && !Buffer.isBuffer(v) ? Buffer.from(v.buffer, v.byteOffset, v.byteLength) : v;
}

class NodeStatementAdapter implements Statement {
  private plucked = false;
  constructor(private readonly s: NodeStatement) {
    s.setAllowUnknownNamedParameters(true); // better-sqlite3 ignores extra keys of the named-parameter object
  }
  run(...params: unknown[]): RunResult {
    return sqliteCoded(() => this.s.run(...bindArgs(params)));
  }
  get(...params: unknown[]): unknown {
    const row = sqliteCoded(() => this.s.get(...bindArgs(params)));
    return row === undefined ? undefined : this.shape(row);
  }
  all(...params: unknown[]): unknown[] {
    return sqliteCoded(() => this.s.all(...bindArgs(params))).map((r) => this.shape(r));
  }
  pluck(): Statement {
    this.plucked = true;
    return this;
  }
  private shape(row: unknown): unknown {
    if (typeof row !== 'object' || row === null) return row;
    if (!this.plucked) return plainRow(row);
    for (const v of Object.values(row)) return blobAsBuffer(v);
    return undefined;
  }
}

class NodeDatabase implements Database {
  private depth = 0;
  private closed = false;
  constructor(private readonly db: NodeSqliteDatabase) {}
  get open(): boolean {
    return !this.closed;
  }
  get inTransaction(): boolean {
    return this.depth > 0 || this.db.isTransaction === true;
  }
  prepare<P extends unknown[] = unknown[], R = unknown>(sql: string): Statement<P, R> {
    // Rows are whatever the SQL selects: the caller names their type, as with better-sqlite3.
    return new NodeStatementAdapter(sqliteCoded(() => this.db.prepare(sql))) as Statement<P, R>;
  }
  exec(sql: string): void {
    sqliteCoded(() => this.db.exec(sql));
  }
  transaction<A extends unknown[], T>(fn: (...args: A) => T): (...args: A) => T {
    return (...args: A): T => {
      const savepoint = `adops_${this.depth}`;
      this.exec(this.depth === 0 ? 'BEGIN' : `SAVEPOINT ${savepoint}`);
      this.depth += 1;
      let result: T;
      try {
        result = fn(...args);
        if (typeof result === 'object' && result !== null && 'then' in result && typeof result.then === 'function') {
          throw new TypeError('Transaction function cannot return a promise');
        }
      } catch (err) {
        this.depth -= 1;
        try {
          this.exec(this.depth === 0 ? 'ROLLBACK' : `ROLLBACK TO ${savepoint}; RELEASE ${savepoint}`);
        } catch {
          // SQLite already rolled back (e.g. after SQLITE_FULL): the original error is the news.
        }
        throw err;
      }
      this.depth -= 1;
      this.exec(this.depth === 0 ? 'COMMIT' : `RELEASE ${savepoint}`);
      return result;
    };
  }
  function(name: string, fn: () => null): void {
    sqliteCoded(() => this.db.function(name, fn));
  }
  close(): void {
    if (this.closed) return;
    this.closed = true;
    this.db.close();
  }
}

// ---- better-sqlite3 --------------------------------------------------------

function openBetterSqlite(path: string | Buffer, opts: OpenOptions): Database {
  try {
    // Loaded only here: on a Node with node:sqlite the native module is never touched (nor needed).
    const BetterSqlite = createRequire(import.meta.url)('better-sqlite3') as new (file: string | Buffer, o?: { readonly?: boolean }) => Database;
    return new BetterSqlite(path, { readonly: opts.readonly ?? false });
  } catch (err) {
    throw nativeModuleProblem(err) ?? err;
  }
}

const REINSTALL =
  'reinstall adops under this Node, as you installed it (the tarball or the git URL, README "Install"; `npm rebuild better-sqlite3` / `npm ci` in a checkout); Node 22.15 or newer needs no native module at all';

/** better-sqlite3 missing, unbuilt or built for another Node → a sentence saying to reinstall, else undefined. */
export function nativeModuleProblem(err: unknown): SqliteUnavailableError | undefined {
  const code = typeof err === 'object' && err !== null && 'code' in err ? err.code : undefined;
  const message = typeof err === 'object' && err !== null && 'message' in err && typeof err.message === 'string' ? err.message : '';
  const versions = /NODE_MODULE_VERSION (\d+)[\s\S]*NODE_MODULE_VERSION (\d+)/.exec(message);
  if (versions || (code === 'ERR_DLOPEN_FAILED' && /better.sqlite3/.test(message))) {
    const built = versions ? ` (NODE_MODULE_VERSION ${versions[1]}; this Node ${process.version} needs ${versions[2]})` : '';
    return new SqliteUnavailableError(
      `the sandbox's SQLite module (better-sqlite3) was built for another Node version${built}`,
      REINSTALL,
      'native_module_mismatch',
    );
  }
  if ((code === 'MODULE_NOT_FOUND' && /better-sqlite3/.test(message)) || /Could not locate the bindings file/.test(message)) {
    return new SqliteUnavailableError(
      `the sandbox needs SQLite: this Node (${process.version}) has no complete node:sqlite and the optional native module better-sqlite3 is not installed (it could not be built here)`,
      'use Node 22.15 or newer (node:sqlite, nothing to build), or install a C++ toolchain and reinstall adops; the client commands work without it',
      'sqlite_unavailable',
    );
  }
  return undefined;
}
