// The node:http transport against a real loopback server: an idle timeout
// (not a whole-request one), streamed bodies, answers streamed to a sink,
// cuts mid-body, and paths sent exactly as built.
import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo, Socket } from 'node:net';
import { PassThrough, Readable } from 'node:stream';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { NetworkError } from '../../../src/client/errors.js';
import { ApiClient, closeAllPools } from '../../../src/client/http.js';
import { IDLE_SOCKET_MS, nodeTransport } from '../../../src/client/node-transport.js';
import { TransportError } from '../../../src/client/transport.js';
import { fillPath } from '../../../src/contract/operations.js';

let server: Server;
let base: string;
let connections = 0;
let lastSocket: Socket | undefined;
const seen: Array<{ url: string; headers: IncomingMessage['headers']; body: string }> = [];

const routes: Record<string, (req: IncomingMessage, res: ServerResponse) => void> = {
  // Bytes keep coming, slowly: 6 chunks 80 ms apart, longer in all than the idle bound.
  '/slow': (_q, res) => {
    res.writeHead(200, { 'content-type': 'application/json' });
    let i = 0;
    res.write('[');
    const t = setInterval(() => {
      res.write(i ? ',1' : '1');
      if (++i === 6) {
        clearInterval(t);
        res.end(']');
      }
    }, 80);
  },
  // Headers, one chunk, then nothing.
  '/stall': (_q, res) => {
    res.writeHead(200, { 'content-type': 'application/json' });
    res.write('{"data":[');
  },
  // The answer after 150 ms: longer than a connect bound, shorter than an idle one.
  '/late': (_q, res) => {
    setTimeout(() => {
      res.writeHead(200, { 'content-type': 'application/json' });
      res.end('{}');
    }, 150);
  },
  '/cut': (req, res) => {
    res.writeHead(200, { 'content-type': 'application/json', 'content-length': '100' });
    res.write('{"data":[');
    setTimeout(() => req.socket.destroy(), 20);
  },
};

beforeAll(async () => {
  server = createServer((req, res) => {
    let body = '';
    req.on('data', (c) => (body += c));
    req.on('end', () => {
      seen.push({ url: req.url!, headers: req.headers, body });
      const route = routes[req.url!.split('?')[0]!];
      if (route) return route(req, res);
      res.writeHead(200, { 'content-type': 'application/json' });
      res.end(JSON.stringify({ url: req.url, length: body.length }));
    });
  });
  server.on('connection', (socket) => {
    connections++;
    lastSocket = socket;
  });
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
  base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
});

afterAll(async () => {
  await closeAllPools();
  server.closeAllConnections();
  await new Promise((r) => server.close(r));
});

const client = (idleMs = 250) =>
  new ApiClient({
    baseUrl: base,
    apiKey: 'acr_t_1234',
    userAgent: 't',
    requestTimeoutMs: idleMs,
    retry: { maxAttempts: 1, baseDelayMs: 1, maxDelayMs: 1, budgetMs: 5000 },
  });

describe('node:http transport', () => {
  it('lets a slow body that keeps moving finish: the timeout is idle time, not total time', async () => {
    const started = Date.now();
    const res = await client(250).request({ method: 'GET', path: '/slow' });
    expect(res.body).toEqual([1, 1, 1, 1, 1, 1]);
    expect(Date.now() - started).toBeGreaterThan(400);
  });

  it('fails a stalled answer after the idle bound, as a timeout', async () => {
    const err = await client(200)
      .request({ method: 'GET', path: '/stall' })
      .catch((e: unknown) => e);
    expect(err).toBeInstanceOf(NetworkError);
    expect((err as NetworkError).kind).toBe('timeout');
  });

  it('reports a connection cut mid-body as a lost answer', async () => {
    const err = await client(2000)
      .request({ method: 'GET', path: '/cut' })
      .catch((e: unknown) => e);
    expect(err).toBeInstanceOf(NetworkError);
    expect((err as NetworkError).kind).toBe('lost');
  });

  it('streams a body with Content-Length when known, chunked otherwise', async () => {
    const body = () => Readable.from([Buffer.alloc(1000, 1), Buffer.alloc(500, 2)]);
    await client().request({ method: 'PUT', path: '/upload-known', body, contentLength: 1500, contentType: 'image/png' });
    await client().request({ method: 'PUT', path: '/upload-unknown', body, contentType: 'image/png' });
    const [known, unknown] = seen.filter((s) => s.url.startsWith('/upload-'));
    expect(known!.headers['content-length']).toBe('1500');
    expect(known!.body.length).toBe(1500);
    expect(unknown!.headers['transfer-encoding']).toBe('chunked');
  });

  it('writes a 2xx answer to a sink when asked', async () => {
    const sink = new PassThrough();
    let text = '';
    sink.on('data', (c) => (text += c));
    const res = await client().request({ method: 'GET', path: '/download', sink: () => sink });
    expect(res.body).toBeUndefined();
    expect(JSON.parse(text)).toMatchObject({ url: '/download' });
  });

  it('sends the path exactly as built: an id of ".." stays one encoded segment', async () => {
    const res = await client().request<{ url: string }>({ method: 'GET', path: fillPath('/assets/{id}', { id: '..' }) });
    expect(res.body.url).toBe('/assets/%2E%2E');
  });

  it('stops a request in flight on abort, with the abort reason', async () => {
    const ac = new AbortController();
    const reason = new Error('interrupted');
    setTimeout(() => ac.abort(reason), 50);
    await expect(client(5000).request({ method: 'GET', path: '/stall', signal: ac.signal })).rejects.toBe(reason);
  });

  it('keeps a connection alive between requests, and drops it after 4 s idle (before a server would)', async () => {
    // 4 s, under the 5 s a Node server keeps an idle connection.
    expect(IDLE_SOCKET_MS).toBe(4_000);
    expect(IDLE_SOCKET_MS).toBeLessThan(server.keepAliveTimeout);
    // The drop itself, with the idle time injected short: wait for the event, not for the clock.
    const transport = nodeTransport({ idleSocketMs: 30 });
    const c = new ApiClient({
      baseUrl: base,
      apiKey: 'acr_t_1234',
      userAgent: 't',
      transport,
      retry: { maxAttempts: 1, baseDelayMs: 1, maxDelayMs: 1, budgetMs: 5000 },
    });
    const before = connections;
    await c.request({ method: 'GET', path: '/a' });
    await c.request({ method: 'GET', path: '/b' });
    expect(connections - before).toBe(1);
    await new Promise<void>((resolve) => lastSocket!.once('close', () => resolve()));
    await c.request({ method: 'GET', path: '/c' });
    expect(connections - before).toBe(2);
    await transport.close();
  });
});

describe('the request deadline, kept by the transport (#37: no AbortController per attempt)', () => {
  it('ends an answer that trickles past the retry budget: a timeout, though bytes keep coming within the idle bound', async () => {
    // /slow sends for ~480 ms, never idle 80 ms: only the whole request's deadline can end it.
    const c = new ApiClient({
      baseUrl: base,
      apiKey: 'acr_t_1234',
      userAgent: 't',
      requestTimeoutMs: 5000,
      retry: { maxAttempts: 1, baseDelayMs: 1, maxDelayMs: 1, budgetMs: 150 },
    });
    const started = Date.now();
    const err = await c.request({ method: 'GET', path: '/slow' }).catch((e: unknown) => e);
    expect(err).toBeInstanceOf(NetworkError);
    expect(err).toMatchObject({ kind: 'timeout', message: expect.stringMatching(/within the retry budget \(0\.2 s, --retry-budget\)/) });
    expect(Date.now() - started).toBeLessThan(450);
  });

  it('fails the exchange with the deadline’s own error at its time, and leaves no timer once an answer ended', async () => {
    const transport = nodeTransport();
    expect(transport.keepsDeadlines).toBe(true);
    const late = new Error('deadline');
    await expect(
      transport.send({ method: 'GET', origin: base, path: '/stall', headers: {}, deadline: { ms: 60, error: () => late } }).then(async (res) => {
        for await (const chunk of res.body) void chunk;
      }),
    ).rejects.toBe(late);
    // An answer read to its end clears the deadline: nothing fires later, nothing holds the process.
    let fired = false;
    const res = await transport.send({ method: 'GET', origin: base, path: '/quick', headers: {}, deadline: { ms: 40, error: () => ((fired = true), late) } });
    for await (const chunk of res.body) void chunk;
    await new Promise((r) => setTimeout(r, 80));
    expect(fired).toBe(false);
    await transport.close();
  });
});

describe('the connect bound (--connect-timeout)', () => {
  it('bounds a wait for a pooled socket: all 8 held, the 9th request fails at the bound, as not sent', async () => {
    const transport = nodeTransport();
    // Eight answers whose bodies never end: their sockets stay taken.
    const held = await Promise.all(Array.from({ length: 8 }, () => transport.send({ method: 'GET', origin: base, path: '/stall', headers: {} })));
    const err = await transport.send({ method: 'GET', origin: base, path: '/quick', headers: {}, connectTimeoutMs: 100 }).catch((e: unknown) => e);
    expect(err).toBeInstanceOf(TransportError);
    expect(err).toMatchObject({ code: 'ECONNECT_TIMEOUT', sent: false, message: expect.stringContaining('could not connect to') });
    for (const res of held) res.body.destroy?.();
    await transport.close();
  });

  it('does not bound an answer on a reused keep-alive socket: an answer later than the connect bound still arrives (#37: no connect timer for it)', async () => {
    const transport = nodeTransport();
    const first = await transport.send({ method: 'GET', origin: base, path: '/quick', headers: {}, connectTimeoutMs: 50 });
    for await (const chunk of first.body) void chunk;
    const before = connections;
    const res = await transport.send({ method: 'GET', origin: base, path: '/late', headers: {}, connectTimeoutMs: 50 });
    for await (const chunk of res.body) void chunk;
    expect(res.status).toBe(200);
    expect(connections).toBe(before);
    await transport.close();
  });
});
