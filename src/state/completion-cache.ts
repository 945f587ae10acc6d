// The cache of completion candidates: a folder per (profile, service, key
// fingerprint, organization) under the config dir, one small JSON file per
// kind of id, fresh for 60 s. The folder name carries a hash of the scope
// (fingerprint.ts), never the key. Best effort through and through: a write
// takes the store's lock without waiting (another completion writing the same
// answer is enough), lands by rename, and a disk that refuses it (full,
// read-only) is skipped, so completion still answers; a reader that meets
// anything unreadable treats it as a miss.
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { ensureDir, writeDurably } from './durable-write.js';
import { LocalStateError } from './errors.js';
import { scopeId, serviceScope } from './fingerprint.js';
import { tryLock } from './lock.js';

export const CACHE_TTL_MS = 60_000;
/** A lock left by a killed completion is broken after this long (a live one writes in milliseconds). */
const STALE_LOCK_MS = 5_000;
const WHAT = 'the completion cache';

export function cacheDir(configDir: string, scope: { profile: string; baseUrl: string; apiKey: string; organization?: string | undefined }): string {
  return join(configDir, 'completion-cache', `${scope.profile}-${scopeId(serviceScope(scope.baseUrl, scope.apiKey), scope.organization ?? '')}`);
}

export class CompletionCache {
  constructor(
    readonly dir: string,
    private readonly now: () => number = Date.now,
  ) {}

  private file(kind: string): string {
    return join(this.dir, `${kind}.json`);
  }

  read(kind: string): string[] | undefined {
    try {
      const data = JSON.parse(readFileSync(this.file(kind), 'utf8')) as { at?: unknown; values?: unknown };
      const age = this.now() - Number(data.at);
      if (!(age >= 0 && age < CACHE_TTL_MS) || !Array.isArray(data.values)) return undefined;
      return data.values.filter((v): v is string => typeof v === 'string');
    } catch {
      return undefined;
    }
  }

  /** Best effort: false when another run holds the lock (it is writing the same answer) or the disk refuses the write. */
  write(kind: string, values: readonly string[]): boolean {
    try {
      ensureDir(this.dir, WHAT);
      const lock = tryLock(`${this.file(kind)}.lock`, { what: 'adops completion', staleMs: STALE_LOCK_MS });
      if (!lock) return false;
      try {
        writeDurably(this.file(kind), JSON.stringify({ at: this.now(), values }), WHAT, { durable: false });
        return true;
      } finally {
        lock.release();
      }
    } catch (err) {
      if (err instanceof LocalStateError) return false;
      throw err;
    }
  }
}
