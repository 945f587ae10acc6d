// `adops __complete-refresh KIND [--profile P] [--base-url U]`: the detached
// background refresh a TAB starts (complete.ts) when the completion cache of
// KIND is stale or cold. It lists the ids from the service (complete-sources.ts)
// and rewrites the cache for the next TAB. Nobody waits for it: it was
// spawned detached, its stdio ignored, so it prints nothing and its exit code
// means nothing; it holds its own lock (one refresh of a kind at a time, the
// others leave at once) and its own bound (REFRESH_DEADLINE_MS, much longer
// than a TAB's: a busy machine or a slow service still fills the cache, just
// later). The key comes from the environment or the config file, as for any
// command, never from argv.
import { isIdKind, type IdKind } from './complete-kinds.js';

/** The whole refresh, Node's start included, ends by then (a hung service included). */
export const REFRESH_DEADLINE_MS = 20_000;
/** Its lock is judged stale after this long untouched (a live holder touches it every third of it). */
const LOCK_STALE_MS = 30_000;

type Env = Record<string, string | undefined>;

export interface RefreshRequest {
  kind: IdKind;
  profile?: string;
  baseUrl?: string;
}

/** The arguments a TAB passes (complete.ts), and back. Never the key. */
export function refreshArgs(r: RefreshRequest): string[] {
  return [r.kind, ...(r.profile ? ['--profile', r.profile] : []), ...(r.baseUrl ? ['--base-url', r.baseUrl] : [])];
}

export function parseRefreshArgs(args: readonly string[]): RefreshRequest | undefined {
  const [kind, ...rest] = args;
  if (!isIdKind(kind)) return undefined;
  const r: RefreshRequest = { kind };
  for (let i = 0; i < rest.length; i += 2) {
    const value = rest[i + 1];
    if (value === undefined) return undefined;
    if (rest[i] === '--profile') r.profile = value;
    else if (rest[i] === '--base-url') r.baseUrl = value;
    else return undefined;
  }
  return r;
}

/**
 * The detached process's last bound: a socket the abort does not close must not keep it alive past its
 * deadline. Set by the process entry (complete.ts), not by refresh(), which also runs in a test's process.
 */
export function exitAfterDeadline(): void {
  setTimeout(() => process.exit(0), REFRESH_DEADLINE_MS + 2000).unref();
}

/** The refresh: always 0 (nobody reads it); on any failure the cache stays as it was and the next stale TAB tries again. */
export async function refresh(args: readonly string[], env: Env): Promise<number> {
  const request = parseRefreshArgs(args);
  if (!request) return 0;
  const controller = new AbortController();
  const timer = setTimeout(() => controller.abort(), Math.max(1000, REFRESH_DEADLINE_MS - performance.now()));
  try {
    const { openCache, completionClient } = await import('./complete-scope.js');
    const scope = await openCache(env, request);
    if (!scope) return 0;
    const lock = scope.cache.refreshLock(request.kind, LOCK_STALE_MS);
    if (!lock) return 0; // another refresh of this kind is at it
    try {
      // TABs at once may each start one: the first renews the cache, the rest find it fresh and leave.
      if (scope.cache.read(request.kind)?.fresh) return 0;
      const { fetchEntries } = await import('./complete-sources.js');
      const client = await completionClient(scope.auth, env, { maxAttempts: 2, budgetMs: REFRESH_DEADLINE_MS });
      const entries = await fetchEntries(request.kind, client, controller.signal);
      scope.cache.write(request.kind, entries);
    } finally {
      lock.release();
    }
  } catch {
    // Nothing: the next TAB past the retry interval starts another.
  } finally {
    clearTimeout(timer);
  }
  return 0;
}
