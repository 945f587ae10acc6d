// Sandbox-only admin routes under /_sandbox/ (no key; not in the OpenAPI documents).
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ManualClock } from '../clock.js';
import { minimalWorld, startTestSandbox, withKey } from '../../helpers/sandbox.js';
import type { TestSandbox } from '../../helpers/sandbox.js';

const clock = new ManualClock(Date.UTC(2026, 9, 2));
let sb: TestSandbox;
beforeAll(async () => {
  sb = await startTestSandbox({
    clock,
    world: withKey(minimalWorld(), { label: 'gone', key: 'acr_test_gone_0001', state: 'revoked', description: 'revoked' }),
  });
});
afterAll(() => sb.close());

describe('/_sandbox', () => {
  it('GET /_sandbox/health answers with the sandbox clock', async () => {
    const res = await sb.req('GET', '/_sandbox/health');
    expect(res.body).toEqual({ status: 'ok', time: clock.now() });
  });

  it('GET /_sandbox/keys lists every key with what it shows', async () => {
    const res = await sb.req('GET', '/_sandbox/keys');
    expect(res.status).toBe(200);
    expect(res.body.data).toEqual([
      { key: 'acr_test_full_0001', organization: 'org_test', label: 'full', description: 'every permission', state: 'active', permissions: 'all' },
      { key: 'acr_test_gone_0001', organization: 'org_test', label: 'gone', description: 'revoked', state: 'revoked', permissions: 'all' },
    ]);
  });

  it('POST /_sandbox/ingest runs ingestion', async () => {
    const res = await sb.req('POST', '/_sandbox/ingest');
    expect(res.status).toBe(200);
    expect(res.body.ingested).toBe(true);
  });

  it('PUT /_sandbox/faults/{provider}: unknown provider 404, not JSON 400, object accepted', async () => {
    expect((await sb.req('PUT', '/_sandbox/faults/provider_z', { body: {} })).status).toBe(404);
    const bad = await sb.req('PUT', '/_sandbox/faults/provider_a', { rawBody: '{', headers: { 'content-type': 'application/json' } });
    expect(bad.status).toBe(400);
    expect(bad.body.issues).toEqual([{ in: 'body', path: '', message: expect.any(String) }]);
    const ok = await sb.req('PUT', '/_sandbox/faults/provider_a', { body: {} });
    expect(ok.status).toBe(200);
    expect(ok.body.provider).toBe('provider_a');
  });

  it('unknown admin paths are 404 not_found like any other path', async () => {
    const res = await sb.req('GET', '/_sandbox/nothing');
    expect(res.status).toBe(404);
    expect(res.body.error).toBe('not_found');
  });
});
