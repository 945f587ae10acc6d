// The client against a real loopback server (no mocks): retries, lost answers,
// redirects, timeouts, unknown fields, and where the key goes.
import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { Readable } from 'node:stream';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ApiError, NetworkError } from '../../../src/client/errors.js';
import { ApiClient, closeAllPools } from '../../../src/client/http.js';
import type { RetryDeps } from '../../../src/client/retry.js';

const KEY = 'acr_test_key_abcd';
type Handler = (req: IncomingMessage, res: ServerResponse, hit: number) => void;

let server: Server;
let other: Server;
let base: string;
let otherBase: string;
const hits = new Map<string, number>();
const seenAuth: Array<string | undefined> = [];
let otherHits = 0;
let lastBody = '';

const routes: Record<string, Handler> = {
  '/flaky': (_q, res, hit) =>
    hit < 3 ? json(res, 503, { error: 'unavailable', message: 'busy' }) : json(res, 200, { data: [{ id: '1', novel: { deep: true } }], unknownTop: 'kept' }),
  '/rate': (_q, res, hit) =>
    hit === 1 ? (res.setHeader('retry-after', '7'), json(res, 429, { error: 'rate_limited', message: 'slow down' })) : json(res, 200, { ok: true }),
  '/provider': (_q, res) => json(res, 502, { error: 'provider_error', message: 'provider down', provider: 'provider_a', platformError: { code: 2 } }),
  '/lost': (req, res, hit) => (hit === 1 ? req.socket.destroy() : json(res, 200, { ok: hit })),
  '/invalid': (_q, res) => json(res, 400, { error: 'invalid_request', message: 'bad', issues: [{ in: 'query', path: '/limit', message: 'too big' }] }),
  '/redirect': (_q, res) => {
    res.writeHead(302, { location: `${otherBase}/steal` });
    res.end();
  },
  '/hang': () => {},
  '/echo': (req, res) => json(res, 200, { ua: req.headers['user-agent'], url: req.url }),
  '/upload': (_q, res, hit) => (hit === 1 ? json(res, 503, { error: 'unavailable', message: 'busy' }) : json(res, 200, { got: lastBody })),
};

function json(res: ServerResponse, status: number, body: unknown) {
  res.writeHead(status, { 'content-type': 'application/json' });
  res.end(JSON.stringify(body));
}

const noSleep = (slept: number[] = []): RetryDeps => ({ now: () => Date.now(), sleep: async (ms) => void slept.push(ms), random: () => 0 });

function client(over: Partial<ConstructorParameters<typeof ApiClient>[0]> = {}) {
  return new ApiClient({
    baseUrl: base,
    apiKey: KEY,
    userAgent: 'adops/9.9.9 (node test; linux)',
    deps: noSleep(),
    retry: { maxAttempts: 4, baseDelayMs: 10, maxDelayMs: 50, budgetMs: 5_000 },
    ...over,
  });
}

beforeAll(async () => {
  server = createServer((req, res) => {
    seenAuth.push(req.headers.authorization);
    const key = `${req.method} ${req.url!.split('?')[0]}`;
    const hit = (hits.get(key) ?? 0) + 1;
    hits.set(key, hit);
    let body = '';
    req.on('data', (c) => (body += c));
    req.on('end', () => (lastBody = body));
    req.on('end', () => (routes[req.url!.split('?')[0]!] ?? ((_q, r) => json(r, 404, { error: 'not_found', message: 'no' })))(req, res, hit));
  });
  other = createServer((req, res) => {
    otherHits++;
    seenAuth.push(`OTHER:${req.headers.authorization ?? ''}`);
    res.end('x');
  });
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
  await new Promise<void>((r) => other.listen(0, '127.0.0.1', r));
  base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  otherBase = `http://127.0.0.1:${(other.address() as AddressInfo).port}`;
});

afterAll(async () => {
  await closeAllPools();
  server.closeAllConnections();
  other.closeAllConnections();
  await new Promise((r) => server.close(r));
  await new Promise((r) => other.close(r));
});

describe('ApiClient', () => {
  it('retries 503 and passes the body through untouched, unknown fields kept', async () => {
    const res = await client().request({ method: 'GET', path: '/flaky' });
    expect(res.attempts).toBe(3);
    expect(res.body).toEqual({ data: [{ id: '1', novel: { deep: true } }], unknownTop: 'kept' });
  });

  it('honours Retry-After (never sooner) even for POST', async () => {
    const slept: number[] = [];
    const res = await client({ deps: noSleep(slept) }).request({ method: 'POST', path: '/rate', json: {} });
    expect(res.status).toBe(200);
    expect(slept).toEqual([7000]);
  });

  it('gives up on 502 provider_error after maxAttempts with a typed error', async () => {
    const err = await client()
      .request({ method: 'GET', path: '/provider' })
      .catch((e: unknown) => e);
    expect(err).toBeInstanceOf(ApiError);
    expect(err).toMatchObject({ status: 502, code: 'provider_error', retryable: true, extra: { provider: 'provider_a', platformError: { code: 2 } } });
    expect(hits.get('GET /provider')).toBe(4);
  });

  it('retries a GET whose answer was lost, but never a POST', async () => {
    const ok = await client().request({ method: 'GET', path: '/lost' });
    expect(ok.body).toEqual({ ok: 2 });
    hits.delete('POST /lost');
    const err = await client()
      .request({ method: 'POST', path: '/lost', json: { a: 1 } })
      .catch((e: unknown) => e);
    expect(err).toBeInstanceOf(NetworkError);
    expect((err as NetworkError).sent).toBe(true);
    expect(hits.get('POST /lost')).toBe(1);
  });

  it('retries a POST that could not connect (nothing was sent)', async () => {
    const lines: string[] = [];
    const closed = createServer();
    await new Promise<void>((r) => closed.listen(0, '127.0.0.1', r));
    const port = (closed.address() as AddressInfo).port;
    await new Promise((r) => closed.close(r));
    const err = await client({ baseUrl: `http://127.0.0.1:${port}`, trace: (l) => lines.push(l) })
      .request({ method: 'POST', path: '/x', json: {} })
      .catch((e: unknown) => e);
    expect(err).toBeInstanceOf(NetworkError);
    expect(err).toMatchObject({ kind: 'connect', sent: false, attempts: 4 });
    expect(lines.filter((l) => l.includes('retry')).length).toBe(3);
  });

  it('does not follow a redirect to another origin, and the key never goes there', async () => {
    const err = await client()
      .request({ method: 'GET', path: '/redirect' })
      .catch((e: unknown) => e);
    expect(err).toBeInstanceOf(ApiError);
    expect((err as ApiError).code).toBe('redirect_refused');
    expect(otherHits).toBe(0);
    expect(seenAuth.some((a) => a?.startsWith('OTHER:'))).toBe(false);
  });

  it('times out an attempt and reports it', async () => {
    const err = await client({ requestTimeoutMs: 150, retry: { maxAttempts: 1, baseDelayMs: 1, maxDelayMs: 1, budgetMs: 5000 } })
      .request({ method: 'GET', path: '/hang' })
      .catch((e: unknown) => e);
    expect(err).toBeInstanceOf(NetworkError);
    expect((err as NetworkError).kind).toBe('timeout');
  });

  it('sends a User-Agent naming adops and its version, and the key as a Bearer header', async () => {
    const res = await client().request<{ ua: string }>({ method: 'GET', path: '/echo' });
    expect(res.body.ua).toMatch(/^adops\/9\.9\.9 /);
    expect(seenAuth).toContain(`Bearer ${KEY}`);
  });

  it('re-opens a streamed body from its source on each attempt', async () => {
    let opened = 0;
    const res = await client().request<{ got: string }>({
      method: 'PUT',
      path: '/upload',
      contentType: 'application/octet-stream',
      body: () => {
        opened++;
        return Readable.from([Buffer.from('chunk-1;'), Buffer.from('chunk-2')]);
      },
    });
    expect(opened).toBe(2);
    expect(res.body.got).toBe('chunk-1;chunk-2');
  });

  it('maps a 400 with issues', async () => {
    const err = (await client()
      .request({ method: 'GET', path: '/invalid' })
      .catch((e: unknown) => e)) as ApiError;
    expect(err.issues).toEqual([{ in: 'query', path: '/limit', message: 'too big' }]);
    expect(err.retryable).toBe(false);
  });

  it('refuses plain http to a non-loopback host before sending anything', () => {
    expect(() => new ApiClient({ baseUrl: 'http://api.example.com', apiKey: KEY, userAgent: 'x' })).toThrow(/plain http/);
  });

  it('traces with the key redacted', async () => {
    const lines: string[] = [];
    await client({ trace: (l) => lines.push(l) }).request({ method: 'GET', path: '/echo' });
    const text = lines.join('\n');
    expect(text).toContain('Bearer REDACTED');
    expect(text).not.toContain(KEY);
    expect(text).toMatch(/← 200 GET .*\/echo \d+ ms/);
  });
});
