// Spec: Authentication (failure table) and Errors → Order of checks, over real HTTP.
// Probe operations (test/sandbox/platform/probe-routes.ts) carry real operation
// ids, so their permission and middleware are exactly those of the real routes.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ManualClock } from '../clock.js';
import { minimalWorld, startTestSandbox, withKey, withMember, withOrganization } from '../../helpers/sandbox.js';
import type { TestSandbox } from '../../helpers/sandbox.js';
import { registerProbeRoutes } from './probe-routes.js';

const NOW = Date.UTC(2026, 9, 1);
const clock = new ManualClock(NOW);

function authWorld() {
  let w = minimalWorld();
  w = withMember(w, { id: 'mem_analyst' });
  w = withMember(w, { id: 'mem_left', state: 'left' });
  w = withMember(w, { id: 'mem_deleted', state: 'deleted' });
  w = withKey(w, { label: 'observe-only', key: 'acr_test_observe_only_0001', member: 'mem_analyst', permissions: ['observe:read'] });
  w = withKey(w, { label: 'revoked', key: 'acr_test_revoked_0001', state: 'revoked' });
  w = withKey(w, { label: 'expired', key: 'acr_test_expired_0001', state: 'expired' });
  w = withKey(w, { label: 'expiring', key: 'acr_test_expiring_0001', expiresAt: NOW + 60_000 });
  w = withKey(w, { label: 'left', key: 'acr_test_left_0001', member: 'mem_left' });
  w = withKey(w, { label: 'deleted', key: 'acr_test_deleted_0001', member: 'mem_deleted' });
  w = withOrganization(w, 'org_unsub', { subscription: false, paywallUrl: 'https://console.adops.example/pay/unsub' });
  w = withMember(w, { id: 'mem_unsub_left', organization: 'org_unsub', state: 'left' });
  w = withMember(w, { id: 'mem_unsub_deleted', organization: 'org_unsub', state: 'deleted' });
  w = withKey(w, { label: 'unsub-left', key: 'acr_test_unsub_left_0001', member: 'mem_unsub_left' });
  w = withKey(w, { label: 'unsub-deleted', key: 'acr_test_unsub_deleted_0001', member: 'mem_unsub_deleted' });
  w = withKey(w, { label: 'unsub-revoked', key: 'acr_test_unsub_revoked_0001', member: 'mem_org_unsub_owner', state: 'revoked' });
  return w;
}

let sb: TestSandbox;
beforeAll(async () => {
  sb = await startTestSandbox({ world: authWorld(), clock, extraRoutes: registerProbeRoutes });
});
afterAll(() => sb.close());

const CREATE = '/_probe/context/skills'; // createSkill, needs skill:write
const GOOD = { name: 'ok' };
const BAD = { name: 42 }; // wrong shape: 400 only once the key passed

const post = (opts: { key?: string; auth?: string; body?: unknown; raw?: string }) =>
  sb.req('POST', CREATE, {
    ...(opts.key ? { key: opts.key } : {}),
    ...(opts.raw !== undefined ? { rawBody: opts.raw } : { body: opts.body ?? GOOD }),
    headers: { 'content-type': 'application/json', ...(opts.auth !== undefined ? { authorization: opts.auth } : {}) },
  });

describe('authentication failure table', () => {
  const cases: Array<[string, () => Promise<{ status: number; body: any }>, number, string]> = [
    ['no key', () => post({}), 401, 'unauthorized'],
    ['key of unknown value', () => post({ key: 'acr_never_issued_0001' }), 401, 'unauthorized'],
    ['revoked key', () => post({ key: 'acr_test_revoked_0001' }), 401, 'unauthorized'],
    ['expired key', () => post({ key: 'acr_test_expired_0001' }), 401, 'unauthorized'],
    ['key whose creator deleted their account', () => post({ key: 'acr_test_deleted_0001' }), 401, 'unauthorized'],
    ['organization without subscription', () => post({ key: 'acr_test_org_unsub_0001' }), 402, 'organization_unentitled'],
    ['key lacking the permission', () => post({ key: 'acr_test_observe_only_0001' }), 403, 'forbidden'],
    ['key whose creator left the organization', () => post({ key: 'acr_test_left_0001' }), 403, 'forbidden'],
    ['scheme other than Bearer', () => post({ auth: 'Basic YWNyX3Rlc3Q6eA==' }), 401, 'unauthorized'],
    ['Bearer with a key not starting acr_', () => post({ auth: 'Bearer sk_test_0001' }), 401, 'unauthorized'],
    ['Bearer with nothing after it', () => post({ auth: 'Bearer ' }), 401, 'unauthorized'],
    ['the key without a scheme', () => post({ auth: 'acr_test_full_0001' }), 401, 'unauthorized'],
  ];
  it.each(cases)('%s → %i %s', async (_name, send, status, code) => {
    const res = await send();
    expect(res.status).toBe(status);
    expect(res.body.error).toBe(code);
    expect(typeof res.body.message).toBe('string');
    expect(JSON.stringify(res.body)).not.toContain('acr_test_');
  });

  it('402 carries the organization paywallUrl', async () => {
    const res = await post({ key: 'acr_test_org_unsub_0001' });
    expect(res.body).toEqual({ error: 'organization_unentitled', message: expect.any(String), paywallUrl: 'https://console.adops.example/pay/unsub' });
  });

  it('a full key passes, with "bearer" in any case', async () => {
    expect((await post({ key: sb.keys.full })).status).toBe(201);
    expect((await post({ auth: `bearer ${sb.keys.full}` })).status).toBe(201);
    expect((await post({ auth: `BEARER ${sb.keys.full}` })).status).toBe(201);
  });

  it('a permission subset allows what it lists: observe:read reads observe, nothing else', async () => {
    const key = 'acr_test_observe_only_0001';
    expect((await sb.req('GET', '/_probe/observe/campaigns', { key })).status).toBe(200);
    expect((await sb.req('GET', '/_probe/context/skills/x', { key })).status).toBe(403);
  });

  it('a key with expiresAt works until then and answers 401 from then on (injected clock)', async () => {
    const key = 'acr_test_expiring_0001';
    expect((await post({ key })).status).toBe(201);
    clock.advance(60_000);
    try {
      const res = await post({ key });
      expect(res.status).toBe(401);
      expect(res.body.error).toBe('unauthorized');
    } finally {
      clock.set(NOW);
    }
  });

  it('auth.orgId comes from the key, never from the request', async () => {
    const res = await sb.req('GET', '/_probe/context/skills/abc', { key: 'acr_test_org_unsub_0001' });
    expect(res.status).toBe(402);
    const own = await sb.req('GET', '/_probe/context/skills/abc', { key: sb.keys.full, query: { org: 'org_unsub' } });
    expect(own.body).toEqual({ slug: 'abc', org: 'org_test' });
  });
});

describe('order of checks: key → subscription → permission → schema', () => {
  it('no key + bad body → 401', async () => {
    expect((await post({ body: BAD })).status).toBe(401);
  });
  it('no subscription + bad body → 402', async () => {
    expect((await post({ key: 'acr_test_org_unsub_0001', body: BAD })).status).toBe(402);
  });
  it('missing permission + bad body → 403', async () => {
    expect((await post({ key: 'acr_test_observe_only_0001', body: BAD })).status).toBe(403);
  });
  it('creator left + bad body → 403', async () => {
    expect((await post({ key: 'acr_test_left_0001', body: BAD })).status).toBe(403);
  });
  it('good key + bad body → 400 invalid_request', async () => {
    const res = await post({ key: sb.keys.full, body: BAD });
    expect(res.status).toBe(400);
    expect(res.body.error).toBe('invalid_request');
  });
  it('revoked key in an unsubscribed organization → 401 (key before subscription)', async () => {
    expect((await post({ key: 'acr_test_unsub_revoked_0001' })).status).toBe(401);
  });
  it('deleted creator in an unsubscribed organization → 401', async () => {
    expect((await post({ key: 'acr_test_unsub_deleted_0001' })).status).toBe(401);
  });
  it('creator left in an unsubscribed organization → 402 (subscription before permission)', async () => {
    expect((await post({ key: 'acr_test_unsub_left_0001' })).status).toBe(402);
  });
  it('no key + bad query → 401; missing permission + bad path param → 403', async () => {
    expect((await sb.req('GET', '/_probe/observe/campaigns', { query: { limit: 9999 } })).status).toBe(401);
    expect((await sb.req('GET', '/_probe/context/skills/NOT_A_SLUG', { key: 'acr_test_observe_only_0001' })).status).toBe(403);
  });
  it('no key + wrong Content-Type → 401 (the content type is part of the schema)', async () => {
    const res = await sb.req('POST', CREATE, { rawBody: '{"name":"x"}', headers: { 'content-type': 'text/plain' } });
    expect(res.status).toBe(401);
  });

  describe('exception: a body that is not valid JSON answers 400 before the key', () => {
    const notJson = ['{', '{"name": "x",}', "{'name': 'x'}", 'name=x', '\u0000'];
    it.each(notJson)('no key + body %j → 400', async (raw) => {
      const res = await post({ raw });
      expect(res.status).toBe(400);
      expect(res.body).toEqual({
        error: 'invalid_request',
        message: expect.any(String),
        issues: [{ in: 'body', path: '', message: expect.any(String) }],
      });
    });
    it('unsubscribed / lacking permission / revoked + not JSON → 400', async () => {
      for (const key of ['acr_test_org_unsub_0001', 'acr_test_observe_only_0001', 'acr_test_revoked_0001']) {
        expect((await post({ key, raw: '{oops' })).status).toBe(400);
      }
    });
  });
});
