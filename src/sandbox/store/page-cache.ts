// Response bodies of stored reads, kept while what they were made from is unchanged (#16, #27).
//
// A stored page is a pure function of the request (operation, organization,
// filters, cursor, limit) and of the stored rows. So a body made once can be
// sent again for as long as nothing it reads was written: the cache is keyed on
// the request, and every entry is dropped as soon as the read generation moves.
// The generation is read with each lookup:
// - a counter this connection's temporary triggers bump on every row inserted,
//   updated or deleted in the tables a stored read or a key resolution reads
//   (READ_TABLES: the stored rows, the keys, members, organizations and
//   advertisers). A write elsewhere — a Skill, a Brand, a mutation's own
//   record — leaves the kept pages alone: a CI job that writes Skills and reads
//   campaigns in turn reads kept pages (#27; until then any write emptied the
//   cache, total_changes(), and every read after a write was made again).
//   Temporary triggers are the connection's own, outside the store's schema
//   (nothing migrates, a copied store file carries none), and they are the
//   SQLite way to see every write to a table whatever code path makes it. They
//   call a SQL function of this connection that counts in JavaScript, so reading
//   the counter costs no statement (#27: it is read by every stored read and
//   every key check). A write rolled back still counted: kept things are dropped
//   for nothing then, never kept past a change;
// - `data_version`: moves when another connection (another process on the same
//   file) commits, to any table. Asked only of a store another connection can
//   open (a file; never `:memory:`).
// Bodies made inside a transaction are not kept (the sandbox's transactions are
// synchronous and never serve a request, so this costs nothing in practice). A
// body is kept only if the generation did not move while it was made.
//
// Beside the bodies, for the same generation: what an API key resolved to for a
// permission (its organization, member, permissions), and when the key expires.
// A kept page's read then costs one generation check instead of the key's
// three-table lookup too (~80 µs of a ~300 µs answer in bench/sandbox-start.js),
// and so does the key check of every other request (#27). Everything the lookup
// decides is stored (key state, member, subscription, permissions) but expiry,
// which depends on the clock: that is checked against `now` on every use.
import type { Database, Statement } from './sqlite.js';
import type { Permission } from '../../contract/ids.js';

/** What the cache may hold: enough for a script's `--all` walk of ~80 pages of 500 rows. */
export const PAGE_CACHE_BYTES = 16 * 1024 * 1024;

/** The tables a stored page or a key resolution reads: a write to any other leaves kept pages as they are. */
export const READ_TABLES = ['observe_rows', 'api_keys', 'members', 'organizations', 'advertisers'] as const;

/** The SQL function the triggers call (this connection's: see watchReadTables). */
const BUMP_FUNCTION = 'adops_page_cache_bump';

/** Writes to READ_TABLES counted per connection, shared by every PageCache of that connection. */
interface WriteCount {
  n: number;
}
const writeCounts = new WeakMap<Database, WriteCount>();

/** The counter and its triggers, on this connection only (TEMP triggers, a connection's function): made once per connection. */
function watchReadTables(db: Database): WriteCount {
  const kept = writeCounts.get(db);
  if (kept) return kept;
  const count: WriteCount = { n: 0 };
  db.function(BUMP_FUNCTION, () => {
    count.n += 1;
    return null;
  });
  for (const table of READ_TABLES) {
    for (const event of ['INSERT', 'UPDATE', 'DELETE']) {
      db.exec(
        `CREATE TEMP TRIGGER IF NOT EXISTS page_cache_${table}_${event.toLowerCase()} AFTER ${event} ON main.${table}` +
          ` BEGIN SELECT ${BUMP_FUNCTION}(); END`,
      );
    }
  }
  writeCounts.set(db, count);
  return count;
}

/** The most key resolutions kept at once (a sandbox has a handful of keys; a fuzzer has many). */
const MAX_OWNERS = 1024;

/** What a key resolved to for a permission: who it acts for, and when it stops resolving (null: never). */
export interface KeyOwner {
  orgId: string;
  memberId: string;
  keyId: string;
  permissions: ReadonlySet<Permission>;
  expiresAt: number | null;
}

export interface PageCacheOptions {
  /** What the cache may hold (default PAGE_CACHE_BYTES). */
  maxBytes?: number;
  /** Another connection may write the store (a file): ask its data_version too (default true). */
  shared?: boolean;
}

interface Generation {
  changes: number;
  version: number;
}

export class PageCache {
  readonly #db: Database;
  readonly #maxBytes: number;
  readonly #writes: WriteCount;
  readonly #shared: boolean;
  #dataVersion: Statement<[], unknown> | undefined;
  /** Insertion order is use order: the first key is the least recently used. */
  readonly #bodies = new Map<string, Uint8Array<ArrayBuffer>>();
  /** By `${permission} ${key}`. */
  readonly #owners = new Map<string, KeyOwner>();
  #bytes = 0;
  #changes = -1;
  #version = -1;

  constructor(db: Database, options: PageCacheOptions = {}) {
    this.#db = db;
    this.#maxBytes = options.maxBytes ?? PAGE_CACHE_BYTES;
    this.#shared = options.shared ?? true;
    this.#writes = watchReadTables(db);
  }

  /**
   * Nothing is kept (a write emptied the cache, or nothing was read since): no read can be
   * answered from here, so the caller need not resolve anything for it. Without a generation
   * check: bodies of an older generation make this false, and keptRead then drops them.
   */
  get holdsNothing(): boolean {
    return this.#bodies.size === 0;
  }

  /** The body kept for `key`, if the store has not changed since it was made. */
  kept(key: string): Uint8Array<ArrayBuffer> | undefined {
    this.#refresh();
    return this.#take(key);
  }

  /**
   * A kept body for a read with `credential` (`${permission} ${key}`), the one kept for
   * `pageKey(orgId)`: the credential's organization is the one it resolved to while the store
   * was as it is now, or else `resolve()`'s (which throws when the key does not resolve), kept
   * for next time (not from inside a transaction). Undefined once the key has expired by `now`,
   * or when no body is kept. One generation check for all of it: a resolution read after the
   * check is never older than the generation it is kept under.
   */
  keptRead(credential: string, now: number, pageKey: (orgId: string) => string, resolve: () => KeyOwner): Uint8Array<ArrayBuffer> | undefined {
    this.#refresh();
    const owner = this.#owner(credential, resolve);
    if (owner.expiresAt !== null && owner.expiresAt <= now) return undefined;
    return this.#take(pageKey(owner.orgId));
  }

  /**
   * What `credential` (`${permission} ${key}`) resolves to: as it resolved while the store was as
   * it is now, else `resolve()`'s (which throws when the key does not resolve), kept for next time
   * (not from inside a transaction). A key that has expired by `now` is resolved again (and so
   * refused, as `resolve()` refuses it). The key check of every request (http/auth.ts, #27).
   */
  keyOwner(credential: string, now: number, resolve: () => KeyOwner): KeyOwner {
    this.#refresh();
    const owner = this.#owner(credential, resolve);
    return owner.expiresAt !== null && owner.expiresAt <= now ? resolve() : owner;
  }

  #owner(credential: string, resolve: () => KeyOwner): KeyOwner {
    let owner = this.#owners.get(credential);
    if (owner === undefined) {
      owner = resolve();
      if (!this.#db.inTransaction) {
        if (this.#owners.size >= MAX_OWNERS) this.#owners.clear();
        this.#owners.set(credential, owner);
      }
    }
    return owner;
  }

  #refresh(): void {
    const now = this.#generation();
    if (!this.#current(now)) this.#reset(now);
  }

  #take(key: string): Uint8Array<ArrayBuffer> | undefined {
    const kept = this.#bodies.get(key);
    if (kept) {
      this.#bodies.delete(key);
      this.#bodies.set(key, kept);
    }
    return kept;
  }

  /** The body for `key`: the one kept (see kept), else `make()`'s, kept for next time. */
  body(key: string, make: () => Uint8Array<ArrayBuffer>): Uint8Array<ArrayBuffer> {
    const kept = this.kept(key);
    if (kept) return kept;
    const made = make();
    // Kept only when nothing was written while it was made, and never from inside a transaction (see above).
    if (this.#current(this.#generation()) && !this.#db.inTransaction) this.#keep(key, made);
    return made;
  }

  #reset(now: Generation): void {
    this.#bodies.clear();
    this.#owners.clear();
    this.#bytes = 0;
    this.#changes = now.changes;
    this.#version = now.version;
  }

  /** Entries and bytes held (tests). */
  get size(): { entries: number; bytes: number; owners: number } {
    return { entries: this.#bodies.size, bytes: this.#bytes, owners: this.#owners.size };
  }

  #generation(): Generation {
    // The database keeps this statement prepared (store/db.ts caches by SQL text).
    const version = this.#shared ? Number((this.#dataVersion ??= this.#db.prepare<[], unknown>('PRAGMA data_version').pluck()).get() ?? -1) : 0;
    return { changes: this.#writes.n, version };
  }

  #current(now: Generation): boolean {
    return now.changes === this.#changes && now.version === this.#version;
  }

  #keep(key: string, body: Uint8Array<ArrayBuffer>): void {
    // A small Buffer may be a view of a shared pool slab: count what it keeps alive.
    const cost = body.buffer.byteLength;
    if (cost > this.#maxBytes) return;
    this.#bodies.set(key, body);
    this.#bytes += cost;
    for (const [oldest, old] of this.#bodies) {
      if (this.#bytes <= this.#maxBytes) break;
      this.#bodies.delete(oldest);
      this.#bytes -= old.buffer.byteLength;
    }
  }
}
