// Spec: Errors → Shape, 400 versus the rest, unknown paths; issues as JSON Pointers that never echo input.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { errorBodySchema } from '../../../src/contract/schemas/common.js';
import { NO_OPERATION_MESSAGE } from '../../../src/sandbox/app.js';
import { jsonPointer } from '../../../src/sandbox/models/issues.js';
import { startTestSandbox } from '../../helpers/sandbox.js';
import type { TestSandbox } from '../../helpers/sandbox.js';
import { registerProbeRoutes } from './probe-routes.js';

let sb: TestSandbox;
const logged: unknown[] = [];
beforeAll(async () => {
  sb = await startTestSandbox({ extraRoutes: registerProbeRoutes, logError: (err) => logged.push(err) });
});
afterAll(() => sb.close());

const CREATE = '/_probe/context/skills';

describe('unknown paths and methods', () => {
  it.each([
    ['GET', '/nothing-here'],
    ['GET', '/observe/campaigns/extra/segments/that/no/route/has'],
    ['DELETE', '/'],
    ['PUT', '/_probe/context/skills'],
    ['PATCH', '/openapi.json'],
    ['GET', '/openapi/unknown.json'],
  ])('%s %s → 404 not_found, no key needed, a message that repeats nothing sent', async (method, path) => {
    const res = await sb.req(method, path);
    expect(res.status).toBe(404);
    expect(res.headers.get('content-type')).toMatch(/application\/json/);
    expect(res.body).toEqual({ error: 'not_found', message: NO_OPERATION_MESSAGE });
    if (path.length > 1) expect(res.text).not.toContain(path);
  });

  it("the message tells an unknown path apart from a missing thing's 404", async () => {
    const missing = await sb.req('GET', '/context/skills/no-such-skill', { key: sb.keys.full });
    expect(missing.status).toBe(404);
    expect(missing.body.message).not.toBe(NO_OPERATION_MESSAGE);
  });

  it('answers JSON, not the old plain-text NOT_FOUND (behaviour after 2026-09-24)', async () => {
    const res = await sb.req('GET', '/nope');
    expect(res.text).not.toBe('NOT_FOUND');
    expect(errorBodySchema.safeParse(res.body).success).toBe(true);
  });
});

describe('invalid_request issues', () => {
  const key = () => sb.keys.full;

  it('one issue per non-matching field, JSON Pointer paths, 400 not 422', async () => {
    const res = await sb.req('POST', CREATE, { key: key(), body: { name: '', count: 'three', tags: ['a', 7], sneaky: true } });
    expect(res.status).toBe(400);
    expect(res.body.error).toBe('invalid_request');
    const paths = res.body.issues.map((i: { path: string }) => i.path).sort();
    expect(paths).toEqual(['/count', '/name', '/sneaky', '/tags/1'].sort());
    for (const issue of res.body.issues) expect(issue.in).toBe('body');
    expect(Object.keys(res.body).sort()).toEqual(['error', 'issues', 'message']);
  });

  it('a missing required field is reported as required', async () => {
    const res = await sb.req('POST', CREATE, { key: key(), body: {} });
    expect(res.body.issues).toEqual([{ in: 'body', path: '/name', message: 'is required' }]);
  });

  it('a body of the wrong JSON type is an issue at the whole body (path "")', async () => {
    for (const body of [[1, 2], 'text', 12, null]) {
      const res = await sb.req('POST', CREATE, { key: key(), body });
      expect(res.status).toBe(400);
      expect(res.body.issues).toEqual([{ in: 'body', path: '', message: expect.any(String) }]);
    }
  });

  it('never repeats what was sent', async () => {
    const secret = 'SENT-VALUE-\u00e9\u4e2d-<script>';
    const res = await sb.req('POST', CREATE, { key: key(), body: { name: secret.repeat(10), count: secret, tags: [secret, { x: secret }] } });
    expect(res.status).toBe(400);
    expect(res.text).not.toContain('SENT-VALUE');
    const q = await sb.req('GET', '/_probe/observe/campaigns', { key: key(), query: { limit: 'SENT-VALUE', provider: 'SENT-VALUE' } });
    expect(q.status).toBe(400);
    expect(q.text).not.toContain('SENT-VALUE');
    expect(q.body.issues.map((i: { in: string; path: string }) => `${i.in}${i.path}`).sort()).toEqual(['query/limit', 'query/provider']);
  });

  it('an enum failure lists the allowed values (ours, not the input)', async () => {
    const res = await sb.req('GET', '/_probe/observe/campaigns', { key: key(), query: { provider: 'provider_z' } });
    expect(res.body.issues[0].message).toContain('provider_a');
  });

  it('limit: 1..500, default 100; 0, 501, 1.5, -1, " 5", "1e2" are 400 in query /limit', async () => {
    for (const limit of ['0', '501', '1.5', '-1', ' 5', '1e2', '', 'ten']) {
      const res = await sb.req('GET', '/_probe/observe/campaigns', { key: key(), query: { limit } });
      expect(res.status, `limit=${JSON.stringify(limit)}`).toBe(400);
      expect(res.body.issues).toEqual([{ in: 'query', path: '/limit', message: expect.any(String) }]);
    }
    for (const limit of ['1', '500', '100']) {
      expect((await sb.req('GET', '/_probe/observe/campaigns', { key: key(), query: { limit } })).status).toBe(200);
    }
  });

  it('a path parameter failure is in params', async () => {
    const res = await sb.req('GET', '/_probe/context/skills/Upper_Case', { key: key() });
    expect(res.status).toBe(400);
    // The schema author's own wording is kept (it never quotes input).
    expect(res.body.issues).toEqual([{ in: 'params', path: '/slug', message: 'must be lowercase letters, digits and hyphens' }]);
    // zod's default wording is replaced by ours (zod's would quote the pattern's internals).
    const noMessage = await sb.req('GET', '/_probe/observe/acc_1/campaigns/abc', { key: key() });
    expect(noMessage.body.issues).toEqual([{ in: 'params', path: '/id', message: 'does not have the expected format' }]);
  });

  it('a body with a missing or non-JSON Content-Type → 400 in headers /content-type', async () => {
    for (const headers of [{ 'content-type': 'text/plain' }, { 'content-type': 'application/x-www-form-urlencoded' }, {} as Record<string, string>]) {
      const res = await sb.req('POST', CREATE, { key: key(), rawBody: '{"name":"x"}', headers });
      expect(res.status).toBe(400);
      expect(res.body.issues).toEqual([{ in: 'headers', path: '/content-type', message: expect.any(String) }]);
    }
  });

  it('a JSON content type with parameters is JSON', async () => {
    const res = await sb.req('POST', CREATE, { key: key(), rawBody: '{"name":"x"}', headers: { 'content-type': 'application/json; charset=utf-8' } });
    expect(res.status).toBe(201);
  });

  it('an empty body where one is required → 400 at the whole body', async () => {
    const res = await sb.req('POST', CREATE, { key: key(), rawBody: '', headers: { 'content-type': 'application/json' } });
    expect(res.status).toBe(400);
    expect(res.body.issues).toEqual([{ in: 'body', path: '', message: expect.any(String) }]);
  });

  it('prototype-pollution keys are refused as fields and pollute nothing', async () => {
    const res = await sb.req('POST', CREATE, {
      key: key(),
      rawBody: '{"name":"x","__proto__":{"polluted":true},"constructor":{"prototype":{"polluted":true}}}',
      headers: { 'content-type': 'application/json' },
    });
    expect(res.status).toBe(400);
    expect(({} as Record<string, unknown>).polluted).toBeUndefined();
  });
});

describe('unexpected failures', () => {
  it('answer 500 internal in the error shape, report the error, and leak no detail', async () => {
    const res = await sb.req('DELETE', '/_probe/context/skills/x', { key: sb.keys.full });
    expect(res.status).toBe(500);
    expect(res.body).toEqual({ error: 'internal', message: expect.any(String) });
    expect(res.text).not.toContain('secret internal detail');
    expect(logged).toHaveLength(1);
    expect(String(logged[0])).toContain('secret internal detail');
  });
});

describe('malformed URLs', () => {
  it.each([
    '/_probe/observe/campaigns?limit=%zz',
    '/_probe/observe/campaigns?%%%=1&cursor=%E0%A4%A',
    '/_probe/observe/campaigns?limit=1&limit=2',
    '/_probe/context/skills/%E0%A4%A',
    '/_probe/context/skills/%2F..%2F',
    '/_probe/context/skills/a%00b',
    '/observe/%zz/campaigns',
  ])('%s → a 4xx in the error shape, never 5xx', async (path) => {
    const res = await sb.req('GET', path, { key: sb.keys.full });
    expect(res.status).toBeGreaterThanOrEqual(400);
    expect(res.status).toBeLessThan(500);
    expect(errorBodySchema.safeParse(res.body).success).toBe(true);
  });
});

describe('JSON Pointer', () => {
  it('escapes ~ and / (RFC 6901); the whole part is ""', () => {
    expect(jsonPointer([])).toBe('');
    expect(jsonPointer(['a/b', 'm~n', 0])).toBe('/a~1b/m~0n/0');
  });
});

describe('failures render as {error, message, ...added}', () => {
  it('every failure above matched the common error schema', async () => {
    for (const [method, path] of [
      ['GET', '/x'],
      ['POST', CREATE],
    ] as const) {
      const res = await sb.req(method, path);
      expect(errorBodySchema.safeParse(res.body).success).toBe(true);
      expect(Object.keys(res.body).slice(0, 2)).toEqual(['error', 'message']);
    }
  });
});
