// `adops mcp --http [HOST:]PORT`: Streamable HTTP at /mcp, on 127.0.0.1 unless a
// host is given, one stateful session per client (a transport and a server each,
// sharing the tools and the runner). The SDK's DNS-rebinding protection is on:
// the Host header must name the bound address (and `localhost` for a loopback
// one), an Origin header must be the same origin; anything else is answered 403.
// The socket is @hono/node-server's (the web-standard transport answers a
// Request with a Response).
import { randomUUID } from 'node:crypto';
import { serve } from '@hono/node-server';
import { WebStandardStreamableHTTPServerTransport } from '@modelcontextprotocol/sdk/server/webStandardStreamableHttp.js';
import { UsageError } from '../cli/errors.js';
import { createMcpServer, type ServerSetup } from './server.js';

export interface HttpAddress {
  host: string;
  port: number;
}

/** `8765`, `127.0.0.1:8765`, `[::1]:8765`, `0.0.0.0:8765`: the host defaults to loopback. */
export function parseAddress(text: string): HttpAddress {
  const m = /^(?:(\[[0-9a-fA-F:.]+\]|[A-Za-z0-9.-]+):)?(\d{1,5})$/.exec(text.trim());
  const port = m ? Number(m[2]) : NaN;
  if (!m || port > 65535) throw new UsageError(`--http ${JSON.stringify(text)} is not [HOST:]PORT`, 'e.g. --http 8765 or --http 127.0.0.1:8765');
  return { host: m[1]?.replace(/^\[|\]$/g, '') ?? '127.0.0.1', port };
}

const hostPort = (host: string, port: number) => (host.includes(':') ? `[${host}]:${port}` : `${host}:${port}`);

/** The Host headers and Origins a request may carry for a server bound to host:port. */
export function allowedFor(host: string, port: number): { hosts: string[]; origins: string[] } {
  const names = [host, ...(host === '127.0.0.1' || host === '::1' ? ['localhost'] : [])];
  const hosts = names.map((h) => hostPort(h, port));
  return { hosts, origins: hosts.map((h) => `http://${h}`) };
}

function notFound(message: string, status = 404): Response {
  return Response.json({ jsonrpc: '2.0', error: { code: -32000, message }, id: null }, { status });
}

/** The fetch handler: a session's transport by its header, or a new one for an initialize. */
function sessions(setup: ServerSetup, allowed: () => { hosts: string[]; origins: string[] }) {
  const open = new Map<string, WebStandardStreamableHTTPServerTransport>();
  const fetch = async (req: Request): Promise<Response> => {
    if (new URL(req.url).pathname !== '/mcp') return notFound('not found: the MCP endpoint is /mcp');
    const id = req.headers.get('mcp-session-id');
    const known = id ? open.get(id) : undefined;
    if (id && !known) return notFound('session not found: initialize a new one');
    if (known) return known.handleRequest(req);
    const { hosts, origins } = allowed();
    const transport: WebStandardStreamableHTTPServerTransport = new WebStandardStreamableHTTPServerTransport({
      sessionIdGenerator: () => randomUUID(),
      enableDnsRebindingProtection: true,
      allowedHosts: hosts,
      allowedOrigins: origins,
      onsessioninitialized: (sid) => void open.set(sid, transport),
      onsessionclosed: (sid) => void open.delete(sid),
    });
    transport.onclose = () => {
      if (transport.sessionId) open.delete(transport.sessionId);
    };
    await createMcpServer(setup).connect(transport);
    const res = await transport.handleRequest(req);
    // Not an initialize (refused, or a request without a session): nothing to keep.
    if (!transport.sessionId) await transport.close();
    return res;
  };
  const closeAll = () => Promise.all([...open.values()].map((t) => t.close()));
  return { fetch, closeAll };
}

/** Serve until the signal aborts; `onListening` gets the URL (port 0 asks the system for one). */
export async function serveHttp(setup: ServerSetup, address: HttpAddress, o: { signal: AbortSignal; onListening: (url: string) => void }): Promise<void> {
  let port = address.port;
  const s = sessions(setup, () => allowedFor(address.host, port));
  const server = await new Promise<ReturnType<typeof serve>>((resolve, reject) => {
    const srv = serve({ fetch: s.fetch, hostname: address.host, port: address.port }, (info) => {
      port = info.port;
      resolve(srv);
    });
    srv.once('error', reject);
  });
  o.onListening(`http://${hostPort(address.host, port)}/mcp`);
  await new Promise<void>((resolve) => {
    if (o.signal.aborted) resolve();
    o.signal.addEventListener('abort', () => resolve(), { once: true });
  });
  await s.closeAll();
  await new Promise<void>((resolve) => server.close(() => resolve()));
}
