// adops sandbox serve: start the sandbox, print exactly one stdout line when
// ready, the demo keys on stderr, serve until SIGINT/SIGTERM, close, exit 0.
// --login points a profile at it with the first organization's key.
import type { CommandContext } from '../../cli/context.js';
import { CliError, UsageError } from '../../cli/errors.js';
import { EXIT } from '../../cli/exit-codes.js';
import { date as isCalendarDate } from '../../contract/request-formats.js';
import type { CommandInput } from '../../cli/registry.js';
import { cellText } from '../../cli/output/sanitize.js';
import { showWhole } from '../../client/redact.js';
import { checkProfileName } from '../../config/profile-name.js';
import type { ConfigData } from '../../state/config-store.js';

type ServeOptions = {
  host: string;
  port: number;
  data?: string;
  fixtures?: string;
  reset?: boolean;
  ingestEvery: number;
  login?: string | true;
  storageQuota?: string;
  asOf?: string;
};

export async function run(ctx: CommandContext, input: CommandInput<ServeOptions>): Promise<number> {
  const o = input.opts;
  // A bad profile name is refused before anything starts.
  const profile = o.login === undefined ? undefined : checkProfileName(typeof o.login === 'string' ? o.login : 'sandbox');
  const { asOf } = o;
  if (asOf !== undefined && !isCalendarDate(asOf))
    throw new UsageError(`--as-of ${asOf}: not a calendar date`, 'give a day as YYYY-MM-DD, e.g. --as-of 2026-09-23');
  const { bootSandbox, FixtureError } = await import('../../sandbox/index.js');
  // Resolves once listening; the routes may still be loading (requests wait for them), see `ready` below.
  const sandbox = await bootSandbox({
    env: ctx.env,
    note: ctx.note,
    ...(asOf !== undefined ? { asOf } : {}),
    host: o.host,
    port: o.port,
    ...(o.data !== undefined ? { data: o.data } : {}),
    ...(o.fixtures !== undefined ? { fixtures: o.fixtures } : {}),
    reset: o.reset === true,
    ...(o.storageQuota !== undefined ? { storageQuotaBytes: sizeOf(o.storageQuota) } : {}),
    ingestEveryMs: Math.round(o.ingestEvery * 1000),
  }).catch((err: unknown) => {
    // A bad --fixtures file (missing, not JSON, a field against the schema) is the user's input: exit 2, its message names the file and field.
    if (err instanceof FixtureError) throw new CliError(err.message, EXIT.usage, 'see docs/fixtures.md for the fields a world takes', 'invalid_fixtures');
    throw listenFailure(err, o.host, o.port) ?? err;
  });
  try {
    ctx.note(`adops sandbox: data in ${sandbox.dataPath}`);
    const every = o.ingestEvery;
    ctx.note(
      every > 0
        ? `adops sandbox: stored reads refresh every ${every} s (--ingest-every; 0 turns it off)`
        : 'adops sandbox: stored reads refresh only on POST /_sandbox/ingest (--ingest-every 0)',
    );
    if (sandbox.before20260924) ctx.note(`adops sandbox: serving the behaviour from before 2026-09-24 (--as-of ${asOf})`);
    ctx.note('Demo API keys (public fixtures of this sandbox, not secrets):');
    // Public fixtures, which the person asked to see: shown whole by the boundary that masks every other key.
    for (const k of sandbox.keys) {
      showWhole(k.key);
      ctx.note(`  ${k.key}  ${cellText(k.organization)}  ${cellText(k.label)}: ${cellText(k.description)}`);
    }

    if (profile !== undefined) {
      const first = sandbox.keys[0];
      if (first) {
        await ctx.config.update(loginTo(profile, sandbox.url, first));
        ctx.note(`Profile "${profile}" now points at ${sandbox.url} as ${first.organization} (${first.label}) and is the current profile.`);
        ctx.note('Try: adops observe campaigns');
      } else ctx.warn('no demo key to log in with');
    }
    // The ready line comes last: whoever waits for it finds the profile already written.
    ctx.io.stdout.write(`listening on ${sandbox.url}\n`);
    ctx.note('Press Ctrl-C to stop.');
    const stopped = new Promise<void>((resolve) => {
      if (ctx.signal.aborted) return resolve();
      ctx.signal.addEventListener('abort', () => resolve(), { once: true });
    });
    // Serve until stopped; a sandbox whose routes failed to load stops with that error.
    await Promise.race([stopped, sandbox.ready.then(() => stopped)]);
    ctx.note('adops sandbox: stopping');
  } finally {
    await sandbox.close();
  }
  return EXIT.ok;
}

/** `--login`'s change of the config: `profile` points at the sandbox with `key` and becomes the current profile. */
export function loginTo(profile: string, url: string, key: { key: string; organization: string }): (d: ConfigData) => void {
  return (d) => {
    d.profiles[profile] = { baseUrl: url, apiKey: key.key, organization: key.organization };
    d.currentProfile = profile;
  };
}

/**
 * The address cannot be had: a sentence and exit 2 (the --port/--host given
 * do not work here), not "unexpected … a bug in adops".
 */
function listenFailure(err: unknown, host: string, port: number): CliError | undefined {
  const code = (err as { code?: unknown } | null)?.code;
  const where = `${host.includes(':') ? `[${host}]` : host}:${port}`;
  if (code === 'EADDRINUSE') {
    return new CliError(
      `port ${port} is already taken on ${host} (another sandbox, or another program)`,
      EXIT.usage,
      'stop it, choose another --port, or use --port 0 to take any free port (the "listening on" line says which)',
      'port_in_use',
    );
  }
  if (code === 'EACCES')
    return new CliError(
      `not allowed to listen on ${where}`,
      EXIT.usage,
      'ports below 1024 need privileges: use --port 0 or a port above 1024',
      'port_not_allowed',
    );
  if (code === 'EADDRNOTAVAIL')
    return new CliError(`${host} is not an address of this machine`, EXIT.usage, 'use --host 127.0.0.1 (the default)', 'host_not_available');
  return undefined;
}

const UNITS: Record<string, number> = { '': 1, b: 1, kib: 1024, mib: 1024 ** 2, gib: 1024 ** 3, tib: 1024 ** 4 };

/** `--storage-quota`: whole bytes, or a number with KiB, MiB, GiB or TiB. */
export function sizeOf(text: string): number {
  const m = /^\s*(\d+(?:\.\d+)?)\s*([a-z]*)\s*$/i.exec(text);
  const unit = m ? UNITS[m[2]!.toLowerCase()] : undefined;
  if (!m || unit === undefined) throw new UsageError(`--storage-quota takes a size such as 500MiB, 2GiB or 1048576 (got ${JSON.stringify(text)})`);
  return Math.floor(Number(m[1]) * unit);
}
