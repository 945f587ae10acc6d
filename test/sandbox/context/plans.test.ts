// Campaign Plans over real HTTP: amounts, currencies, dates, slugs, lists,
// and the draft → approved → archived states.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { allPages, startContextSandbox } from './world.js';
import type { Ctx } from './world.js';

let ctx: Ctx;
beforeAll(async () => {
  ctx = await startContextSandbox();
});
afterAll(() => ctx.sb.close());

const plan = (slug: string, extra: Record<string, unknown> = {}) =>
  ctx.call('POST', '/context/campaign-plans', { body: { slug, name: `Plan ${slug}`, currency: 'USD', ...extra } });

/** A line item that validates against acc_ctx_a (provider_a, USD, connected). */
const goodItem = {
  name: 'Search',
  provider: 'provider_a',
  advertiserId: 'acc_ctx_a',
  budget: 100,
  budgetType: 'lifetime',
  startDate: '2026-10-01',
  endDate: '2026-10-31',
  objective: 'OUTCOME_SALES',
};

describe('campaign plans', () => {
  it('creates a draft in whole units of its currency and reads it back', async () => {
    const res = await plan('spring', { currency: 'EUR', budget: 1000.5, startDate: '2026-10-01', endDate: '2026-12-31', description: 'Q4' });
    expect(res.status).toBe(201);
    expect(res.body).toMatchObject({
      slug: 'spring',
      currency: 'EUR',
      budget: 1000.5,
      startDate: '2026-10-01',
      endDate: '2026-12-31',
      status: 'draft',
      approvedAt: null,
      archivedAt: null,
      revision: 1,
      lineItems: [],
    });
    expect((await ctx.call('GET', '/context/campaign-plans/spring')).body).toEqual(res.body);
    const jpy = await plan('yen', { currency: 'JPY', budget: 500000 });
    expect(jpy.body.budget).toBe(500000);
    const bhd = await plan('dinar', { currency: 'BHD', budget: 12.345 });
    expect(bhd.body.budget).toBe(12.345);
  });

  it('refuses amounts the currency cannot carry with 422 invalid_amount', async () => {
    for (const [currency, budget] of [
      ['USD', -5],
      ['USD', 0],
      ['USD', 10.001],
      ['JPY', 10.5],
      ['EUR', 0.1 + 0.2],
      ['USD', 1e13],
      ['USD', 1e-7],
    ] as const) {
      const res = await plan(`amt-${currency.toLowerCase()}-${String(budget).replace(/[^0-9]/g, '')}`, { currency, budget });
      expect(res.status, `${budget} ${currency}`).toBe(422);
      expect(res.body.error).toBe('invalid_amount');
    }
    expect((await plan('amt-str', { budget: '100' })).status).toBe(400);
    expect((await plan('amt-null', { budget: null })).body.budget).toBeNull();
  });

  it('refuses unknown currencies (422 invalid_currency), malformed ones and impossible dates (400), and reversed dates (422 invalid_dates)', async () => {
    expect((await plan('cur-x', { currency: 'XYZ' })).body.error).toBe('invalid_currency');
    expect((await plan('cur-lower', { currency: 'usd' })).status).toBe(400);
    expect((await plan('date-bad', { startDate: '2026-02-30' })).status).toBe(400);
    const rev = await plan('date-rev', { startDate: '2026-10-10', endDate: '2026-10-01' });
    expect(rev.status).toBe(422);
    expect(rev.body.error).toBe('invalid_dates');
  });

  it('validates slugs (422) and keeps them unique per organization (409 with slug)', async () => {
    expect((await plan('Plan!')).body.error).toBe('invalid_slug');
    await plan('dup-plan');
    const dup = await plan('dup-plan');
    expect(dup.status).toBe(409);
    expect(dup.body).toMatchObject({ error: 'slug_conflict', slug: 'dup-plan' });
    expect((await ctx.call('POST', '/context/campaign-plans', { key: ctx.other, body: { slug: 'dup-plan', name: 'x', currency: 'USD' } })).status).toBe(201);
  });

  it('lists newest first with a line item count and a status filter; cursors are bound to the filter', async () => {
    await plan('list-a');
    await plan('list-b');
    await ctx.call('POST', '/context/campaign-plans/list-b/line-items', { body: { name: 'one' } });
    const page = await ctx.call('GET', '/context/campaign-plans', { query: { limit: 2 } });
    expect(page.body.data.map((p: any) => p.slug)).toEqual(['list-b', 'list-a']);
    expect(page.body.data[0].lineItemCount).toBe(1);
    expect(page.body.data[0]).not.toHaveProperty('lineItems');
    const drafts = await allPages(ctx, '/context/campaign-plans', { status: 'draft', limit: 3 });
    expect(drafts.every((p) => p.status === 'draft')).toBe(true);
    expect((await ctx.call('GET', '/context/campaign-plans', { query: { status: 'approved', cursor: page.body.nextCursor } })).body.error).toBe(
      'invalid_cursor',
    );
    expect((await ctx.call('GET', '/context/campaign-plans', { query: { status: 'nope' } })).status).toBe(400);
  });

  it('updates with the revision it read; a stale one changes nothing', async () => {
    await plan('upd-plan', { budget: 100 });
    const ok = await ctx.call('PATCH', '/context/campaign-plans/upd-plan', { body: { revision: 1, budget: 250.25, name: 'Renamed' } });
    expect(ok.status).toBe(200);
    expect(ok.body).toMatchObject({ budget: 250.25, name: 'Renamed', revision: 2 });
    const stale = await ctx.call('PATCH', '/context/campaign-plans/upd-plan', { body: { revision: 1, budget: 1 } });
    expect(stale.status).toBe(409);
    expect(stale.body).toMatchObject({ error: 'revision_mismatch', currentRevision: 2 });
    expect((await ctx.call('GET', '/context/campaign-plans/upd-plan')).body.budget).toBe(250.25);
    expect((await ctx.call('PATCH', '/context/campaign-plans/upd-plan', { body: { revision: 2, budget: -1 } })).body.error).toBe('invalid_amount');
    expect(
      (await ctx.call('PATCH', '/context/campaign-plans/upd-plan', { body: { revision: 2, endDate: '2020-01-01', startDate: '2021-01-01' } })).body.error,
    ).toBe('invalid_dates');
    expect((await ctx.call('PATCH', '/context/campaign-plans/upd-plan', { body: { revision: 2, status: 'approved' } })).status).toBe(400);
  });

  it('changing currency keeps amounts in whole units and refuses ones the new currency cannot carry', async () => {
    await plan('fx', { currency: 'EUR', budget: 1000.5 });
    await ctx.call('POST', '/context/campaign-plans/fx/line-items', { body: { name: 'li', budget: 20 } });
    const refused = await ctx.call('PATCH', '/context/campaign-plans/fx', { body: { revision: 1, currency: 'JPY' } });
    expect(refused.status).toBe(422);
    expect(refused.body.error).toBe('invalid_amount');
    expect((await ctx.call('GET', '/context/campaign-plans/fx')).body).toMatchObject({ currency: 'EUR', budget: 1000.5, revision: 1 });
    const ok = await ctx.call('PATCH', '/context/campaign-plans/fx', { body: { revision: 1, currency: 'JPY', budget: 150000 } });
    expect(ok.status).toBe(200);
    expect(ok.body).toMatchObject({ currency: 'JPY', budget: 150000 });
    expect(ok.body.lineItems[0].budget).toBe(20);
    const back = await ctx.call('PATCH', '/context/campaign-plans/fx', { body: { revision: 2, currency: 'BHD' } });
    expect(back.body).toMatchObject({ currency: 'BHD', budget: 150000 });
    expect(back.body.lineItems[0].budget).toBe(20);
  });

  it("hides another organization's plans and line items (404)", async () => {
    await plan('secret-plan');
    const li = await ctx.call('POST', '/context/campaign-plans/secret-plan/line-items', { body: { name: 'x' } });
    const base = '/context/campaign-plans/secret-plan';
    const item = `${base}/line-items/${li.body.lineItemId}`;
    for (const [method, path, body] of [
      ['GET', base],
      ['PATCH', base, { revision: 1, name: 'x' }],
      ['DELETE', base],
      ['POST', `${base}/approve`],
      ['POST', `${base}/line-items`, { name: 'y' }],
      ['PATCH', item, { revision: 1, name: 'z' }],
      ['DELETE', item],
      ['POST', `${item}/validate`],
      ['GET', `${item}/readiness`],
      ['POST', `${item}/executions`, { provider: 'provider_a', entityType: 'campaign', entityId: '1' }],
    ] as const) {
      const res = await ctx.call(method, path, { key: ctx.other, ...(body ? { body } : {}) });
      expect(res.status, `${method} ${path}`).toBe(404);
    }
    expect((await ctx.call('GET', base)).body.lineItems).toHaveLength(1);
  });
});

describe('approval', () => {
  it('needs at least one line item and every line item valid (422 plan_invalid listing problems)', async () => {
    await plan('appr', { budget: 1000, startDate: '2026-10-01', endDate: '2026-10-31' });
    const empty = await ctx.call('POST', '/context/campaign-plans/appr/approve');
    expect(empty.status).toBe(422);
    expect(empty.body).toMatchObject({ error: 'plan_invalid', lineItems: [] });
    const li = await ctx.call('POST', '/context/campaign-plans/appr/line-items', { body: { name: 'half' } });
    const invalid = await ctx.call('POST', '/context/campaign-plans/appr/approve');
    expect(invalid.status).toBe(422);
    expect(invalid.body.lineItems[0].lineItemId).toBe(li.body.lineItemId);
    expect(invalid.body.lineItems[0].problems.map((p: any) => p.field)).toEqual(expect.arrayContaining(['provider', 'advertiserId', 'budget']));
    expect((await ctx.call('GET', '/context/campaign-plans/appr')).body.status).toBe('draft');
  });

  it('draft → approved freezes the plan and its line items; archive is the only change left; archived is read-only', async () => {
    await plan('frozen', { budget: 1000, startDate: '2026-10-01', endDate: '2026-10-31' });
    const li = await ctx.call('POST', '/context/campaign-plans/frozen/line-items', { body: goodItem });
    expect(li.status).toBe(201);
    const stale = await ctx.call('POST', '/context/campaign-plans/frozen/approve', { body: { revision: 7 } });
    expect(stale.status).toBe(409);
    expect(stale.body).toMatchObject({ error: 'revision_mismatch', currentRevision: 1 });
    const approved = await ctx.call('POST', '/context/campaign-plans/frozen/approve', { body: { revision: 1 } });
    expect(approved.status).toBe(200);
    expect(approved.body).toMatchObject({ status: 'approved', approvedAt: expect.any(Number), revision: 2 });
    const again = await ctx.call('POST', '/context/campaign-plans/frozen/approve');
    expect(again.status).toBe(200);
    expect(again.body).toEqual(approved.body);

    const item = `/context/campaign-plans/frozen/line-items/${li.body.lineItemId}`;
    for (const [method, path, body] of [
      ['PATCH', '/context/campaign-plans/frozen', { revision: 2, name: 'changed' }],
      ['PATCH', '/context/campaign-plans/frozen', { revision: 2, name: 'changed', status: 'archived' }],
      ['POST', '/context/campaign-plans/frozen/line-items', { name: 'more' }],
      ['PATCH', item, { revision: 1, budget: 5 }],
      ['DELETE', item],
      ['DELETE', '/context/campaign-plans/frozen'],
    ] as const) {
      const res = await ctx.call(method, path, body ? { body } : {});
      expect(res.status, `${method} ${path}`).toBe(409);
      expect(res.body.error).toBe('plan_frozen');
    }
    const after = await ctx.call('GET', '/context/campaign-plans/frozen');
    expect(after.body).toMatchObject({ name: 'Plan frozen', revision: 2 });
    expect(after.body.lineItems).toHaveLength(1);
    expect(after.body.lineItems[0].budget).toBe(100);

    const archived = await ctx.call('PATCH', '/context/campaign-plans/frozen', { body: { revision: 2, status: 'archived' } });
    expect(archived.status).toBe(200);
    expect(archived.body).toMatchObject({ status: 'archived', archivedAt: expect.any(Number), revision: 3 });
    expect((await ctx.call('PATCH', '/context/campaign-plans/frozen', { body: { revision: 3, status: 'archived' } })).body.error).toBe('plan_frozen');
    expect((await ctx.call('POST', '/context/campaign-plans/frozen/approve')).body.error).toBe('plan_frozen');
    expect((await ctx.call('DELETE', '/context/campaign-plans/frozen', { query: { revision: 3 } })).status).toBe(200);
    expect((await ctx.call('GET', '/context/campaign-plans/frozen')).status).toBe(404);
  });

  it('a draft can be archived or deleted (with its line items)', async () => {
    await plan('drop-me');
    await ctx.call('POST', '/context/campaign-plans/drop-me/line-items', { body: { name: 'x' } });
    expect((await ctx.call('DELETE', '/context/campaign-plans/drop-me', { query: { revision: 2 } })).body.error).toBe('revision_mismatch');
    const del = await ctx.call('DELETE', '/context/campaign-plans/drop-me');
    expect(del.body).toEqual({ deleted: true, slug: 'drop-me' });
    await plan('shelve');
    const shelved = await ctx.call('PATCH', '/context/campaign-plans/shelve', { body: { revision: 1, status: 'archived', description: 'not this year' } });
    expect(shelved.body).toMatchObject({ status: 'archived', description: 'not this year' });
  });
});
