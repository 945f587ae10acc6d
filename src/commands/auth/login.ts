// adops auth login: store a profile's base URL and key. The key comes from a
// hidden prompt on a terminal or from stdin with --with-key — never argv.
// The base URL comes from --url (or --base-url), else ADOPS_BASE_URL, else a
// prompt on a terminal; off a terminal with neither, it is a usage error
// rather than a silent default. A check that fails stores nothing.
import { ApiError } from '../../client/errors.js';
import { checkBaseUrl } from '../../client/origin.js';
import { maskKey } from '../../client/redact.js';
import type { CommandContext } from '../../cli/context.js';
import { CliError, UsageError } from '../../cli/errors.js';
import { EXIT, exitCodeOfAnswer } from '../../cli/exit-codes.js';
import type { CommandInput } from '../../cli/registry.js';

type LoginOptions = { withKey?: boolean; url?: string; verify: boolean; setDefault?: boolean };
import { API_KEY_PREFIX } from '../../contract/ids.js';
import { normalizeApiKey } from '../../config/key.js';
import { DEFAULT_BASE_URL } from '../../config/resolve.js';
import { DEFAULT_PROFILE, envValue, ownProfile } from '../../state/config-store.js';
import { checkProfileName } from '../../config/profile-name.js';
import { readStdin } from '../_shared/stdin.js';

async function chooseBaseUrl(ctx: CommandContext, input: CommandInput<LoginOptions>, stored: string | undefined): Promise<string> {
  const given = input.opts.url ?? ctx.globals.baseUrl ?? envValue(ctx.env, 'ADOPS_BASE_URL');
  if (given?.trim()) return given.trim();
  if (!ctx.interactive) {
    throw new UsageError('no base URL to log in to', `pass --url URL or set ADOPS_BASE_URL (the local sandbox is ${DEFAULT_BASE_URL})`);
  }
  const suggestion = stored ?? DEFAULT_BASE_URL;
  const answer = (await ctx.prompter.text(`Base URL (empty for ${suggestion}):`)).trim();
  return answer || suggestion;
}

async function readKey(ctx: CommandContext, input: CommandInput, baseUrl: string): Promise<string> {
  let raw: string;
  if (input.opts.withKey === true) {
    raw = await readStdin(ctx.io.stdin);
    if (!raw.trim()) throw new UsageError('--with-key read nothing from stdin', 'pipe the key in: printf %s "$KEY" | adops auth login --with-key');
  } else {
    raw = await ctx.prompter.secret(`API key for ${baseUrl}`);
  }
  const key = normalizeApiKey(raw, input.opts.withKey === true ? 'stdin' : 'the prompt');
  if (!key?.startsWith(API_KEY_PREFIX)) throw new UsageError(`that does not look like an API key (keys start with ${API_KEY_PREFIX})`);
  return key;
}

/** Ask the service whether the key works. Only "works" (2xx) or "resolves but is limited" (402, 403) are stored. */
async function verify(ctx: CommandContext, baseUrl: string, key: string): Promise<void> {
  const client = await ctx.makeClient({ baseUrl, apiKey: key, retry: { maxAttempts: 2, baseDelayMs: 200, maxDelayMs: 1000, budgetMs: 10_000 } });
  try {
    await client.call('listCampaigns', { query: { limit: '1' } }, { signal: ctx.signal });
  } catch (err) {
    if (err instanceof ApiError && (err.status === 402 || err.status === 403)) {
      ctx.warn(`the key works but: ${err.code}: ${err.message}${err.hint ? ` (${err.hint})` : ''}`);
      return;
    }
    if (err instanceof ApiError) {
      const exit = exitCodeOfAnswer(err.status, err.code);
      throw new CliError(
        `the check failed (${err.code}: ${err.message}); nothing was stored`,
        exit,
        'check the base URL and the key, or store them unchecked with --no-verify',
        err.code,
      );
    }
    if (err instanceof Error && err.name === 'NetworkError') {
      throw new CliError(
        `could not check the key with ${baseUrl} (${err.message}); nothing was stored`,
        EXIT.unavailable,
        'check the base URL, or store it unchecked with --no-verify',
        'network_error',
      );
    }
    throw err;
  }
}

export async function run(ctx: CommandContext, input: CommandInput<LoginOptions>): Promise<number> {
  const data = ctx.config.read();
  const profile = checkProfileName(ctx.globals.profile ?? envValue(ctx.env, 'ADOPS_PROFILE') ?? data.currentProfile ?? DEFAULT_PROFILE);
  if (input.opts.withKey !== true && !ctx.interactive) {
    throw new UsageError('no terminal to ask for the key', 'pipe it in with --with-key (adops never takes a key as an argument)');
  }
  const baseUrl = await chooseBaseUrl(ctx, input, ownProfile(data, profile)?.baseUrl);
  checkBaseUrl(baseUrl);
  const key = await readKey(ctx, input, baseUrl);
  if (input.opts.verify !== false) await verify(ctx, baseUrl, key);

  let makeDefault = false;
  await ctx.config.update((d) => {
    const { organization, ...before } = ownProfile(d, profile) ?? {};
    // An organization recorded with another key is not this key's.
    d.profiles[profile] = { ...before, ...(organization && before.apiKey === key ? { organization } : {}), baseUrl, apiKey: key };
    // Like the AWS CLI: logging in to a named profile leaves the default alone, unless asked
    // or no other profile has a key (the first login becomes the default).
    const others = Object.entries(d.profiles).some(([name, p]) => name !== profile && p.apiKey);
    makeDefault = input.opts.setDefault === true || !others || (d.currentProfile ?? DEFAULT_PROFILE) === profile;
    if (makeDefault) d.currentProfile = profile;
  });
  ctx.note(`Logged in: profile "${profile}" → ${baseUrl}, key ${maskKey(key)}, stored in ${ctx.config.file}`);
  const current = ctx.config.read().currentProfile ?? DEFAULT_PROFILE;
  ctx.note(
    makeDefault
      ? `"${profile}" is the default profile (commands without --profile use it)`
      : `the default profile is still "${current}"; use this one with --profile ${profile} or ADOPS_PROFILE=${profile}, or log in again with --set-default to make it the default`,
  );
  if (ctx.env.ADOPS_API_KEY) ctx.warn('ADOPS_API_KEY is set in the environment and overrides the stored key');
  return EXIT.ok;
}
