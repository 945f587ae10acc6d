// The cache of completion candidates: a folder per (profile, service, key
// fingerprint, organization) under the config dir, one small JSON file per
// kind of id: the ids with a description each (a name, for zsh and fish).
// The folder name carries a hash of the scope (fingerprint.ts), never the key.
//
// A TAB never waits for the service (complete.ts): it prints what this holds,
// fresh or not, and when it is older than CACHE_TTL_MS starts a detached
// refresh (complete-refresh.ts) that rewrites it for the next TAB. So an old
// answer is served (up to SERVE_LIMIT_MS: ids a week old are more likely gone
// than useful), and a note per kind (`<kind>.refresh`) records which refresh
// was started when, so TABs in a row start one, not one each.
//
// Best effort through and through: a write takes the store's lock without
// waiting (another run writing the same answer is enough), lands by rename,
// and a disk that refuses it (full, read-only) is skipped, so completion
// still answers; a reader that meets anything unreadable treats it as a miss.
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { isRecord, printableJson } from '../client/json.js';
import { ensureDir, writeDurably } from './durable-write.js';
import { LocalStateError } from './errors.js';
import { scopeId, serviceScope } from './fingerprint.js';
import { tryLock, type Lock } from './lock.js';

/** How long an answer is fresh: a TAB after that still gets it, and starts a refresh. */
export const CACHE_TTL_MS = 60_000;
/** Older than this an answer is not served at all. */
export const SERVE_LIMIT_MS = 7 * 24 * 3600_000;
/** A refresh started less than this ago (running, or just failed) is not started again. */
export const REFRESH_RETRY_MS = 10_000;
/** A lock left by a killed completion is broken after this long (a live one writes in milliseconds). */
const STALE_LOCK_MS = 5_000;
const WHAT = 'the completion cache';

export function cacheDir(configDir: string, scope: { profile: string; baseUrl: string; apiKey: string; organization?: string | undefined }): string {
  return join(configDir, 'completion-cache', `${scope.profile}-${scopeId(serviceScope(scope.baseUrl, scope.apiKey), scope.organization ?? '')}`);
}

/** One candidate: the id, and what zsh and fish show beside it (already through the text boundary), or ''. */
export interface CacheEntry {
  id: string;
  description: string;
}

export interface CachedAnswer {
  entries: CacheEntry[];
  /** Younger than CACHE_TTL_MS: no refresh is needed. */
  fresh: boolean;
}

/** Which refresh a TAB started, and when (`<kind>.refresh`). */
export interface RefreshNote {
  pid: number;
  at: number;
}

export class CompletionCache {
  constructor(
    readonly dir: string,
    private readonly now: () => number = Date.now,
  ) {}

  private file(kind: string): string {
    return join(this.dir, `${kind}.json`);
  }

  /** What is cached for `kind`, fresh or stale; undefined when nothing usable is (none, torn, too old). */
  read(kind: string): CachedAnswer | undefined {
    try {
      const data: unknown = JSON.parse(readFileSync(this.file(kind), 'utf8'));
      if (!isRecord(data)) return undefined;
      const age = this.now() - Number(data.at);
      if (!(age >= 0 && age < SERVE_LIMIT_MS)) return undefined;
      return { entries: readEntries(data), fresh: age < CACHE_TTL_MS };
    } catch {
      return undefined;
    }
  }

  /** Best effort: false when another run holds the lock (it is writing the same answer) or the disk refuses the write. */
  write(kind: string, entries: readonly CacheEntry[]): boolean {
    return this.bestEffort(() => {
      const lock = tryLock(`${this.file(kind)}.lock`, { what: 'adops completion', staleMs: STALE_LOCK_MS });
      if (!lock) return false;
      try {
        const rows = entries.map((e) => (e.description ? [e.id, e.description] : [e.id]));
        writeDurably(this.file(kind), printableJson({ at: this.now(), entries: rows }), WHAT, { durable: false });
        return true;
      } finally {
        lock.release();
      }
    });
  }

  /** The refresh last started for `kind`, if any. */
  refreshNote(kind: string): RefreshNote | undefined {
    try {
      const data: unknown = JSON.parse(readFileSync(join(this.dir, `${kind}.refresh`), 'utf8'));
      return isRecord(data) && typeof data.pid === 'number' && typeof data.at === 'number' ? { pid: data.pid, at: data.at } : undefined;
    } catch {
      return undefined;
    }
  }

  /** Whether a TAB should start a refresh: none started within REFRESH_RETRY_MS (a clock set back counts as none). */
  refreshDue(kind: string): boolean {
    const note = this.refreshNote(kind);
    if (!note) return true;
    const since = this.now() - note.at;
    return !(since >= 0 && since < REFRESH_RETRY_MS);
  }

  /** Record the refresh just started (best effort: a refused write only means the next TAB may start another). */
  noteRefresh(kind: string, pid: number): boolean {
    return this.bestEffort(() => {
      writeDurably(join(this.dir, `${kind}.refresh`), JSON.stringify({ pid, at: this.now() } satisfies RefreshNote), WHAT, { durable: false });
      return true;
    });
  }

  /** The refresh's own lock (one refresh of a kind at a time); undefined while another holds it or the disk refuses. */
  refreshLock(kind: string, staleMs: number): Lock | undefined {
    let lock: Lock | undefined;
    this.bestEffort(() => {
      lock = tryLock(join(this.dir, `${kind}.refresh.lock`), { what: 'adops completion refresh', staleMs });
      return lock !== undefined;
    });
    return lock;
  }

  private bestEffort(write: () => boolean): boolean {
    try {
      ensureDir(this.dir, WHAT);
      return write();
    } catch (err) {
      if (err instanceof LocalStateError) return false;
      throw err;
    }
  }
}

/** The entries of a file: `[[id, description?], …]`, or an older adops's `values: [id, …]`. */
function readEntries(data: Record<string, unknown>): CacheEntry[] {
  const out: CacheEntry[] = [];
  if (isList(data.entries)) {
    for (const row of data.entries) {
      if (!isList(row) || typeof row[0] !== 'string') continue;
      out.push({ id: row[0], description: typeof row[1] === 'string' ? row[1] : '' });
    }
  } else if (isList(data.values)) {
    for (const v of data.values) if (typeof v === 'string') out.push({ id: v, description: '' });
  }
  return out;
}

const isList = (v: unknown): v is unknown[] => Array.isArray(v);
