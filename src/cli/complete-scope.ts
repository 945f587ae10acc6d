// Whose ids a completion is about: the profile, service and key a command on
// the same line would use (flags on the line such as --profile/--base-url,
// then ADOPS_* in the environment, then the config file), and the cache of
// that scope (src/state/completion-cache.ts). Shared by the TAB (complete.ts),
// its background refresh (complete-refresh.ts) and the pickers.
import type { ApiClient } from '../client/http.js';
import type { RetryPolicy } from '../client/retry.js';
import type { CompletionCache } from '../state/completion-cache.js';

type Env = Record<string, string | undefined>;

export interface CompletionScope {
  auth: { profile: string; baseUrl: string; apiKey: string; organization: string | undefined };
  cache: CompletionCache;
}

/** The scope and its cache; undefined with no key (nothing to ask, nothing cached). */
export async function openCache(env: Env, where: { profile?: string | undefined; baseUrl?: string | undefined }): Promise<CompletionScope | undefined> {
  const [{ ConfigStore, configDir }, { resolveAuth }, { CompletionCache, cacheDir }] = await Promise.all([
    import('../state/config-store.js'),
    import('../config/resolve.js'),
    import('../state/completion-cache.js'),
  ]);
  const dir = configDir(env);
  const resolved = resolveAuth(new ConfigStore(dir), env, { profile: where.profile, baseUrl: where.baseUrl });
  if (!resolved.apiKey) return undefined;
  const auth = { profile: resolved.profile, baseUrl: resolved.baseUrl, apiKey: resolved.apiKey, organization: resolved.organization };
  return { auth, cache: new CompletionCache(cacheDir(dir, auth)) };
}

/** A client for listing ids: the one transport, few attempts, the caller's bound. */
export async function completionClient(auth: CompletionScope['auth'], env: Env, retry: { maxAttempts: number; budgetMs: number }): Promise<ApiClient> {
  const [{ ApiClient }, { userAgent, packageVersion }] = await Promise.all([import('../client/http.js'), import('./version.js')]);
  const policy: RetryPolicy = { maxAttempts: retry.maxAttempts, baseDelayMs: 200, maxDelayMs: 1000, budgetMs: retry.budgetMs };
  return new ApiClient({ baseUrl: auth.baseUrl, apiKey: auth.apiKey, userAgent: userAgent(packageVersion()), retry: policy, env });
}
