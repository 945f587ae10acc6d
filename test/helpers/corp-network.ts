// A corporate network on loopback, for tests of HTTPS_PROXY/NO_PROXY (#14):
// - a CA made here with openssl, and a server certificate it signs for names
//   that only the proxy resolves (and localhost);
// - a TLS terminator with that certificate in front of a plain-http upstream
//   (the sandbox);
// - an HTTP proxy: CONNECT tunnels and plain forwarding, to names it alone
//   resolves, optionally demanding credentials (407 otherwise). It records
//   every byte it relays, so a test can prove the API key never crossed it
//   in clear.
import { execFileSync } from 'node:child_process';
import { readFileSync, writeFileSync } from 'node:fs';
import { createServer, request, type RequestListener, type Server } from 'node:http';
import { createServer as createHttpsServer } from 'node:https';
import { connect, createServer as createNetServer, type AddressInfo, type Socket } from 'node:net';
import { join } from 'node:path';
import { createServer as createTlsServer } from 'node:tls';
import { tempDir } from './temp.js';

export interface TestCa {
  dir: string;
  /** PEM file of the CA (for NODE_EXTRA_CA_CERTS). */
  caFile: string;
  key: string;
  cert: string;
}

/** A CA and a certificate it signs for `names` (DNS names; 127.0.0.1 as an IP). */
export function makeCa(names: string[]): TestCa {
  const dir = tempDir('adops-ca-');
  const ssl = (...args: string[]) => execFileSync('openssl', args, { cwd: dir, stdio: ['ignore', 'ignore', 'pipe'] });
  ssl('req', '-x509', '-newkey', 'rsa:2048', '-nodes', '-keyout', 'ca.key', '-out', 'ca.pem', '-days', '2', '-subj', '/CN=adops test corp CA');
  ssl('req', '-newkey', 'rsa:2048', '-nodes', '-keyout', 'server.key', '-out', 'server.csr', '-subj', `/CN=${names[0]}`);
  const san = names.map((n) => (/^\d+\.\d+\.\d+\.\d+$/.test(n) ? `IP:${n}` : `DNS:${n}`)).join(',');
  writeFileSync(join(dir, 'ext.cnf'), `subjectAltName=${san}\nbasicConstraints=CA:FALSE\nextendedKeyUsage=serverAuth\n`);
  ssl('x509', '-req', '-in', 'server.csr', '-CA', 'ca.pem', '-CAkey', 'ca.key', '-CAcreateserial', '-out', 'server.pem', '-days', '2', '-extfile', 'ext.cnf');
  return { dir, caFile: join(dir, 'ca.pem'), key: readFileSync(join(dir, 'server.key'), 'utf8'), cert: readFileSync(join(dir, 'server.pem'), 'utf8') };
}

export interface Closable {
  port: number;
  close(): Promise<void>;
}

function closer(server: Server | ReturnType<typeof createNetServer>, sockets: Set<Socket>): () => Promise<void> {
  return () =>
    new Promise<void>((resolve) => {
      for (const s of sockets) s.destroy();
      server.close(() => resolve());
    });
}

/** Two ends of one relay: either failing or closing ends both. */
function together(a: Socket, b: Socket): void {
  const end = () => {
    a.destroy();
    b.destroy();
  };
  a.on('error', end).on('close', end);
  b.on('error', end).on('close', end);
}

/** TLS on a loopback port, each connection piped to upstream host:port in plain TCP. */
export async function startTlsTerminator(ca: TestCa, upstreamPort: number): Promise<Closable> {
  const sockets = new Set<Socket>();
  const server = createTlsServer({ key: ca.key, cert: ca.cert }, (tls) => {
    const up = connect(upstreamPort, '127.0.0.1');
    sockets.add(tls);
    sockets.add(up);
    tls.pipe(up).pipe(tls);
    together(tls, up);
  });
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
  return { port: (server.address() as AddressInfo).port, close: closer(server, sockets) };
}

export interface TestProxy extends Closable {
  url: string;
  /** CONNECT authorities asked for ('ads.corp.test:443'), and plain forwarded URLs. */
  connects: string[];
  forwarded: string[];
  /** Every Proxy-Authorization header received. */
  authorizations: string[];
  /** Every byte relayed either way, and every request head: where a key in clear would show. */
  seen(): string;
  /** Answer every request with this status instead (e.g. 407, 502). */
  answer: number | undefined;
}

/**
 * A proxy resolving only `hosts` (name → loopback port; 'name:port' keys
 * route one port). With `credentials` ('user:password'), anything without
 * them gets 407. With `tls`, the proxy itself speaks TLS (an https:// proxy).
 */
export async function startConnectProxy(hosts: Record<string, number>, credentials?: string, tls?: TestCa): Promise<TestProxy> {
  const sockets = new Set<Socket>();
  const chunks: Buffer[] = [];
  const expected = credentials ? `Basic ${Buffer.from(credentials).toString('base64')}` : undefined;
  const resolve = (host: string, port: number) => hosts[`${host}:${port}`] ?? hosts[host];
  const state = { connects: [] as string[], forwarded: [] as string[], authorizations: [] as string[], answer: undefined as number | undefined };
  const refusal = (auth: string | undefined): number | undefined => {
    if (state.answer !== undefined) return state.answer;
    if (expected && auth !== expected) return 407;
    return undefined;
  };
  const listener: RequestListener = (req, res) => {
    // Plain forwarding: an absolute URL.
    chunks.push(Buffer.from(`${req.method} ${req.url}\n${JSON.stringify(req.headers)}\n`));
    state.forwarded.push(String(req.url));
    const auth = req.headers['proxy-authorization'];
    if (auth) state.authorizations.push(auth);
    const refused = refusal(auth);
    if (refused) {
      res.writeHead(refused, refused === 407 ? { 'proxy-authenticate': 'Basic realm="corp"' } : {}).end(`proxy says ${refused}`);
      return;
    }
    const target = new URL(String(req.url));
    const port = resolve(target.hostname, Number(target.port) || 80);
    if (!port) return void res.writeHead(502).end('unknown host');
    const { 'proxy-authorization': _a, ...headers } = req.headers;
    const up = request({ host: '127.0.0.1', port, method: req.method, path: target.pathname + target.search, headers }, (ur) => {
      res.writeHead(ur.statusCode ?? 502, ur.headers);
      ur.pipe(res);
    });
    up.on('error', () => res.destroy());
    req.on('data', (c: Buffer) => chunks.push(c));
    req.pipe(up);
  };
  const server: Server = tls ? createHttpsServer({ key: tls.key, cert: tls.cert }, listener) : createServer(listener);
  server.on(tls ? 'secureConnection' : 'connection', (s: Socket) => {
    sockets.add(s);
    s.on('close', () => sockets.delete(s));
  });
  server.on('connect', (req, client: Socket, head: Buffer) => {
    chunks.push(Buffer.from(`CONNECT ${req.url}\n${JSON.stringify(req.headers)}\n`));
    state.connects.push(String(req.url));
    const auth = req.headers['proxy-authorization'];
    if (auth) state.authorizations.push(auth);
    const refused = refusal(auth);
    if (refused) {
      client.end(
        `HTTP/1.1 ${refused} ${refused === 407 ? 'Proxy Authentication Required\r\nProxy-Authenticate: Basic realm="corp"' : 'Bad Gateway'}\r\nContent-Length: 0\r\n\r\n`,
      );
      return;
    }
    const [host, portText] = String(req.url).split(/:(?=\d+$)/);
    const port = resolve(host!, Number(portText));
    if (!port) return void client.end('HTTP/1.1 502 Bad Gateway\r\nContent-Length: 0\r\n\r\n');
    const up = connect(port, '127.0.0.1', () => {
      client.write('HTTP/1.1 200 Connection Established\r\n\r\n');
      if (head.length) up.write(head);
      client.on('data', (c: Buffer) => chunks.push(c));
      up.on('data', (c: Buffer) => chunks.push(c));
      client.pipe(up).pipe(client);
    });
    sockets.add(up);
    together(client, up);
  });
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
  const port = (server.address() as AddressInfo).port;
  return Object.assign(state, {
    port,
    url: tls ? `https://localhost:${port}` : `http://127.0.0.1:${port}`,
    seen: () => Buffer.concat(chunks).toString('latin1'),
    close: closer(server, sockets),
  });
}
