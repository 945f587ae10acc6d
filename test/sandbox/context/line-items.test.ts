// Line Items over real HTTP: add/update/delete through the plan, validate
// (what is missing or wrong), readiness (what execution needs) and executions.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startContextSandbox } from './world.js';
import type { Ctx } from './world.js';

let ctx: Ctx;
beforeAll(async () => {
  ctx = await startContextSandbox();
});
afterAll(() => ctx.sb.close());

const base = (plan: string) => `/context/campaign-plans/${plan}`;
const newPlan = (slug: string, extra: Record<string, unknown> = {}) =>
  ctx.call('POST', '/context/campaign-plans', {
    body: { slug, name: slug, currency: 'USD', budget: 1000, startDate: '2026-10-01', endDate: '2026-10-31', ...extra },
  });
const add = (plan: string, body: Record<string, unknown>) => ctx.call('POST', `${base(plan)}/line-items`, { body });
const good = {
  name: 'Prospecting',
  provider: 'provider_a',
  advertiserId: 'acc_ctx_a',
  budget: 300,
  budgetType: 'lifetime',
  startDate: '2026-10-01',
  endDate: '2026-10-31',
  objective: 'OUTCOME_SALES',
};
const codes = (problems: Array<{ code: string; field: string | null }>) => problems.map((p) => `${p.code}:${p.field}`).sort();

describe('line items', () => {
  it('adds with a service-minted lineItemId; only name is needed', async () => {
    await newPlan('li-add');
    const minimal = await add('li-add', { name: 'Later' });
    expect(minimal.status).toBe(201);
    expect(minimal.body).toMatchObject({
      lineItemId: expect.stringMatching(/^li_/),
      planSlug: 'li-add',
      name: 'Later',
      provider: null,
      advertiserId: null,
      budget: null,
      budgetType: null,
      startDate: null,
      endDate: null,
      objective: null,
      lastValidation: null,
      executions: [],
      revision: 1,
    });
    const full = await add('li-add', { ...good, budget: 12.5 });
    expect(full.body).toMatchObject({ ...good, budget: 12.5 });
    expect(full.body.lineItemId).not.toBe(minimal.body.lineItemId);
    const plan = await ctx.call('GET', base('li-add'));
    expect(plan.body.lineItems.map((l: any) => l.lineItemId)).toEqual([minimal.body.lineItemId, full.body.lineItemId]);
    expect((await add('li-add', { name: 'x', budget: -1 })).body.error).toBe('invalid_amount');
    expect((await add('li-add', { name: 'x', budget: 1.234 })).body.error).toBe('invalid_amount');
    expect((await add('li-add', { name: 'x', provider: 'provider_z' })).status).toBe(400);
    expect((await add('li-add', { name: 'x', startDate: '2026-10-05', endDate: '2026-10-01' })).body.error).toBe('invalid_dates');
    expect((await add('no-such-plan', { name: 'x' })).status).toBe(404);
  });

  it('updates with the revision it read (stale → 409 with currentRevision, nothing changed) and deletes', async () => {
    await newPlan('li-upd');
    const li = (await add('li-upd', { name: 'a', budget: 10 })).body;
    const path = `${base('li-upd')}/line-items/${li.lineItemId}`;
    const upd = await ctx.call('PATCH', path, { body: { revision: 1, budget: 20, provider: 'provider_b' } });
    expect(upd.status).toBe(200);
    expect(upd.body).toMatchObject({ budget: 20, provider: 'provider_b', revision: 2 });
    const stale = await ctx.call('PATCH', path, { body: { revision: 1, budget: 30 } });
    expect(stale.status).toBe(409);
    expect(stale.body).toMatchObject({ error: 'revision_mismatch', currentRevision: 2 });
    expect((await ctx.call('GET', base('li-upd'))).body.lineItems[0].budget).toBe(20);
    expect((await ctx.call('PATCH', path, { body: { budget: 30 } })).status).toBe(400);
    expect((await ctx.call('PATCH', path, { body: { revision: 2, endDate: '2026-01-01', startDate: '2026-02-01' } })).body.error).toBe('invalid_dates');
    expect((await ctx.call('DELETE', path, { query: { revision: 1 } })).body.error).toBe('revision_mismatch');
    const del = await ctx.call('DELETE', path, { query: { revision: 2 } });
    expect(del.body).toEqual({ deleted: true, planSlug: 'li-upd', lineItemId: li.lineItemId });
    expect((await ctx.call('PATCH', path, { body: { revision: 2, name: 'gone' } })).status).toBe(404);
  });

  it('is found only through its own plan', async () => {
    await newPlan('li-own-a');
    await newPlan('li-own-b');
    const li = (await add('li-own-a', { name: 'a' })).body;
    expect((await ctx.call('POST', `${base('li-own-b')}/line-items/${li.lineItemId}/validate`)).status).toBe(404);
  });
});

describe('validate', () => {
  it('lists every missing field of a bare line item (objective not needed on provider_c)', async () => {
    await newPlan('val-missing');
    const li = (await add('val-missing', { name: 'bare' })).body;
    const res = await ctx.call('POST', `${base('val-missing')}/line-items/${li.lineItemId}/validate`);
    expect(res.status).toBe(200);
    expect(res.body).toMatchObject({ lineItemId: li.lineItemId, valid: false, checkedAt: expect.any(Number) });
    expect(codes(res.body.problems)).toEqual(
      ['advertiserId', 'budget', 'budgetType', 'endDate', 'objective', 'provider', 'startDate'].map((f) => `missing_field:${f}`).sort(),
    );
    const c = (await add('val-missing', { ...good, name: 'c', provider: 'provider_c', objective: null, advertiserId: 'acc_ctx_c' })).body;
    const resC = await ctx.call('POST', `${base('val-missing')}/line-items/${c.lineItemId}/validate`);
    expect(codes(resC.body.problems)).not.toContain('missing_field:objective');
  });

  it('finds advertisers not owned, provider and currency mismatches, dates outside the plan, budgets over the plan', async () => {
    await newPlan('val-wrong');
    const cases: Array<[Record<string, unknown>, string[]]> = [
      [{ advertiserId: 'acc_other_a' }, ['advertiser_not_owned:advertiserId']],
      [{ advertiserId: 'acc_ctx_b', provider: 'provider_a' }, ['provider_mismatch:provider']],
      [{ advertiserId: 'acc_ctx_c', provider: 'provider_c' }, ['currency_mismatch:advertiserId']],
      [{ startDate: '2026-09-30' }, ['dates_outside_plan:startDate']],
      [{ endDate: '2026-11-01' }, ['dates_outside_plan:endDate']],
      [{ budget: 1000.01 }, ['budget_over_plan:budget']],
      [{ budget: 40, budgetType: 'daily' }, ['budget_over_plan:budget']], // 40 × 31 days > 1000
      [{ budget: 30, budgetType: 'daily' }, []], // 30 × 31 = 930
    ];
    for (const [patch, expected] of cases) {
      const li = (await add('val-wrong', { ...good, ...patch })).body;
      const res = await ctx.call('POST', `${base('val-wrong')}/line-items/${li.lineItemId}/validate`);
      expect(codes(res.body.problems), JSON.stringify(patch)).toEqual(expected);
      expect(res.body.valid).toBe(expected.length === 0);
      await ctx.call('DELETE', `${base('val-wrong')}/line-items/${li.lineItemId}`);
    }
  });

  it('finds line items that together exceed the plan budget', async () => {
    await newPlan('val-sum');
    const a = (await add('val-sum', { ...good, budget: 600 })).body;
    const first = await ctx.call('POST', `${base('val-sum')}/line-items/${a.lineItemId}/validate`);
    expect(first.body.valid).toBe(true);
    await add('val-sum', { ...good, budget: 500 });
    const second = await ctx.call('POST', `${base('val-sum')}/line-items/${a.lineItemId}/validate`);
    expect(codes(second.body.problems)).toEqual(['plan_budget_exceeded:budget']);
  });

  it('keeps the last result on the line item until its next edit, without bumping the revision', async () => {
    await newPlan('val-keep');
    const li = (await add('val-keep', good)).body;
    const path = `${base('val-keep')}/line-items/${li.lineItemId}`;
    const v = await ctx.call('POST', `${path}/validate`);
    const read = (await ctx.call('GET', base('val-keep'))).body.lineItems[0];
    expect(read.lastValidation).toEqual(v.body);
    expect(read.revision).toBe(1);
    const edited = await ctx.call('PATCH', path, { body: { revision: 1, name: 'renamed' } });
    expect(edited.body.lastValidation).toBeNull();
  });
});

describe('readiness', () => {
  it('says what is missing: approval, validation, connection, write access', async () => {
    await newPlan('ready');
    const a = (await add('ready', good)).body;
    const draft = await ctx.call('GET', `${base('ready')}/line-items/${a.lineItemId}/readiness`);
    expect(draft.status).toBe(200);
    expect(draft.body).toMatchObject({ lineItemId: a.lineItemId, ready: false });
    expect(draft.body.missing.map((m: any) => m.code)).toEqual(['plan_not_approved']);
    expect((await ctx.call('POST', `${base('ready')}/approve`)).status).toBe(200);
    const ok = await ctx.call('GET', `${base('ready')}/line-items/${a.lineItemId}/readiness`);
    expect(ok.body).toMatchObject({ ready: true, missing: [] });
    // The advertiser of an approved line item can lose its connection or write access later; readiness tells.
    await newPlan('ready-b');
    const b = (await add('ready-b', { ...good, provider: 'provider_b', advertiserId: 'acc_ctx_b' })).body;
    await ctx.call('POST', `${base('ready-b')}/approve`);
    const noWrite = await ctx.call('GET', `${base('ready-b')}/line-items/${b.lineItemId}/readiness`);
    expect(noWrite.body.missing.map((m: any) => m.code)).toEqual(['missing_write_access']);
    await newPlan('ready-c', { currency: 'EUR' });
    const c = (await add('ready-c', { ...good, provider: 'provider_c', advertiserId: 'acc_ctx_c', objective: null })).body;
    await ctx.call('POST', `${base('ready-c')}/approve`);
    const notConnected = await ctx.call('GET', `${base('ready-c')}/line-items/${c.lineItemId}/readiness`);
    expect(notConnected.body.missing.map((m: any) => m.code)).toEqual(['provider_not_connected']);
  });

  it('lists the validation problems inside validation_failed', async () => {
    await newPlan('ready-bad');
    const li = (await add('ready-bad', { name: 'bare' })).body;
    const res = await ctx.call('GET', `${base('ready-bad')}/line-items/${li.lineItemId}/readiness`);
    const failed = res.body.missing.find((m: any) => m.code === 'validation_failed');
    expect(failed.problems.length).toBeGreaterThan(0);
    expect(res.body.missing.map((m: any) => m.code)).toEqual(['plan_not_approved', 'validation_failed']);
  });
});

describe('executions', () => {
  it('records what an approved line item spawned (again: the same record), on its own provider only', async () => {
    await newPlan('exec');
    const li = (await add('exec', good)).body;
    const path = `${base('exec')}/line-items/${li.lineItemId}/executions`;
    const spawned = { provider: 'provider_a', entityType: 'campaign', entityId: '120210000000001', mutationId: 'mut_123' };
    const early = await ctx.call('POST', path, { body: spawned });
    expect(early.status).toBe(409);
    expect(early.body.error).toBe('plan_not_approved');
    await ctx.call('POST', `${base('exec')}/approve`);
    const rec = await ctx.call('POST', path, { body: spawned });
    expect(rec.status).toBe(201);
    expect(rec.body).toMatchObject({ executionId: expect.stringMatching(/^exe_/), lineItemId: li.lineItemId, ...spawned, recordedAt: expect.any(Number) });
    const again = await ctx.call('POST', path, { body: spawned });
    expect(again.status).toBe(200);
    expect(again.body).toEqual(rec.body);
    const adGroup = await ctx.call('POST', path, { body: { provider: 'provider_a', entityType: 'ad_group', entityId: '9' } });
    expect(adGroup.body.mutationId).toBeNull();
    const wrong = await ctx.call('POST', path, { body: { provider: 'provider_b', entityType: 'campaign', entityId: '1' } });
    expect(wrong.status).toBe(422);
    expect(wrong.body.error).toBe('provider_mismatch');
    expect((await ctx.call('POST', path, { body: { provider: 'provider_a', entityType: 'widget', entityId: '1' } })).status).toBe(400);
    const plan = await ctx.call('GET', base('exec'));
    expect(plan.body.lineItems[0].executions.map((e: any) => e.entityType)).toEqual(['campaign', 'ad_group']);
    await ctx.call('PATCH', base('exec'), { body: { revision: plan.body.revision, status: 'archived' } });
    expect((await ctx.call('POST', path, { body: { ...spawned, entityId: '2' } })).body.error).toBe('plan_frozen');
  });
});
