// adops auth status --all: check every stored profile's key against its own
// base URL (never the env overrides: they are not stored in any profile), one
// row per profile, masked keys only. Exit 0 when every key works, else the
// exit code of the first failing profile (3 for a refused or missing key).
import { ApiError } from '../../client/errors.js';
import { maskKey } from '../../client/redact.js';
import type { CommandContext } from '../../cli/context.js';
import { CliError } from '../../cli/errors.js';
import { EXIT, exitCodeOfAnswer, type ExitCode } from '../../cli/exit-codes.js';
import { ListWriter, prepareOutput } from '../../cli/output/writers.js';
import { DEFAULT_BASE_URL } from '../../config/resolve.js';
import { DEFAULT_PROFILE, type Profile } from '../../state/config-store.js';
import { normalizeApiKey } from '../../config/key.js';

type Check = {
  name: string;
  default: boolean;
  baseUrl: string;
  key: string | null;
  organization: string | null;
  ok: boolean;
  detail: string;
};

/** The same request `auth login` checks a key with; 403 means the key resolves but lacks observe:read. */
async function check(ctx: CommandContext, p: Profile): Promise<{ ok: boolean; detail: string; exit: ExitCode }> {
  const baseUrl = p.baseUrl ?? DEFAULT_BASE_URL;
  let key: string | undefined;
  try {
    key = normalizeApiKey(p.apiKey, 'the profile');
  } catch (err) {
    return { ok: false, detail: err instanceof Error ? err.message : 'unusable key', exit: EXIT.auth };
  }
  if (!key) return { ok: false, detail: 'no key stored', exit: EXIT.auth };
  try {
    const client = await ctx.makeClient({ baseUrl, apiKey: key, retry: { maxAttempts: 2, baseDelayMs: 200, maxDelayMs: 1000, budgetMs: 10_000 } });
    await client.call('listCampaigns', { query: { limit: '1' } }, { signal: ctx.signal });
    return { ok: true, detail: 'key works', exit: EXIT.ok };
  } catch (err) {
    if (err instanceof ApiError && err.status === 403) return { ok: true, detail: `key works but cannot read Observe (${err.code})`, exit: EXIT.ok };
    if (err instanceof ApiError) return { ok: false, detail: `${err.status} ${err.code}`, exit: exitCodeOfAnswer(err.status, err.code) };
    if (err instanceof CliError) return { ok: false, detail: err.message, exit: err.exitCode };
    if (err instanceof Error && err.name === 'NetworkError') return { ok: false, detail: `unreachable (${err.message})`, exit: EXIT.unavailable };
    throw err;
  }
}

export async function runAll(ctx: CommandContext): Promise<number> {
  const data = ctx.config.read();
  const current = data.currentProfile ?? DEFAULT_PROFILE;
  const out = await prepareOutput(ctx, 'profileCheck');
  const entries = Object.entries(data.profiles).sort(([a], [b]) => a.localeCompare(b));
  // In parallel: one slow deployment should not hold the others up.
  const results = await Promise.all(entries.map(async ([name, p]) => ({ name, p, r: await check(ctx, p) })));
  const rows: Check[] = results.map(({ name, p, r }) => ({
    name,
    default: name === current,
    baseUrl: p.baseUrl ?? DEFAULT_BASE_URL,
    key: p.apiKey ? maskKey(p.apiKey) : null,
    organization: p.organization ?? null,
    ok: r.ok,
    detail: r.detail,
  }));
  const writer = new ListWriter(out);
  await writer.page(rows);
  await writer.end();
  const overrides = ['ADOPS_API_KEY', 'ADOPS_BASE_URL', 'ADOPS_PROFILE'].filter((v) => ctx.env[v]);
  if (overrides.length)
    ctx.note(
      `checked the stored profiles; ${overrides.join(', ')} ${overrides.length > 1 ? 'are' : 'is'} set and override${overrides.length > 1 ? '' : 's'} them in this shell`,
    );
  const failed = results.filter((x) => !x.r.ok);
  if (entries.length === 0) {
    ctx.note('no profiles yet: `adops auth login` creates one');
    return EXIT.auth;
  }
  if (failed.length) ctx.note(`${failed.length} of ${entries.length} profile${entries.length > 1 ? 's' : ''} failed: ${failed.map((f) => f.name).join(', ')}`);
  return failed[0]?.r.exit ?? EXIT.ok;
}
