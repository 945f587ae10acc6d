// Live reads (GET /observe/{advertiserId}/...): who is asked and when, the
// live `status` table, resources a provider lacks, provider order and paging,
// rate limits and faults (502 provider_error with the provider's own error).
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { ManualClock } from '../clock.js';
import { providerCallCount, setProviderFaults } from '../../../src/sandbox/providers/faults.js';
import { writeProviderEntity } from '../../../src/sandbox/providers/store.js';
import { startTestSandbox } from '../../helpers/sandbox.js';
import type { TestSandbox } from '../../helpers/sandbox.js';
import { observeWorld } from './world.js';

let sb: TestSandbox;
let key: string;
let clock: ManualClock;
beforeAll(async () => {
  clock = new ManualClock(Date.UTC(2026, 9, 1, 12));
  sb = await startTestSandbox({ world: observeWorld(), clock });
  key = sb.keys.full!;
});
afterAll(() => sb.close());
beforeEach(() => {
  for (const p of ['provider_a', 'provider_b', 'provider_c', 'provider_d'])
    setProviderFaults(sb.services, p, { errorRate: 0, latencyMs: 0, rateLimitPerMinute: null, seed: 1 });
});

const get = (path: string, query: Record<string, string | number | undefined> = {}) => sb.req('GET', path, { key, query });
const calls = (p: 'provider_a' | 'provider_b' | 'provider_c' | 'provider_d') => providerCallCount(sb.services, p);

describe('advertiser checks come before the provider is asked', () => {
  const paths = ['campaigns', 'campaigns/1301', 'ad-groups', 'ads', 'creatives', 'creatives/1', 'ad-groups/1'];
  it('not owned and nonexistent answer the same 404 not_found, and the provider call counter does not move', async () => {
    const before = calls('provider_a');
    const bodies = new Map<string, Set<string>>();
    for (const adv of ['acc_other', 'acc_nope']) {
      for (const p of paths) {
        const r = await get(`/observe/${adv}/${p}`);
        expect([p, r.status, r.body.error]).toEqual([p, 404, 'not_found']);
        bodies.set(p, (bodies.get(p) ?? new Set()).add(JSON.stringify(r.body)));
      }
    }
    expect(calls('provider_a')).toBe(before);
    // One body per path, never one per advertiser.
    for (const [p, seen] of bodies) expect([p, seen.size]).toEqual([p, 1]);
  });

  it('a single live read: no such campaign, a provider with no campaigns, an advertiser not owned answer the same status, code and message', async () => {
    const answers = await Promise.all([
      get('/observe/acc_a/campaigns/424242'), // owned, the provider has campaigns, not this one
      get('/observe/acc_a_empty/campaigns/1001'), // owned, the provider has no campaigns at all
      get('/observe/acc_other/campaigns/1301'), // another organization's advertiser (the campaign exists there)
    ]);
    const seen = answers.map((r) => [r.status, r.body]);
    expect(seen[0]).toEqual([404, { error: 'not_found', message: expect.any(String) }]);
    expect(seen[1]).toEqual(seen[0]);
    expect(seen[2]).toEqual(seen[0]);
  });

  it('a path advertiserId not starting acc_ is 400 invalid_request', async () => {
    const r = await get('/observe/adv_1/campaigns');
    expect([r.status, r.body.error, r.body.issues[0].in]).toEqual([400, 'invalid_request', 'params']);
  });

  it('not connected: 409 provider_not_connected with provider, without asking it', async () => {
    const before = calls('provider_b');
    for (const p of ['campaigns', 'campaigns/5101', 'ad-groups', 'ads']) {
      const r = await get(`/observe/acc_b_off/${p}`);
      expect([r.status, r.body.error, r.body.provider]).toEqual([409, 'provider_not_connected', 'provider_b']);
    }
    expect(calls('provider_b')).toBe(before);
  });
});

describe('the live status table', () => {
  const table: Record<string, readonly string[]> = {
    acc_a: [],
    acc_b: ['DELETED', 'ARCHIVED'],
    acc_c: ['ACTIVE', 'PAUSED', 'DELETED', 'ARCHIVED'],
    acc_d: ['DELETED'],
  };
  const provider: Record<string, string> = { acc_a: 'provider_a', acc_b: 'provider_b', acc_c: 'provider_c', acc_d: 'provider_d' };
  for (const [adv, accepted] of Object.entries(table)) {
    for (const status of ['ACTIVE', 'PAUSED', 'DELETED', 'ARCHIVED']) {
      const ok = accepted.includes(status);
      it(`${provider[adv]} status=${status}: ${ok ? '200 with only that status' : '501 live_read_unsupported'}`, async () => {
        const r = await get(`/observe/${adv}/campaigns`, { status });
        if (ok) {
          expect(r.status).toBe(200);
          for (const row of r.body.data) expect(row.status).toBe(status);
        } else {
          expect([r.status, r.body.error, r.body.provider]).toEqual([501, 'live_read_unsupported', provider[adv]]);
        }
      });
    }
  }

  it('selects exactly the entities in that status', async () => {
    expect((await get('/observe/acc_b/campaigns', { status: 'DELETED' })).body.data.map((r: { id: string }) => r.id)).toEqual(['5003']);
    expect((await get('/observe/acc_c/campaigns', { status: 'PAUSED' })).body.data.map((r: { id: string }) => r.id)).toEqual(['9002']);
  });
});

describe('resources a provider does not have: 501 live_read_unsupported', () => {
  const cases: Array<[string, string, string]> = [
    ['acc_b', 'creatives', 'provider_b'],
    ['acc_c', 'creatives', 'provider_c'],
    ['acc_d', 'creatives', 'provider_d'],
    ['acc_a', 'asset-groups', 'provider_a'],
    ['acc_b', 'asset-groups', 'provider_b'],
    ['acc_d', 'asset-groups', 'provider_d'],
    ['acc_b', 'creatives/1', 'provider_b'],
    ['acc_a', 'asset-groups/1', 'provider_a'],
  ];
  for (const [adv, path, provider] of cases) {
    it(`${provider} ${path}`, async () => {
      const r = await get(`/observe/${adv}/${path}`);
      expect([r.status, r.body.error, r.body.provider]).toEqual([501, 'live_read_unsupported', provider]);
    });
  }
  it('the ones it has answer', async () => {
    expect((await get('/observe/acc_a/creatives')).body.data.map((r: { id: string }) => r.id)).toEqual(['4001']);
    expect((await get('/observe/acc_c/asset-groups')).body.data.map((r: { id: string }) => r.id)).toEqual(['9301']);
    expect((await get('/observe/acc_a/creatives/4001')).body).toMatchObject({ id: '4001', title: 'Hello' });
  });
});

describe('order and paging', () => {
  it("rows come in the provider's own order (not newest first)", async () => {
    expect((await get('/observe/acc_c/campaigns')).body.data.map((r: { id: string }) => r.id).slice(0, 4)).toEqual(['9001', '9002', '9003', '9004']);
  });

  it('live cursors page the live read only; a stored cursor is refused live and the reverse', async () => {
    const live = await get('/observe/acc_c/campaigns', { limit: 2 });
    expect(live.body.nextCursor).toBeDefined();
    const next = await get('/observe/acc_c/campaigns', { limit: 2, cursor: live.body.nextCursor });
    expect(next.body.data.map((r: { id: string }) => r.id)).toEqual(['9003', '9004']);
    expect((await get('/observe/campaigns', { cursor: live.body.nextCursor })).body.error).toBe('invalid_cursor');
    expect((await get('/observe/acc_c/campaigns', { cursor: live.body.nextCursor, status: 'ACTIVE' })).body.error).toBe('invalid_cursor');
    expect((await get('/observe/acc_a/campaigns', { cursor: live.body.nextCursor })).body.error).toBe('invalid_cursor');
    const stored = await get('/observe/campaigns', { limit: 1 });
    expect((await get('/observe/acc_c/campaigns', { cursor: stored.body.nextCursor })).body.error).toBe('invalid_cursor');
  });

  it('provider_b: every page keeps the page size of the first', async () => {
    const p1 = await get('/observe/acc_b/campaigns', { limit: 1 });
    expect(p1.body.data).toHaveLength(1);
    const p2 = await get('/observe/acc_b/campaigns', { limit: 3, cursor: p1.body.nextCursor });
    expect(p2.body.data).toHaveLength(1);
    expect(p2.body.data[0].id).toBe('5002');
    // provider_c honours the new limit.
    const c1 = await get('/observe/acc_c/campaigns', { limit: 1 });
    expect((await get('/observe/acc_c/campaigns', { limit: 3, cursor: c1.body.nextCursor })).body.data).toHaveLength(3);
  });

  it('ids, campaignId and adGroupId narrow a live list', async () => {
    expect((await get('/observe/acc_a/campaigns', { ids: '1002' })).body.data.map((r: { id: string }) => r.id)).toEqual(['1002']);
    expect((await get('/observe/acc_a/ad-groups', { campaignId: '1002' })).body.data.map((r: { id: string }) => r.id)).toEqual(['2002', '2003']);
    expect((await get('/observe/acc_c/ads', { adGroupId: '9101' })).body.data.map((r: { id: string }) => r.id)).toEqual(['9101~9201']);
  });

  it('live answers the provider now: an entity the service has not ingested yet is there', async () => {
    writeProviderEntity(
      sb.services.db,
      'acc_d',
      'campaign',
      'cmp-new',
      { id: 'cmp-new', name: 'New', state: 'paused', goal: 'traffic', budget: null, created_at: '2026-09-01T00:00:00Z', updated_at: '2026-09-01T00:00:00Z' },
      0,
    );
    const r = await get('/observe/acc_d/campaigns');
    expect(r.body.data.map((x: { id: string }) => x.id)).toContain('cmp-new');
  });
});

describe('single live reads', () => {
  it('404 when the provider holds no such campaign, and when it has no campaigns at all; the provider was asked', async () => {
    const before = calls('provider_c');
    const r = await get('/observe/acc_c/campaigns/424242');
    expect([r.status, r.body.error]).toEqual([404, 'not_found']);
    expect(calls('provider_c')).toBe(before + 1);
    const none = await get('/observe/acc_a_nocur/creatives/1'); // provider_a account with no creatives
    expect(none.status).toBe(404);
  });

  it('every live request counts: list and single each count one call', async () => {
    const before = calls('provider_a');
    await get('/observe/acc_a/campaigns');
    await get('/observe/acc_a/campaigns/1001');
    expect(calls('provider_a')).toBe(before + 2);
  });
});

describe('faults and rate limits', () => {
  it('rate limit per minute: the request past the limit answers the provider throttle as 502; the next minute is open', async () => {
    setProviderFaults(sb.services, 'provider_a', { errorRate: 0, latencyMs: 0, rateLimitPerMinute: 2, seed: 1 });
    expect((await get('/observe/acc_a/campaigns')).status).toBe(200);
    expect((await get('/observe/acc_a/campaigns/1001')).status).toBe(200);
    const r = await get('/observe/acc_a/ad-groups');
    expect([r.status, r.body.error, r.body.provider]).toEqual([502, 'provider_error', 'provider_a']);
    expect(r.body.platformError).toMatchObject({ code: 17, error_subcode: 2446079, type: 'OAuthException' });
    // The service knows when the window reopens: 60 s after the first of the two calls.
    expect(r.headers.get('retry-after')).toBe('60');
    clock.advance(30_000);
    expect((await get('/observe/acc_a/campaigns')).headers.get('retry-after')).toBe('30');
    clock.advance(31_000);
    expect((await get('/observe/acc_a/campaigns')).status).toBe(200);
  });

  it('errorRate 1: 502 provider_error carrying the provider_a error object, never the request', async () => {
    setProviderFaults(sb.services, 'provider_a', { errorRate: 1, latencyMs: 0, rateLimitPerMinute: null, seed: 1 });
    const r = await get('/observe/acc_a/campaigns', { ids: '1001', limit: 7 });
    expect(r.status).toBe(502);
    expect(r.headers.get('retry-after')).toBeNull(); // a failure, not a throttle: no time is known
    expect(r.body).toMatchObject({ error: 'provider_error', provider: 'provider_a' });
    for (const k of ['code', 'error_subcode', 'type', 'error_user_title', 'error_user_msg']) expect(r.body.platformError).toHaveProperty(k);
    const text = JSON.stringify(r.body);
    for (const leaked of ['acc_a', '1001', 'limit', key, 'Bearer']) expect(text).not.toContain(leaked);
  });

  it('each provider answers its own error shape', async () => {
    const expectations: Array<[string, string, Record<string, unknown>]> = [
      ['provider_b', 'acc_b', { code: 50000 }],
      ['provider_c', 'acc_c', { status: 'INTERNAL' }],
      ['provider_d', 'acc_d', { type: 'api_error' }],
    ];
    for (const [provider, adv, shape] of expectations) {
      setProviderFaults(sb.services, provider, { errorRate: 1, latencyMs: 0, rateLimitPerMinute: null, seed: 1 });
      const r = await get(`/observe/${adv}/campaigns`);
      expect([r.status, r.body.provider]).toEqual([502, provider]);
      expect(r.body.platformError).toMatchObject(shape);
    }
  });

  it('a partial error rate fails the same requests for the same seed', async () => {
    const run = async () => {
      setProviderFaults(sb.services, 'provider_c', { errorRate: 0.5, latencyMs: 0, rateLimitPerMinute: null, seed: 7 });
      const out: number[] = [];
      for (let i = 0; i < 12; i++) out.push((await get('/observe/acc_c/campaigns', { limit: 1 })).status);
      return out;
    };
    const first = await run();
    expect(first).toContain(200);
    expect(first).toContain(502);
    expect(await run()).toEqual(first);
  });

  it('latency is added to each live request', async () => {
    setProviderFaults(sb.services, 'provider_d', { errorRate: 0, latencyMs: 150, rateLimitPerMinute: null, seed: 1 });
    const started = performance.now();
    expect((await get('/observe/acc_d/campaigns')).status).toBe(200);
    expect(performance.now() - started).toBeGreaterThanOrEqual(140);
  });

  it('faults do not touch stored reads', async () => {
    setProviderFaults(sb.services, 'provider_a', { errorRate: 1, latencyMs: 0, rateLimitPerMinute: 1, seed: 1 });
    const before = calls('provider_a');
    expect((await get('/observe/campaigns', { advertiserId: 'acc_a' })).status).toBe(200);
    expect(calls('provider_a')).toBe(before);
  });
});
