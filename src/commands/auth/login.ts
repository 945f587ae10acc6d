// adops auth login: store a profile's base URL and key. The key comes from a
// hidden prompt on a terminal or from stdin with --with-key — never argv.
import { API_KEY_PREFIX } from '../../contract/ids.js';
import { ApiClient } from '../../client/http.js';
import { ApiError } from '../../client/errors.js';
import { checkBaseUrl } from '../../client/origin.js';
import { maskKey } from '../../client/redact.js';
import type { CommandContext } from '../../cli/context.js';
import { CliError, UsageError } from '../../cli/errors.js';
import { EXIT } from '../../cli/exit-codes.js';
import type { CommandInput } from '../../cli/registry.js';
import { userAgent } from '../../cli/version.js';
import { DEFAULT_BASE_URL } from '../../config/resolve.js';
import { DEFAULT_PROFILE } from '../../config/store.js';
import { readStdin } from '../_shared/stdin.js';

export async function run(ctx: CommandContext, input: CommandInput): Promise<number> {
  const data = ctx.config.read();
  const profile = ctx.globals.profile ?? ctx.env.ADOPS_PROFILE ?? data.currentProfile ?? DEFAULT_PROFILE;
  const baseUrl = (input.opts.url as string | undefined) ?? ctx.globals.baseUrl ?? data.profiles[profile]?.baseUrl ?? DEFAULT_BASE_URL;
  checkBaseUrl(baseUrl);

  let key: string;
  if (input.opts.withKey === true) {
    key = (await readStdin(ctx.io.stdin)).trim();
    if (!key) throw new UsageError('--with-key read nothing from stdin', 'pipe the key in: printf %s "$KEY" | adops auth login --with-key');
  } else if (ctx.interactive) {
    key = (await ctx.prompter.secret(`API key for ${baseUrl}`)).trim();
  } else {
    throw new UsageError('no terminal to ask for the key', 'pipe it in with --with-key (adops never takes a key as an argument)');
  }
  if (!key.startsWith(API_KEY_PREFIX) || /\s/.test(key)) {
    throw new UsageError(`that does not look like an API key (keys start with ${API_KEY_PREFIX})`);
  }

  if (input.opts.verify !== false) {
    const client = new ApiClient({ baseUrl, apiKey: key, userAgent: userAgent(ctx.version), retry: { maxAttempts: 2, baseDelayMs: 200, maxDelayMs: 1000, budgetMs: 10_000 } });
    try {
      await client.request({ method: 'GET', path: '/observe/campaigns', query: { limit: 1 }, signal: ctx.signal });
    } catch (err) {
      if (err instanceof ApiError && err.status === 401) {
        throw new CliError(`the service refused this key (${err.code}); nothing was stored`, EXIT.auth, 'check the key, or store it anyway with --no-verify', err.code);
      }
      if (err instanceof ApiError) ctx.warn(`the key works but: ${err.code}: ${err.message}${err.hint ? ` (${err.hint})` : ''}`);
      else ctx.warn(`could not check the key with the service (${(err as Error).message}); stored anyway`);
    }
  }

  await ctx.config.update((d) => {
    d.profiles[profile] = { ...d.profiles[profile], baseUrl, apiKey: key };
    d.currentProfile = profile;
  });
  ctx.note(`Logged in: profile "${profile}" → ${baseUrl}, key ${maskKey(key)}, stored in ${ctx.config.file}`);
  if (ctx.env.ADOPS_API_KEY) ctx.warn('ADOPS_API_KEY is set in the environment and overrides the stored key');
  return EXIT.ok;
}
