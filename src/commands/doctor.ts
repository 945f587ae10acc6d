// adops doctor: check config, key, reachability, subscription and read
// permissions, and say what to fix. Write permissions cannot be probed
// without changing something, so they are reported as not checked.
import { ApiError, NetworkError } from '../client/errors.js';
import { ApiClient } from '../client/http.js';
import { checkBaseUrl } from '../client/origin.js';
import { decideProxy, ProxyRefusedError, type ProxyDecision } from '../client/proxy.js';
import { TlsCertificateError } from '../client/transport.js';
import { maskKey } from '../client/redact.js';
import { API_KEY_PREFIX } from '../contract/ids.js';
import type { CommandContext } from '../cli/context.js';
import { EXIT, exitCodeForStatus, type ExitCode } from '../cli/exit-codes.js';
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

export async function run(ctx: CommandContext): Promise<number> {
  const checks: Check[] = [];
  let exit: ExitCode = EXIT.ok;
  const fail = (c: Omit<Check, 'ok'>, code: ExitCode) => {
    checks.push({ ...c, ok: false });
    if (exit === EXIT.ok) exit = code;
  };

  const modes = ctx.config.modes();
  if (modes.file === undefined) checks.push({ check: 'config', ok: true, detail: `no config file yet (${ctx.config.file})` });
  else if (modes.file !== FILE_MODE || (modes.dir ?? DIR_MODE) !== DIR_MODE) {
    fail(
      {
        check: 'config',
        detail: `${ctx.config.file} is ${modes.file.toString(8)} in a ${modes.dir?.toString(8)} directory`,
        fix: `chmod 600 ${ctx.config.file}; chmod 700 ${ctx.config.dir} (any adops write also fixes it)`,
      },
      EXIT.usage,
    );
  } else checks.push({ check: 'config', ok: true, detail: `${ctx.config.file} (0600, directory 0700)` });

  const a = ctx.auth();
  let baseOk = true;
  try {
    checkBaseUrl(a.baseUrl);
    checks.push({ check: 'base-url', ok: true, detail: `${a.baseUrl} (from ${a.baseUrlSource})` });
  } catch (err) {
    baseOk = false;
    fail({ check: 'base-url', detail: messageOf(err), fix: 'adops config set base-url https://…' }, EXIT.usage);
  }

  if (!a.apiKey)
    fail({ check: 'key', detail: `no key for profile "${a.profile}"`, fix: 'adops auth login (or adops sandbox serve --login, or ADOPS_API_KEY)' }, EXIT.auth);
  else if (!a.apiKey.startsWith(API_KEY_PREFIX))
    fail({ check: 'key', detail: `the key does not start with ${API_KEY_PREFIX}`, fix: 'adops auth login with a key from the console' }, EXIT.auth);
  else checks.push({ check: 'key', ok: true, detail: `${maskKey(a.apiKey)} (from ${a.apiKeySource === 'env' ? 'ADOPS_API_KEY' : 'config file'})` });

  // The proxy the configured origin goes through (HTTPS_PROXY...), or why it goes direct.
  let proxy: ProxyDecision | undefined;
  if (baseOk) {
    try {
      proxy = decideProxy(new URL(a.baseUrl).origin, ctx.env);
      if (proxy.kind === 'bypass') checks.push({ check: 'proxy', ok: true, detail: `not used for ${new URL(a.baseUrl).host}: ${proxy.reason}` });
    } catch (err) {
      baseOk = false;
      fail({ check: 'proxy', detail: messageOf(err), fix: 'fix or unset the variable, or list the host in NO_PROXY' }, EXIT.usage);
    }
  }
  const route = proxy?.kind === 'proxy' ? proxy.route : undefined;

  if (baseOk && a.apiKey) {
    const client = new ApiClient({
      baseUrl: a.baseUrl,
      apiKey: a.apiKey,
      userAgent: userAgent(ctx.version),
      requestTimeoutMs: 10_000,
      retry: { maxAttempts: 2, baseDelayMs: 200, maxDelayMs: 1000, budgetMs: 15_000 },
      trace: (l) => ctx.trace(l),
      env: ctx.env,
    });
    const probe = (id: (typeof READ_PROBES)[number]['id'] | 'listCampaigns') => client.callUnchecked(id, { query: { limit: 1 } }, { signal: ctx.signal });
    try {
      await probe('listCampaigns');
      if (route)
        checks.push({
          check: 'proxy',
          ok: true,
          detail: `${route.shown} (from ${route.variable}) ${client.baseUrl.protocol === 'https:' ? 'tunnels' : 'forwards'} to ${client.baseUrl.hostname}:${client.baseUrl.port || (client.baseUrl.protocol === 'https:' ? 443 : 80)}`,
        });
      checks.push({ check: 'reachable', ok: true, detail: `${a.baseUrl} answers` });
      checks.push({ check: 'key accepted', ok: true, detail: 'the service accepts the key' });
      checks.push({ check: 'subscription', ok: true, detail: 'active' });
      checks.push({ check: 'observe:read', ok: true, detail: 'granted' });
    } catch (err) {
      if (err instanceof ProxyRefusedError)
        fail(
          {
            check: 'proxy',
            detail: err.message,
            fix: `put the proxy's user name and password in ${route?.variable ?? 'HTTPS_PROXY'} (http://USER:PASSWORD@host:port)`,
          },
          EXIT.auth,
        );
      else if (err instanceof TlsCertificateError)
        fail({ check: 'tls', detail: err.message, fix: 'if a private CA signs it, NODE_EXTRA_CA_CERTS=/path/to/ca.pem adops doctor' }, EXIT.unavailable);
      else if (route && err instanceof NetworkError && /\bthe proxy\b/.test(err.message))
        fail(
          { check: 'proxy', detail: err.message, fix: `is ${route.shown} right and reachable? (${route.variable}; NO_PROXY to bypass it)` },
          EXIT.unavailable,
        );
      else if (err instanceof NetworkError)
        fail({ check: 'reachable', detail: err.message, fix: 'is the service (or `adops sandbox serve`) running at this base URL?' }, EXIT.unavailable);
      else if (err instanceof ApiError) {
        checks.push({ check: 'reachable', ok: true, detail: `${a.baseUrl} answers` });
        const fix = err.hint ?? undefined;
        if (err.status === 401) fail({ check: 'key accepted', detail: `${err.code}: ${err.message}`, fix: 'adops auth login with a valid key' }, EXIT.auth);
        else if (err.status === 402) fail({ check: 'subscription', detail: `${err.code}: ${err.message}`, ...(fix ? { fix } : {}) }, EXIT.auth);
        else if (err.status === 403)
          fail({ check: 'observe:read', detail: `${err.code}: ${err.message}`, fix: 'ask an admin for a key whose member holds observe:read' }, EXIT.auth);
        else fail({ check: 'observe', detail: `${err.status} ${err.code}: ${err.message}`, ...(fix ? { fix } : {}) }, exitCodeForStatus(err.status));
      } else throw err;
    }
    if (exit === EXIT.ok) {
      for (const p of READ_PROBES) {
        try {
          await probe(p.id);
          checks.push({ check: p.permission, ok: true, detail: 'granted' });
        } catch (err) {
          if (err instanceof ApiError && err.status === 403)
            fail({ check: p.permission, detail: `${err.code}: ${err.message}`, fix: `ask an admin for a key whose member holds ${p.permission}` }, EXIT.auth);
          else fail({ check: p.permission, detail: messageOf(err) }, err instanceof ApiError ? exitCodeForStatus(err.status) : EXIT.unavailable);
        }
      }
      checks.push({ check: 'write permissions', ok: true, detail: 'not checked (probing them would change data)' });
    }
  }

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
  if (exit !== EXIT.ok) ctx.note('doctor: some checks failed (see fix lines above)');
  return exit;
}
