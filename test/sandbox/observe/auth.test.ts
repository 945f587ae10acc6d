// Observe under the spec's order of checks: key (401), subscription (402),
// permission (403), then the request schema — and the provider is never asked
// before all of them pass.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { providerCallCount } from '../../../src/sandbox/providers/faults.js';
import { startTestSandbox, withAdvertiser, withKey, withOrganization } from '../../helpers/sandbox.js';
import type { TestSandbox } from '../../helpers/sandbox.js';
import { observeWorld, providerA } from './world.js';

let sb: TestSandbox;
beforeAll(async () => {
  let w = withKey(observeWorld(), { label: 'no-observe', key: 'acr_test_no_observe_0001', permissions: ['mutation:read', 'skill:read'] });
  w = withOrganization(w, 'org_unpaid', { subscription: false });
  w = withAdvertiser(w, { id: 'acc_unpaid', organization: 'org_unpaid', provider: 'provider_a', ...providerA } as never);
  sb = await startTestSandbox({ world: w });
});
afterAll(() => sb.close());

const PATHS = ['/observe/campaigns', '/observe/insights', '/observe/acc_a/campaigns', '/observe/acc_a/campaigns/1001', '/observe/acc_unpaid/ads'];

describe('order of checks on every Observe route', () => {
  it('no key (with a bad query) → 401; unsubscribed → 402 with paywallUrl; no observe:read → 403; the provider is not asked', async () => {
    const before = providerCallCount(sb.services, 'provider_a');
    for (const path of PATHS) {
      const noKey = await sb.req('GET', path, { query: { limit: '9999' } });
      expect([path, noKey.status, noKey.body.error]).toEqual([path, 401, 'unauthorized']);
      const unpaid = await sb.req('GET', path, { key: sb.key('org-unpaid'), query: { limit: '9999' } });
      expect([path, unpaid.status, unpaid.body.error, typeof unpaid.body.paywallUrl]).toEqual([path, 402, 'organization_unentitled', 'string']);
      const forbidden = await sb.req('GET', path, { key: sb.key('no-observe'), query: { limit: '9999' } });
      expect([path, forbidden.status, forbidden.body.error]).toEqual([path, 403, 'forbidden']);
      if (path.endsWith('/1001')) continue; // a single read takes no query
      const bad = await sb.req('GET', path, { key: sb.keys.full, query: { limit: '9999' } });
      expect([path, bad.status, bad.body.error]).toEqual([path, 400, 'invalid_request']);
    }
    expect(providerCallCount(sb.services, 'provider_a')).toBe(before);
  });

  it('a provider_c ad is addressed by its composite id', async () => {
    const r = await sb.req('GET', '/observe/acc_c/ads/9101~9201', { key: sb.keys.full });
    expect(r.status).toBe(200);
    expect(r.body).toMatchObject({ adGroupId: '9101', resourceId: '9101~9201', ad: { id: '9201' } });
  });
});
