// CONNECT tunnels through an HTTP(S) proxy, for https origins. Loaded only
// when a proxy variable applies to a request's origin (./proxy.ts decides), so
// undici is never loaded otherwise. undici does the proxy exchange, public API
// only: a Pool to the proxy and Dispatcher#connect, which answers the proxy's
// exact status (ProxyAgent only says it in an error's text). The tunnel's
// socket is handed to node:https, so the request itself, its timeouts,
// progress and failure handling are the same code with or without a proxy
// (docs/decisions.md, "Proxies (#14)").
import { Agent as HttpsAgent, type AgentOptions } from 'node:https';
import type { Duplex } from 'node:stream';
import { connect as tlsConnect, type ConnectionOptions } from 'node:tls';
import type { Pool } from 'undici';
import { proxyAuthRefused, type ProxyRoute } from './proxy.js';
import { certificateError, codeOf, TransportError } from './transport.js';

const pools = new Map<string, Pool>();

async function poolFor(route: ProxyRoute, connectTimeoutMs: number): Promise<Pool> {
  let pool = pools.get(route.origin);
  if (!pool) {
    const { Pool: UndiciPool } = await import('undici');
    pool = new UndiciPool(route.origin, { connections: 8, connect: { timeout: connectTimeoutMs }, headersTimeout: connectTimeoutMs });
    pools.set(route.origin, pool);
  }
  return pool;
}

/** Open a tunnel to host:port through the proxy; a refusal says which proxy and why. */
async function openTunnel(route: ProxyRoute, host: string, port: number, connectTimeoutMs = 10_000, userAgent = 'adops'): Promise<Duplex> {
  const pool = await poolFor(route, connectTimeoutMs);
  const authority = `${host.includes(':') ? `[${host}]` : host}:${port}`;
  let answer: { statusCode: number; socket: Duplex };
  try {
    answer = await pool.connect({
      path: authority,
      // A User-Agent on the CONNECT too: a corporate proxy's allow-list and logs see who asks (issue 25).
      headers: { host: authority, 'user-agent': userAgent, ...(route.authorization ? { 'proxy-authorization': route.authorization } : {}) },
      // 0 (--connect-timeout 0): no bound of ours (undici reads 0 as none for its own two).
      ...(connectTimeoutMs > 0 ? { signal: AbortSignal.timeout(connectTimeoutMs) } : {}),
    });
  } catch (err) {
    const code = codeOf(err) ?? (err instanceof Error ? err.name : 'Error');
    const cert = certificateError(err, `the proxy ${route.hostname}`);
    if (cert) throw cert;
    throw new TransportError(`cannot reach the proxy ${route.shown} (${code})`, 'connect', false, code, { cause: err });
  }
  if (answer.statusCode === 200) return answer.socket;
  answer.socket.on('error', () => {}).destroy();
  if (answer.statusCode === 407) {
    throw proxyAuthRefused(route);
  }
  // Nothing reached the service: retried like a connection failure, for every method.
  throw new TransportError(`the proxy ${route.shown} answered ${answer.statusCode} to CONNECT ${authority}`, 'connect', false, `EPROXY_${answer.statusCode}`);
}

/**
 * A node:https agent whose connections are TLS inside a tunnel: TLS to the
 * origin, so the key and the certificate check are the origin's, end to end.
 */
export function tunnelAgent(route: ProxyRoute, options: AgentOptions & { connectTimeoutMs?: number; userAgent?: string } = {}): HttpsAgent {
  const { connectTimeoutMs, userAgent, ...agentOptions } = options;
  return new TunnelAgent(route, connectTimeoutMs, userAgent, agentOptions);
}

class TunnelAgent extends HttpsAgent {
  constructor(
    private readonly route: ProxyRoute,
    private readonly connectTimeoutMs: number | undefined,
    private readonly userAgent: string | undefined,
    options: AgentOptions,
  ) {
    super(options);
  }

  // Agent#createConnection(options, callback) may hand the socket to the callback (documented); on failure the callback gets the error alone.
  override createConnection(opts: ConnectionOptions, done?: (err: Error | null, socket: Duplex) => void): undefined {
    // The agent computed servername (none for an IP address) and the CA options as for a direct connection.
    openTunnel(this.route, String(opts.host ?? 'localhost').replace(/^\[|\]$/g, ''), Number(opts.port) || 443, this.connectTimeoutMs, this.userAgent).then(
      (socket) => done?.(null, tlsConnect({ ...opts, socket, ALPNProtocols: ['http/1.1'] })),
      // Node's agent takes the error alone (no socket); the typings want one, so the call is made as node makes it.
      (err: Error) => {
        if (done) Reflect.apply(done, undefined, [err]);
      },
    );
    return undefined;
  }
}

/** Close the pools to the proxies (the runner's closeAllPools calls it). */
export async function closeTunnels(): Promise<void> {
  const all = [...pools.values()];
  pools.clear();
  await Promise.all(all.map((p) => p.destroy().catch(() => {})));
}
