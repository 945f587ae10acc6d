// Property-based: malformed queries, path segments and cursors thrown at every
// Observe route never answer 5xx (but the documented 501 live_read_unsupported;
// 502 only comes with a configured fault, and none is here), and every failure has the documented shape.
import fc from 'fast-check';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestSandbox } from '../../helpers/sandbox.js';
import type { TestSandbox } from '../../helpers/sandbox.js';
import { observeWorld } from './world.js';

let sb: TestSandbox;
let validCursor: string;
beforeAll(async () => {
  sb = await startTestSandbox({ world: observeWorld() });
  validCursor = (await sb.req('GET', '/observe/campaigns', { key: sb.keys.full, query: { limit: 1 } })).body.nextCursor;
});
afterAll(() => sb.close());

const RESOURCES = ['campaigns', 'ad-groups', 'ads', 'creatives', 'asset-groups'];
const PARAMS = [
  'ids',
  'cursor',
  'limit',
  'advertiserId',
  'provider',
  'status',
  'campaignId',
  'adGroupId',
  'since',
  'until',
  'level',
  'timeGrain',
  'breakdown',
  'zzz',
];

const value = fc.oneof(
  fc.string({ maxLength: 30 }),
  fc.constantFrom(
    '',
    '0',
    '1',
    '500',
    '501',
    '-1',
    '1e2',
    'acc_a',
    'acc_other',
    'provider_e',
    'ACTIVE',
    '2026-09-01',
    '2026-02-30',
    'campaign',
    'week',
    'provider',
  ),
  fc.integer().map(String),
  fc.constant('cursor'),
);
const path = fc.oneof(
  fc.constantFrom(...RESOURCES, 'insights').map((r) => `/observe/${r}`),
  fc
    .tuple(
      fc.oneof(fc.constantFrom('acc_a', 'acc_b', 'acc_c', 'acc_d', 'acc_b_off', 'acc_other', 'acc_'), fc.string({ minLength: 1, maxLength: 12 })),
      fc.constantFrom(...RESOURCES),
    )
    .map(([adv, r]) => `/observe/${encodeURIComponent(adv)}/${r}`),
  fc
    .tuple(fc.constantFrom('acc_a', 'acc_c', 'acc_x'), fc.constantFrom(...RESOURCES), fc.string({ minLength: 1, maxLength: 20 }))
    .map(([adv, r, id]) => `/observe/${adv}/${r}/${encodeURIComponent(id)}`),
);
const query = fc.dictionary(fc.constantFrom(...PARAMS), value, { maxKeys: 5 });

describe('observe routes under malformed input', () => {
  it('never 5xx; every failure is { error, message, ... } and invalid_request carries issues', async () => {
    await fc.assert(
      fc.asyncProperty(path, query, fc.boolean(), async (p, q, useCursor) => {
        const params: Record<string, string> = { ...q };
        if (params.cursor === 'cursor' || useCursor) params.cursor = validCursor;
        const r = await sb.req('GET', p, { key: sb.keys.full, query: params });
        const what = `${p} ${JSON.stringify(params)} → ${r.text.slice(0, 200)}`;
        // 501 live_read_unsupported is a documented answer; nothing else 5xx (no faults configured here).
        if (r.status === 501) expect(r.body.error, what).toBe('live_read_unsupported');
        else expect(r.status, what).toBeLessThan(500);
        if (r.status >= 400) {
          expect(typeof r.body.error).toBe('string');
          expect(typeof r.body.message).toBe('string');
          if (r.body.error === 'invalid_request') {
            expect(Array.isArray(r.body.issues)).toBe(true);
            for (const issue of r.body.issues) {
              expect(['body', 'query', 'params', 'headers', 'cookie']).toContain(issue.in);
              expect(typeof issue.path).toBe('string');
            }
          }
        }
      }),
      { numRuns: 200 },
    );
  });
});
