// Issue 9: requests node's HTTP layer refuses (bad framing, oversized headers,
// slow headers) and bodies that stop coming get the JSON error shape, in bounded
// time. These tests live outside test/sandbox on purpose: what they test is the
// server's own real-time socket timeouts, so they must wait on real time, which
// test/sandbox's rule (no-real-time.test.ts) forbids for lifecycle tests. Small limits here keep the file fast; bodies.test.ts runs the defaults.
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { errorBodySchema } from '../../src/contract/schemas/common.js';
import { DEFAULT_HTTP_LIMITS } from '../../src/sandbox/http/limits.js';
import { rawExchange, startLimited } from './raw-http.js';
import type { LimitedSandbox } from './raw-http.js';

const LIMITS = { headersMs: 300, jsonBodyMs: 300, idleMs: 900 };
/** Room for a loaded two-core machine; without the limits these waits were 60 s to 300 s. */
const SLACK = 4000;

let sb: LimitedSandbox;
const unexpected: unknown[] = [];
beforeAll(async () => {
  sb = await startLimited({ limits: LIMITS, logError: (err) => unexpected.push(err) });
});
afterAll(() => sb.close());
// A refused or abandoned request is an expected answer, never a 500 logged as a bug.
afterEach(async () => {
  await new Promise((r) => setTimeout(r, 50));
  expect(unexpected.splice(0).map(String)).toEqual([]);
});

const json = (status: number, error: string) => (res: { status: number; headers: string; body: unknown }) => {
  expect(res.status, res.headers).toBe(status);
  expect(res.headers).toMatch(/content-type: application\/json/i);
  expect(errorBodySchema.safeParse(res.body).success, JSON.stringify(res.body)).toBe(true);
  expect((res.body as { error: string }).error).toBe(error);
};

describe("requests node's parser refuses", () => {
  it.each([
    ['two different Content-Lengths', 'POST /context/skills HTTP/1.1\r\nHost: x\r\nContent-Length: 5\r\nContent-Length: 6\r\n\r\n'],
    ['a Content-Length that is not a number', 'POST /context/skills HTTP/1.1\r\nHost: x\r\nContent-Length: abc\r\n\r\n'],
    [
      'Content-Length with Transfer-Encoding chunked',
      'POST /context/skills HTTP/1.1\r\nHost: x\r\nContent-Length: 3\r\nTransfer-Encoding: chunked\r\n\r\nzz\r\n',
    ],
    ['a bad chunk size', 'POST /context/skills HTTP/1.1\r\nHost: x\r\nContent-Type: application/json\r\nTransfer-Encoding: chunked\r\n\r\nxyz\r\n'],
    ['a header with no colon', 'GET /context/skills HTTP/1.1\r\nHost: x\r\nnonsense\r\n\r\n'],
    ['a request line that is not HTTP', 'HELLO\r\n\r\n'],
  ])('%s → 400 invalid_request in the JSON shape', async (_label, raw) => {
    const res = await rawExchange(sb.port, [raw]);
    json(400, 'invalid_request')(res);
    expect((res.body as { issues: unknown[] }).issues).toEqual([{ in: 'headers', path: '', message: expect.any(String) }]);
  });

  it('headers past 16 KiB → 431 headers_too_large in the JSON shape', async () => {
    const res = await rawExchange(sb.port, [`GET /context/skills HTTP/1.1\r\nHost: x\r\nX-Big: ${'a'.repeat(20 * 1024)}\r\n\r\n`]);
    json(431, 'headers_too_large')(res);
  });

  it('headers that never complete → 408 request_timeout in the JSON shape, after headersMs', async () => {
    const res = await rawExchange(sb.port, ['GET /context/skills HTTP/1.1\r\nHost: x\r\nX-Slow: '], 10_000);
    json(408, 'request_timeout')(res);
    expect(res.ms).toBeGreaterThanOrEqual(LIMITS.headersMs - 50);
    expect(res.ms).toBeLessThan(LIMITS.headersMs + SLACK);
  });
});

describe('bodies that stop coming', () => {
  it('a JSON body that stalls mid-way → 408 request_timeout after jsonBodyMs, before the key', async () => {
    const res = await rawExchange(
      sb.port,
      ['POST /context/skills HTTP/1.1\r\nHost: x\r\nContent-Type: application/json\r\nContent-Length: 100\r\n\r\n{"name":'],
      10_000,
    );
    json(408, 'request_timeout')(res);
    expect(res.headers).toMatch(/connection: close/i);
    expect(res.ms).toBeLessThan(LIMITS.jsonBodyMs + SLACK);
  });

  it('a JSON body trickled a byte at a time is cut at jsonBodyMs in all, not per byte', async () => {
    const head = 'POST /context/skills HTTP/1.1\r\nHost: x\r\nContent-Type: application/json\r\nContent-Length: 1000\r\n\r\n';
    const res = await rawExchange(sb.port, [head], 10_000, { text: `{"name":"${'x'.repeat(900)}"}`, everyMs: 20 });
    json(408, 'request_timeout')(res);
    expect(res.ms).toBeLessThan(LIMITS.jsonBodyMs + SLACK);
  });

  it('an upload to the storage URL that stalls → 408 after idleMs (uploads keep streaming while bytes move)', async () => {
    const reserved = await sb.req('POST', '/assets/uploads', { key: sb.key, body: { filename: 'a.png' } });
    const url = new URL(reserved.body.uploadUrl);
    const res = await rawExchange(
      sb.port,
      [`PUT ${url.pathname} HTTP/1.1\r\nHost: x\r\nContent-Type: image/png\r\nContent-Length: 100000\r\n\r\n`, Buffer.alloc(1000)],
      10_000,
    );
    json(408, 'request_timeout')(res);
    expect(res.ms).toBeGreaterThanOrEqual(LIMITS.idleMs - 50);
    expect(res.ms).toBeLessThan(LIMITS.idleMs + SLACK);
  });
});

describe('the defaults', () => {
  it('are the documented ones (docs/decisions.md, issue 9)', () => {
    expect(DEFAULT_HTTP_LIMITS).toEqual({
      jsonBodyBytes: 4 * 1024 * 1024,
      jsonBodyMs: 10_000,
      jsonDepth: 64,
      maxIssues: 20,
      headersMs: 10_000,
      idleMs: 30_000,
    });
  });
});
