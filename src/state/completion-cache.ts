// The cache of completion candidates: a folder per (profile, organization)
// under the config dir, one small JSON file per kind of id, fresh for 60 s.
// The organization is not always known by name, but the key names it, so the
// folder name carries a hash of base URL, key and organization (never the key).
// Writes take a lock file (O_EXCL; a lock left by a killed run is broken after
// a few seconds) and land by rename, so two completions at once never leave a
// torn file; a reader that meets anything unreadable treats it as a miss.
import { createHash, randomBytes } from 'node:crypto';
import { closeSync, mkdirSync, openSync, readFileSync, renameSync, statSync, unlinkSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';

export const CACHE_TTL_MS = 60_000;
const STALE_LOCK_MS = 5_000;

export function cacheDir(configDir: string, scope: { profile: string; baseUrl: string; apiKey: string; organization?: string | undefined }): string {
  const hash = createHash('sha256')
    .update([scope.baseUrl, scope.apiKey, scope.organization ?? ''].join('\0'))
    .digest('hex')
    .slice(0, 16);
  return join(configDir, 'completion-cache', `${scope.profile}-${hash}`);
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

  /** Best effort: false when another run holds the lock (it is writing the same answer). */
  write(kind: string, values: readonly string[]): boolean {
    mkdirSync(this.dir, { recursive: true, mode: 0o700 });
    const lock = `${this.file(kind)}.lock`;
    if (!this.lock(lock)) return false;
    const tmp = `${this.file(kind)}.${process.pid}.${randomBytes(4).toString('hex')}.tmp`;
    try {
      writeFileSync(tmp, JSON.stringify({ at: this.now(), values }), { mode: 0o600 });
      renameSync(tmp, this.file(kind));
      return true;
    } finally {
      try {
        unlinkSync(tmp);
      } catch {
        /* renamed: nothing left */
      }
      unlinkSync(lock);
    }
  }

  private lock(lock: string): boolean {
    for (let attempt = 0; attempt < 2; attempt++) {
      try {
        closeSync(openSync(lock, 'wx', 0o600));
        return true;
      } catch (err) {
        if ((err as NodeJS.ErrnoException).code !== 'EEXIST') throw err;
        try {
          if (this.now() - statSync(lock).mtimeMs < STALE_LOCK_MS) return false;
          unlinkSync(lock);
        } catch {
          /* gone meanwhile: try again */
        }
      }
    }
    return false;
  }
}
