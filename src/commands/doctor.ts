// adops doctor: check config, key, reachability, subscription and read
// permissions, and say what to fix. Write permissions cannot be probed
// without changing something, so they are reported as not checked.
import { ApiError, NetworkError } from '../client/errors.js';
import { ApiClient } from '../client/http.js';
import { checkBaseUrl } from '../client/origin.js';
import { decideProxy, ProxyRefusedError, type ProxyRoute } from '../client/proxy.js';
import { TlsCertificateError } from '../client/transport.js';
import { maskKey } from '../client/redact.js';
import { API_KEY_PREFIX } from '../contract/ids.js';
import type { CommandContext } from '../cli/context.js';
import type { ResolvedAuth } from '../config/resolve.js';
import { EXIT, exitCodeOfAnswer, type ExitCode } from '../cli/exit-codes.js';
import { ListWriter, prepareOutput } from '../cli/output/writers.js';
import { drawsForTerminal } from '../cli/output/writers/formats.js';
import { lineText } from '../cli/output/sanitize.js';
import { userAgent } from '../cli/version.js';
import { DIR_MODE, FILE_MODE } from '../state/config-store.js';
import { messageOf } from '../cli/errors.js';

interface Check {
  check: string;
  ok: boolean;
  detail: string;
  fix?: string;
}

const READ_PROBES = [
  { permission: 'mutation:read', id: 'listMutations' },
  { permission: 'skill:read', id: 'listSkills' },
  { permission: 'brand:read', id: 'listBrands' },
  { permission: 'campaign_plan:read', id: 'listCampaignPlans' },
  { permission: 'asset:read', id: 'listAssets' },
] as const;

/** The checks so far, in the order they are shown, and the exit code of the first that failed. */
class Findings {
  readonly checks: Check[] = [];
  exit: ExitCode = EXIT.ok;
  pass(check: string, detail: string): void {
    this.checks.push({ check, ok: true, detail });
  }
  fail(c: Omit<Check, 'ok'>, code: ExitCode): void {
    this.checks.push({ ...c, ok: false });
    if (this.exit === EXIT.ok) this.exit = code;
  }
}

type Probe = (id: (typeof READ_PROBES)[number]['id'] | 'listCampaigns') => Promise<unknown>;

export async function run(ctx: CommandContext): Promise<number> {
  const f = new Findings();
  checkConfigFile(ctx, f);
  const a = ctx.auth();
  const baseOk = checkBase(f, a);
  checkKey(f, a);
  const way = baseOk ? checkProxy(ctx, f, a.baseUrl) : undefined;
  if (way && a.apiKey) await probeService(ctx, f, { ...a, apiKey: a.apiKey }, way.route);
  await show(ctx, f.checks);
  if (f.exit !== EXIT.ok) ctx.note('doctor: some checks failed (see fix lines above)');
  return f.exit;
}

function checkConfigFile(ctx: CommandContext, f: Findings): void {
  const modes = ctx.config.modes();
  if (modes.file === undefined) f.pass('config', `no config file yet (${ctx.config.file})`);
  else if (modes.file !== FILE_MODE || (modes.dir ?? DIR_MODE) !== DIR_MODE) {
    f.fail(
      {
        check: 'config',
        detail: `${ctx.config.file} is ${modes.file.toString(8)} in a ${modes.dir?.toString(8)} directory`,
        fix: `chmod 600 ${ctx.config.file}; chmod 700 ${ctx.config.dir} (any adops write also fixes it)`,
      },
      EXIT.usage,
    );
  } else f.pass('config', `${ctx.config.file} (0600, directory 0700)`);
}

function checkBase(f: Findings, a: ResolvedAuth): boolean {
  try {
    checkBaseUrl(a.baseUrl);
    f.pass('base-url', `${a.baseUrl} (from ${a.baseUrlSource})`);
    return true;
  } catch (err) {
    f.fail({ check: 'base-url', detail: messageOf(err), fix: 'adops config set base-url https://…' }, EXIT.usage);
    return false;
  }
}

function checkKey(f: Findings, a: ResolvedAuth): void {
  if (!a.apiKey)
    f.fail(
      { check: 'key', detail: `no key for profile "${a.profile}"`, fix: 'adops auth login (or adops sandbox serve --login, or ADOPS_API_KEY)' },
      EXIT.auth,
    );
  else if (!a.apiKey.startsWith(API_KEY_PREFIX))
    f.fail({ check: 'key', detail: `the key does not start with ${API_KEY_PREFIX}`, fix: 'adops auth login with a key from the console' }, EXIT.auth);
  else f.pass('key', `${maskKey(a.apiKey)} (from ${a.apiKeySource === 'env' ? 'ADOPS_API_KEY' : 'config file'})`);
}

/** The proxy the configured origin goes through (HTTPS_PROXY...), or why it goes direct; undefined when a variable is wrong. */
function checkProxy(ctx: CommandContext, f: Findings, baseUrl: string): { route: ProxyRoute | undefined } | undefined {
  try {
    const proxy = decideProxy(new URL(baseUrl).origin, ctx.env);
    if (proxy.kind === 'bypass') f.pass('proxy', `not used for ${new URL(baseUrl).host}: ${proxy.reason}`);
    return { route: proxy.kind === 'proxy' ? proxy.route : undefined };
  } catch (err) {
    f.fail({ check: 'proxy', detail: messageOf(err), fix: 'fix or unset the variable, or list the host in NO_PROXY' }, EXIT.usage);
    return undefined;
  }
}

/** Reach the service with the key: a first read says what the key gets through to, then each read permission. */
async function probeService(ctx: CommandContext, f: Findings, a: ResolvedAuth & { apiKey: string }, route: ProxyRoute | undefined): Promise<void> {
  const client = new ApiClient({
    baseUrl: a.baseUrl,
    apiKey: a.apiKey,
    userAgent: userAgent(ctx.version),
    requestTimeoutMs: 10_000,
    retry: { maxAttempts: 2, baseDelayMs: 200, maxDelayMs: 1000, budgetMs: 15_000 },
    trace: (l) => ctx.trace(l),
    env: ctx.env,
  });
  const probe: Probe = (id) => client.callUnchecked(id, { query: { limit: 1 } }, { signal: ctx.signal });
  try {
    await probe('listCampaigns');
    if (route) {
      const { protocol, hostname, port } = client.baseUrl;
      const tunnels = protocol === 'https:';
      f.pass('proxy', `${route.shown} (from ${route.variable}) ${tunnels ? 'tunnels' : 'forwards'} to ${hostname}:${port || (tunnels ? 443 : 80)}`);
    }
    f.pass('reachable', `${a.baseUrl} answers`);
    f.pass('key accepted', 'the service accepts the key');
    f.pass('subscription', 'active');
    f.pass('observe:read', 'granted');
  } catch (err) {
    firstProbeFailed(f, err, a.baseUrl, route);
  }
  if (f.exit === EXIT.ok) await probeReadPermissions(f, probe);
}

/** Why the first read failed: the proxy, TLS, the network, or the service's answer (key, subscription, permission). */
function firstProbeFailed(f: Findings, err: unknown, baseUrl: string, route: ProxyRoute | undefined): void {
  if (err instanceof ProxyRefusedError)
    f.fail(
      {
        check: 'proxy',
        detail: err.message,
        fix: `put the proxy's user name and password in ${route?.variable ?? 'HTTPS_PROXY'} (http://USER:PASSWORD@host:port)`,
      },
      EXIT.auth,
    );
  else if (err instanceof TlsCertificateError)
    f.fail({ check: 'tls', detail: err.message, fix: 'if a private CA signs it, NODE_EXTRA_CA_CERTS=/path/to/ca.pem adops doctor' }, EXIT.unavailable);
  else if (route && err instanceof NetworkError && /\bthe proxy\b/.test(err.message))
    f.fail({ check: 'proxy', detail: err.message, fix: `is ${route.shown} right and reachable? (${route.variable}; NO_PROXY to bypass it)` }, EXIT.unavailable);
  else if (err instanceof NetworkError)
    f.fail({ check: 'reachable', detail: err.message, fix: 'is the service (or `adops sandbox serve`) running at this base URL?' }, EXIT.unavailable);
  else if (err instanceof ApiError) {
    f.pass('reachable', `${baseUrl} answers`);
    const fix = err.hint ?? undefined;
    if (err.status === 401) f.fail({ check: 'key accepted', detail: `${err.code}: ${err.message}`, fix: 'adops auth login with a valid key' }, EXIT.auth);
    else if (err.status === 402) f.fail({ check: 'subscription', detail: `${err.code}: ${err.message}`, ...(fix ? { fix } : {}) }, EXIT.auth);
    else if (err.status === 403)
      f.fail({ check: 'observe:read', detail: `${err.code}: ${err.message}`, fix: 'ask an admin for a key whose member holds observe:read' }, EXIT.auth);
    else f.fail({ check: 'observe', detail: `${err.status} ${err.code}: ${err.message}`, ...(fix ? { fix } : {}) }, exitCodeOfAnswer(err.status, err.code));
  } else throw err;
}

async function probeReadPermissions(f: Findings, probe: Probe): Promise<void> {
  for (const p of READ_PROBES) {
    try {
      await probe(p.id);
      f.pass(p.permission, 'granted');
    } catch (err) {
      if (err instanceof ApiError && err.status === 403)
        f.fail({ check: p.permission, detail: `${err.code}: ${err.message}`, fix: `ask an admin for a key whose member holds ${p.permission}` }, EXIT.auth);
      else f.fail({ check: p.permission, detail: messageOf(err) }, err instanceof ApiError ? exitCodeOfAnswer(err.status, err.code) : EXIT.unavailable);
    }
  }
  f.pass('write permissions', 'not checked (probing them would change data)');
}

async function show(ctx: CommandContext, checks: readonly Check[]): Promise<void> {
  if (drawsForTerminal(ctx.output.format)) {
    // Details hold server, proxy and environment text: each a line through the boundary.
    const lines = checks.map((c) => `${c.ok ? '✓' : '✗'} ${c.check}: ${lineText(c.detail)}${c.fix ? `\n    fix: ${lineText(c.fix)}` : ''}`);
    ctx.io.stdout.write(lines.join('\n') + '\n');
  } else {
    const w = new ListWriter(Object.assign(await prepareOutput(ctx, 'check'), { color: false }));
    await w.begin();
    await w.page(checks.map((c) => ({ ...c })));
    await w.end();
  }
}
