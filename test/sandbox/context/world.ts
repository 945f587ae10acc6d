// The world the Context tests share: our organization (org_test, key `full`)
// with advertisers in each connection state, keys lacking context permissions,
// and a second organization whose things must look nonexistent to us.
import { minimalWorld, startTestSandbox, withAdvertiser, withKey, withOrganization } from '../../helpers/sandbox.js';
import type { TestResponse, TestSandbox } from '../../helpers/sandbox.js';
import type { Clock } from '../../../src/sandbox/http/context.js';

export const READ_ONLY_KEY = 'acr_test_ctx_readonly_0001';
export const OBSERVE_ONLY_KEY = 'acr_test_ctx_observe_0001';
export const OTHER_KEY = 'acr_test_org_other_0001';

export function contextWorld() {
  let w = minimalWorld();
  w = withAdvertiser(w, { id: 'acc_ctx_a', provider: 'provider_a', currency: 'USD', connection: 'connected' });
  w = withAdvertiser(w, { id: 'acc_ctx_b', provider: 'provider_b', currency: 'USD', connection: 'no_write_access' });
  w = withAdvertiser(w, { id: 'acc_ctx_c', provider: 'provider_c', currency: 'EUR', connection: 'not_connected' });
  w = withKey(w, { label: 'read-only', key: READ_ONLY_KEY, permissions: ['skill:read', 'brand:read', 'campaign_plan:read'] });
  w = withKey(w, { label: 'observe-only', key: OBSERVE_ONLY_KEY, permissions: ['observe:read'] });
  w = withOrganization(w, 'org_other');
  w = withAdvertiser(w, { id: 'acc_other_a', organization: 'org_other', provider: 'provider_a', currency: 'USD' });
  return w;
}

export interface Ctx {
  sb: TestSandbox;
  full: string;
  other: string;
  /** Request with our full key unless another key is given. */
  call(method: string, path: string, opts?: { body?: unknown; query?: Record<string, string | number | undefined>; key?: string }): Promise<TestResponse>;
}

export async function startContextSandbox(opts: { clock?: Clock } = {}): Promise<Ctx> {
  const sb = await startTestSandbox({ world: contextWorld(), ...(opts.clock ? { clock: opts.clock } : {}) });
  const full = sb.keys.full;
  return {
    sb,
    full,
    other: OTHER_KEY,
    call: (method, path, o = {}) =>
      sb.req(method, path, { key: o.key ?? full, ...(o.body !== undefined ? { body: o.body } : {}), ...(o.query ? { query: o.query } : {}) }),
  };
}

/** Every page of a list, following nextCursor. */
export async function allPages(ctx: Ctx, path: string, query: Record<string, string | number> = {}, key?: string): Promise<any[]> {
  const rows: any[] = [];
  let cursor: string | undefined;
  for (let i = 0; i < 100; i++) {
    const res = await ctx.call('GET', path, { query: { ...query, ...(cursor ? { cursor } : {}) }, ...(key ? { key } : {}) });
    if (res.status !== 200) throw new Error(`${path}: ${res.status} ${res.text}`);
    rows.push(...res.body.data);
    cursor = res.body.nextCursor;
    if (!cursor) return rows;
  }
  throw new Error('too many pages');
}
