// Every answer the sandbox gives, judged against the published OpenAPI document
// with ajv: a success of every one of the 64 operations, then the common
// failures of each (no key, a bad request, a missing thing). A response shape or
// status the document does not describe fails here, so the two cannot drift.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { fillPath, OPERATIONS, pathParams } from '../../../src/contract/operations.js';
import type { TestResponse } from '../../helpers/sandbox.js';
import { ContractChecker } from '../../helpers/contract-check.js';
import { lineItemBody, makeThings, OUR_ADVERTISERS, startTour } from './tour.js';
import type { Things, Tour } from './tour.js';

let tour: Tour;
let t: Things;
beforeAll(async () => {
  tour = await startTour();
  t = await makeThings(tour.ours, 'tour', OUR_ADVERTISERS[0].id);
});
afterAll(() => tour.close());

const RANGE = { since: '2026-09-01', until: '2026-09-30' };

describe('the checker itself', () => {
  it('refuses a body that does not match, a status not documented, and passes a good one', async () => {
    const doc = (await tour.sb.req('GET', '/openapi.json')).body;
    const checker = new ContractChecker(doc);
    const res = (status: number, body: unknown): TestResponse => ({ status, body, text: JSON.stringify(body), headers: new Headers() });
    expect(checker.check('GET', '/context/skills', res(200, { data: [{ slug: 1 }] }))).toMatch(/listSkills/);
    expect(checker.check('GET', '/context/skills', res(418, { error: 'x', message: 'y' }))).toMatch(/not documented/);
    expect(checker.check('GET', '/context/skills', res(401, { error: 'unauthorized' }))).toMatch(/message/);
    expect(checker.check('GET', '/context/skills', res(200, { data: [] }))).toBeNull();
    expect(checker.check('GET', '/observe/campaigns', res(200, { data: [{ advertiserId: 'nope' }] }))).toMatch(/listCampaigns/);
  });
});

describe('a success of every operation matches the document', () => {
  it('reads of Observe, stored and live, on every provider', async () => {
    await tour.ours('GET', '/observe/insights', { query: RANGE });
    await tour.ours('GET', '/observe/insights', { query: { ...RANGE, level: 'campaign', timeGrain: 'day', limit: 5 } });
    await tour.ours('GET', '/observe/insights', { query: { ...RANGE, breakdown: 'provider' } });
    for (const kind of ['campaigns', 'ad-groups', 'ads', 'creatives', 'asset-groups']) {
      const page = await tour.ours('GET', `/observe/${kind}`, { query: { limit: 2 } });
      if (page.body.nextCursor) await tour.ours('GET', `/observe/${kind}`, { query: { limit: 2, cursor: page.body.nextCursor } });
      for (const a of OUR_ADVERTISERS) {
        const live = await tour.ours('GET', `/observe/${a.id}/${kind}`, { query: { limit: 3 } });
        const id = live.body?.data?.[0]?.id as string | undefined;
        if (id) await tour.ours('GET', `/observe/${a.id}/${kind}/${encodeURIComponent(id)}`);
      }
    }
  });

  it('Mutations', async () => {
    await tour.ours('GET', '/mutations');
    await tour.ours('GET', `/mutations/${t.mutationId}`);
    for (const body of [
      { action: 'rename', name: 'renamed' },
      { action: 'set_budget', budget: { amount: 50 } },
      { action: 'set_bid', bidAmount: 2 },
    ]) {
      const res = await tour.ours('POST', '/mutations', { body: { advertiserId: t.advertiserId, target: { type: 'campaign', id: t.campaignId }, ...body } });
      expect(res.status).toBeLessThan(300);
    }
  });

  it('Skills and the Skill Catalog', async () => {
    await tour.ours('GET', '/context/skills');
    await tour.ours('GET', '/context/skill-catalog');
    const skill = await tour.ours('GET', `/context/skills/${t.skill}`);
    await tour.ours('PATCH', `/context/skills/${t.skill}`, { body: { revision: skill.body.revision, description: 'd' } });
    await tour.ours('POST', `/context/skills/${t.importedSkill}/re-import`, { body: {} });
    await tour.ours('DELETE', `/context/skills/${t.skill}`);
  });

  it('Brands, their advertisers, Personas and Documents', async () => {
    await tour.ours('GET', '/context/brands');
    const brand = await tour.ours('GET', `/context/brands/${t.brand}`);
    await tour.ours('PATCH', `/context/brands/${t.brand}`, { body: { revision: brand.body.revision, voice: '# Voice' } });
    await tour.ours('GET', `/context/brands/${t.brand}/advertisers`);
    await tour.ours('GET', `/context/brands/${t.brand}/personas`);
    const persona = await tour.ours('GET', `/context/brands/${t.brand}/personas/${t.persona}`);
    await tour.ours('PATCH', `/context/brands/${t.brand}/personas/${t.persona}`, { body: { revision: persona.body.revision, goals: ['grow'] } });
    await tour.ours('GET', `/context/brands/${t.brand}/documents`);
    await tour.ours('GET', `/context/brands/${t.brand}/documents/${t.documentId}`);
    await tour.ours('DELETE', `/context/brands/${t.brand}/documents/${t.documentId}`);
    await tour.ours('DELETE', `/context/brands/${t.brand}/personas/${t.persona}`);
    await tour.ours('DELETE', `/context/brands/${t.brand}/advertisers/${t.advertiserId}`);
    await tour.ours('DELETE', `/context/brands/${t.brand}`);
  });

  it('Campaign Plans and Line Items, through approval and execution', async () => {
    const base = `/context/campaign-plans/${t.plan}`;
    await tour.ours('GET', '/context/campaign-plans');
    const plan = await tour.ours('GET', base);
    await tour.ours('PATCH', base, { body: { revision: plan.body.revision, description: 'd' } });
    const extra = await tour.ours('POST', `${base}/line-items`, { body: lineItemBody('extra', t.advertiserId) });
    await tour.ours('DELETE', `${base}/line-items/${extra.body.lineItemId}`);
    const item = `${base}/line-items/${t.lineItemId}`;
    const current = (await tour.ours('GET', base)).body.lineItems.find((l: { lineItemId: string }) => l.lineItemId === t.lineItemId);
    await tour.ours('PATCH', item, { body: { revision: current.revision, budget: 120 } });
    await tour.ours('POST', `${item}/validate`);
    await tour.ours('GET', `${item}/readiness`);
    const approved = await tour.ours('POST', `${base}/approve`, { body: {} });
    expect(approved.status, approved.text).toBe(200);
    await tour.ours('GET', `${item}/readiness`);
    await tour.ours('POST', `${item}/executions`, {
      body: { provider: 'provider_a', entityType: 'campaign', entityId: t.campaignId, mutationId: t.mutationId },
    });
    const spare = await tour.ours('POST', '/context/campaign-plans', {
      body: { slug: 'spare', name: 'spare', currency: 'EUR', budget: 10, startDate: '2026-11-01', endDate: '2026-11-02' },
    });
    await tour.ours('DELETE', `/context/campaign-plans/${spare.body.slug}`);
  });

  it('Assets', async () => {
    await tour.ours('GET', '/assets');
    const asset = await tour.ours('GET', `/assets/${t.assetId}`);
    await tour.ours('PATCH', `/assets/${t.assetId}`, { body: { filename: 'renamed.png', revision: asset.body.revision } });
    await tour.ours('DELETE', `/assets/${t.assetId}`);
  });

  it('every operation answered a success at least once', () => {
    const succeeded = new Set([...tour.checker.seen].filter((s) => / 2\d\d$/.test(s)).map((s) => s.replace(/ \d{3}$/, '')));
    const missing = OPERATIONS.map((o) => `${o.method} ${o.path}`).filter((k) => !succeeded.has(k));
    expect(missing).toEqual([]);
  });
});

describe('the common failures of every operation match the document', () => {
  const sample = (name: string) => (name === 'advertiserId' ? OUR_ADVERTISERS[0].id : name === 'catalogSlug' ? 'no-such-entry' : 'no-such-thing');
  it.each(OPERATIONS.map((o) => [`${o.method} ${o.path}`, o] as const))('%s', async (_label, op) => {
    const path = fillPath(op.path, Object.fromEntries(pathParams(op.path).map((n) => [n, sample(n)])));
    const body = op.method === 'POST' || op.method === 'PATCH' ? { unexpected: true } : undefined;
    const withBody = body ? { body } : {};
    expect((await tour.as(undefined)(op.method, path, withBody)).status).toBe(401);
    await tour.as('acr_no_such_key_0001')(op.method, path, withBody);
    await tour.ours(op.method, path, { ...withBody, query: { limit: '0', since: 'x', cursor: 'garbage' } });
    await tour.ours(op.method, path, withBody);
    if (body) await tour.ours(op.method, path, { rawBody: '{"a":', headers: { 'content-type': 'application/json' } });
  });

  it('every answer in this file matched the published documents', () => {
    expect(tour.checker.failures).toEqual([]);
  });
});
