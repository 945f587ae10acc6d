// `--as-of`: the service as it was before 2026-09-24, on raw HTTP. These
// answers are outside today's published OpenAPI documents by design, so they
// go through fetch, not the helper's request() (whose answers are judged
// against those documents).
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { servesOldBehaviour } from '../../../src/sandbox/http/generation.js';
import { startTestSandbox, TEST_FULL_KEY, type TestSandbox } from '../../helpers/sandbox.js';

let old: TestSandbox;
let today: TestSandbox;
let later: TestSandbox;

async function send(sb: TestSandbox, method: string, path: string, opts: { key?: boolean; body?: unknown } = {}) {
  const headers: Record<string, string> = {};
  if (opts.key) headers.authorization = `Bearer ${TEST_FULL_KEY}`;
  if (opts.body !== undefined) headers['content-type'] = 'application/json';
  const res = await fetch(sb.url + path, { method, headers, ...(opts.body !== undefined ? { body: JSON.stringify(opts.body) } : {}) });
  const text = await res.text();
  return { status: res.status, type: res.headers.get('content-type') ?? '', text, json: () => JSON.parse(text) as Record<string, unknown> };
}

beforeAll(async () => {
  [old, today, later] = await Promise.all([startTestSandbox({ asOf: '2026-09-23' }), startTestSandbox(), startTestSandbox({ asOf: '2026-09-24' })]);
});
afterAll(async () => {
  await Promise.all([old?.close(), today?.close(), later?.close()]);
});

describe('--as-of 2026-09-23: the behaviour before 2026-09-24', () => {
  it('a schema mismatch answers 422 with a framework-shaped body: type validation, no error field', async () => {
    for (const [method, path, body] of [
      ['GET', '/observe/campaigns?limit=9999', undefined],
      ['POST', '/context/brands', { name: 'no slug' }],
      ['POST', '/mutations', { nonsense: true }],
      ['GET', '/assets?limit=0', undefined],
    ] as const) {
      const r = await send(old, method, path, { key: true, ...(body ? { body } : {}) });
      expect(r.status, path).toBe(422);
      const b = r.json();
      expect(b.type, path).toBe('validation');
      expect(b, path).not.toHaveProperty('error');
      expect(Array.isArray(b.errors), path).toBe(true);
      // Today: 400 invalid_request.
      const now = await send(today, method, path, { key: true, ...(body ? { body } : {}) });
      expect([now.status, now.json().error], path).toEqual([400, 'invalid_request']);
    }
  });

  it('a nonexistent path answers plain text NOT_FOUND with status 404', async () => {
    for (const path of ['/nope', '/observe/nope/nope/nope', '/openapi/nope.json']) {
      const r = await send(old, 'GET', path);
      expect([r.status, r.text], path).toEqual([404, 'NOT_FOUND']);
      expect(r.type, path).toMatch(/^text\/plain/);
      const now = await send(today, 'GET', path);
      expect([now.status, now.json().error], path).toEqual([404, 'not_found']);
    }
  });

  it('in Observe, Context and Assets the schema is checked before the key; Mutations keeps the key first', async () => {
    for (const [method, path, body] of [
      ['GET', '/observe/campaigns?limit=0', undefined],
      ['GET', '/observe/acc_x/campaigns?status=NOPE', undefined],
      ['POST', '/context/skills', { slug: 5 }],
      ['GET', '/context/brands?limit=abc', undefined],
      ['PATCH', '/assets/ast_1', { filename: 5 }],
    ] as const) {
      const r = await send(old, method, path, body ? { body } : {});
      expect(r.status, `${method} ${path}`).toBe(422);
      expect((await send(today, method, path, body ? { body } : {})).status, `${method} ${path} today`).toBe(401);
    }
    const mutation = await send(old, 'POST', '/mutations', { body: { nonsense: true } });
    expect([mutation.status, mutation.json().error]).toEqual([401, 'unauthorized']);
    // A right-shaped request without a key is still 401 in every API.
    expect((await send(old, 'GET', '/observe/campaigns?limit=5')).status).toBe(401);
  });

  it('answers like today otherwise, and from 2026-09-24 on is today exactly', async () => {
    const ok = await send(old, 'GET', '/observe/campaigns?limit=5', { key: true });
    expect(ok.status).toBe(200);
    expect((await send(later, 'GET', '/observe/campaigns?limit=9999', { key: true })).status).toBe(400);
    expect((await send(later, 'GET', '/nope')).json().error).toBe('not_found');
    expect(servesOldBehaviour('2020-01-01')).toBe(true);
    expect(servesOldBehaviour('2026-09-24')).toBe(false);
    expect(() => servesOldBehaviour('2026-02-30')).toThrow(/calendar date/);
  });
});

describe('a kept stored page (routes/observe.ts, storedReadShortcut)', () => {
  it('is not answered ahead of the app once the sandbox serves the old behaviour: the schema comes before the key again', async () => {
    const path = '/observe/campaigns?limit=5';
    await send(today, 'GET', path, { key: true });
    const kept = await send(today, 'GET', path, { key: true });
    today.services.settings.before20260924 = true;
    try {
      expect((await send(today, 'GET', path, { key: true })).text).toBe(kept.text);
      const bad = await send(today, 'GET', '/observe/campaigns?limit=0');
      expect([bad.status, bad.json().type]).toEqual([422, 'validation']);
    } finally {
      today.services.settings.before20260924 = false;
    }
    expect((await send(today, 'GET', '/observe/campaigns?limit=0')).status).toBe(401);
  });
});
