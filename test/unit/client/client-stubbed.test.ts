// The client over an injected stub transport (test/helpers/http-stub.ts):
// where the key goes, Ctrl-C before sending, throttling waits, key hygiene
// and redaction of the --debug trace.
import { afterEach, describe, expect, it } from 'vitest';
import { ApiError } from '../../../src/client/errors.js';
import { ApiClient, type ClientConfig, type RetryWait } from '../../../src/client/http.js';
import type { RetryDeps } from '../../../src/client/retry.js';
import { InvalidApiKeyError } from '../../../src/config/key.js';
import { HttpStubs, json } from '../../helpers/http-stub.js';

const KEY = 'acr_test_key_abcd';
const BASE = 'https://api.adops.test';
let http: HttpStubs;

/** A fake clock: sleeping advances it, so budgets are exact. */
function fakeTime(slept: number[] = []): RetryDeps {
  let t = 0;
  return { now: () => t, sleep: async (ms) => void (slept.push(ms), (t += ms)), random: () => 0 };
}

function client(over: Partial<ClientConfig> = {}) {
  http = new HttpStubs();
  return new ApiClient({ baseUrl: BASE, apiKey: KEY, userAgent: 'adops/test', deps: fakeTime(), transport: http, ...over });
}

afterEach(() => http?.verify());

const throttled = (provider = 'provider_a') =>
  json(502, {
    error: 'provider_error',
    message: `${provider} throttled the request: its rate limit is used up. Retry in a minute.`,
    provider,
    platformError: { message: 'User request limit reached', code: 17 },
  });

describe('where the key goes', () => {
  it('sends the key to the configured origin only: an absolute URL elsewhere goes without it, whatever the caller passed', async () => {
    const c = client();
    http.on('PUT', '/_storage/uploads/v1.abc.def', json(200, { ok: true }), { origin: 'https://storage.example' });
    http.on('GET', '/observe/campaigns', json(200, { data: [] }), { origin: BASE });
    await c.request({
      method: 'PUT',
      path: '/',
      url: 'https://storage.example/_storage/uploads/v1.abc.def',
      body: () => 'bytes',
      headers: { Authorization: `Bearer ${KEY}`, cookie: 'x' },
    });
    await c.request({ method: 'GET', path: 'https://api.adops.test/observe/campaigns' });
    const [upload, own] = http.requests;
    expect(upload!.headers.authorization).toBeUndefined();
    expect(upload!.headers.cookie).toBeUndefined();
    expect(own!.headers.authorization).toBe(`Bearer ${KEY}`);
  });

  it('refuses plain http to a foreign non-loopback URL before sending', async () => {
    const c = client();
    await expect(c.request({ method: 'PUT', path: '/', url: 'http://storage.example/x', body: () => 'b' })).rejects.toThrow(/plain http/);
    expect(http.requests).toHaveLength(0);
  });
});

describe('Ctrl-C', () => {
  it('an already-aborted signal sends nothing and rejects with its reason', async () => {
    const c = client();
    const ac = new AbortController();
    const reason = new Error('interrupted');
    ac.abort(reason);
    await expect(c.request({ method: 'GET', path: '/observe/campaigns', signal: ac.signal })).rejects.toBe(reason);
    expect(http.requests).toHaveLength(0);
  });
});

describe('throttling', () => {
  it('waits out a per-minute window on provider_error with a rate-limit hint, telling each wait', async () => {
    const slept: number[] = [];
    const waits: RetryWait[] = [];
    const c = client({ deps: fakeTime(slept), onRetryWait: (w) => waits.push(w) });
    for (let i = 0; i < 4; i++) http.on('GET', '/observe/acc_1/campaigns', throttled());
    http.on('GET', '/observe/acc_1/campaigns', json(200, { data: [{ id: '1' }] }));
    const res = await c.request({ method: 'GET', path: '/observe/acc_1/campaigns' });
    expect(res.body).toEqual({ data: [{ id: '1' }] });
    // 5, 10, 20, 30 s: more than a minute in all, and only 4 calls spent against the limit.
    expect(slept).toEqual([5000, 10000, 20000, 30000]);
    expect(slept.reduce((a, b) => a + b)).toBeGreaterThan(60_000);
    expect(waits.map((w) => [w.throttled, w.provider])).toEqual(Array(4).fill([true, 'provider_a']));
  });

  it('honours Retry-After exactly on 429', async () => {
    const slept: number[] = [];
    const c = client({ deps: fakeTime(slept) });
    http.on('GET', '/x', json(429, { error: 'rate_limited', message: 'slow' }, { 'retry-after': '42' }));
    http.on('GET', '/x', json(200, {}));
    await c.request({ method: 'GET', path: '/x' });
    expect(slept).toEqual([42_000]);
  });

  it('gives up within its budget and says how long it tried', async () => {
    const c = client({
      retry: {
        maxAttempts: 4,
        baseDelayMs: 10,
        maxDelayMs: 10,
        budgetMs: 1000,
        throttle: { maxAttempts: 3, baseDelayMs: 5000, maxDelayMs: 30000, budgetMs: 60_000 },
      },
    });
    for (let i = 0; i < 3; i++) http.on('GET', '/x', throttled('provider_b'));
    const err = (await c.request({ method: 'GET', path: '/x' }).catch((e: unknown) => e)) as ApiError;
    expect(err).toBeInstanceOf(ApiError);
    expect(err.retriedFor).toMatchObject({ attempts: 3, throttled: true });
    expect(err.hint).toMatch(/provider_b was still rate limiting after 3 attempts over 15 s/);
  });

  it('an ordinary provider_error keeps the short backoff', async () => {
    const slept: number[] = [];
    const c = client({ deps: fakeTime(slept) });
    for (let i = 0; i < 4; i++)
      http.on(
        'GET',
        '/x',
        json(502, { error: 'provider_error', message: 'down', provider: 'provider_a', platformError: { code: 2, message: 'Service temporarily unavailable' } }),
      );
    await expect(c.request({ method: 'GET', path: '/x' })).rejects.toBeInstanceOf(ApiError);
    expect(slept.every((ms) => ms < 1000)).toBe(true);
  });
});

describe('key hygiene', () => {
  it('trims a trailing CR/LF from the key (a CRLF key file) instead of failing as a network error', async () => {
    const c = client({ apiKey: `${KEY}\r\n` });
    http.on('GET', '/x', json(200, {}));
    await c.request({ method: 'GET', path: '/x' });
    expect(http.requests[0]!.headers.authorization).toBe(`Bearer ${KEY}`);
  });

  it('refuses a key with a control character inside, before any request', () => {
    expect(() => client({ apiKey: 'acr_abc\rdef' })).toThrow(InvalidApiKeyError);
    expect(http.requests).toHaveLength(0);
  });
});

describe('--debug trace', () => {
  it('masks a key holding ".", "+" or "/" whole, even when the service echoes it', async () => {
    const odd = 'acr_live.9xQ+Zk/Rt7Lm.Wq2Pz';
    const lines: string[] = [];
    const c = client({ apiKey: odd, trace: (l) => lines.push(l) });
    http.on('GET', '/x', json(401, { error: 'unauthorized', message: `key ${odd} is revoked` }));
    const err = (await c.request({ method: 'GET', path: '/x' }).catch((e: unknown) => e)) as ApiError;
    const { redactText } = await import('../../../src/client/redact.js');
    const shown = lines.join('\n') + redactText(err.message);
    expect(shown).not.toContain('9xQ');
    expect(shown).not.toContain('Rt7Lm');
    expect(redactText(err.message)).toBe('key acr_…q2Pz is revoked');
  });

  it('redacts upload tokens in the path and in query parameters', async () => {
    const lines: string[] = [];
    const c = client({ trace: (l) => lines.push(l) });
    const token = 'v1.eyJ1IjoidXBsXzEiLCJlIjoxfQ.c2lnbmF0dXJlLXNpZ25hdHVyZQ';
    http.on('PUT', `/_storage/uploads/${token}`, json(200, {}));
    http.on('PUT', '/bucket/obj', json(200, {}));
    await c.request({ method: 'PUT', path: '/', url: `http://127.0.0.1:9/_storage/uploads/${token}`, body: () => 'x' });
    await c.request({ method: 'PUT', path: '/', url: 'https://s3.example/bucket/obj?X-Amz-Signature=deadbeef&token=t0k3n&expires=9', body: () => 'x' });
    const text = lines.join('\n');
    expect(text).not.toContain('eyJ1Ijoi');
    expect(text).not.toContain('deadbeef');
    expect(text).not.toContain('t0k3n');
    expect(text).toContain('/_storage/uploads/REDACTED');
    expect(text).toContain('expires=9');
  });
});

describe('streamed bodies', () => {
  it('reports progress and sends Content-Length when known', async () => {
    const c = client();
    const progress: Array<[number, number | undefined]> = [];
    http.on('PUT', '/up', json(200, {}));
    const { Readable } = await import('node:stream');
    await c.request({
      method: 'PUT',
      path: '/up',
      body: () => Readable.from([Buffer.alloc(3), Buffer.alloc(4)]),
      contentLength: 7,
      onProgress: (n, t) => progress.push([n, t]),
    });
    expect(http.requests[0]!.headers['content-length']).toBe('7');
    expect(progress).toEqual([
      [3, 7],
      [7, 7],
    ]);
  });
});
