// Spec, "Data of another organization": Mutations, Context and Assets answer
// 404 not_found for another organization's thing, never 403; Observe answers 404
// with the advertiser in the path and an empty list with it as a filter. The
// matrix is generated from the operation table: an operation with no case here
// fails the test, so a new route cannot skip the rule.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { fillPath, OPERATIONS, pathParams } from '../../../src/contract/operations.js';
import type { OperationDef } from '../../../src/contract/operations.js';
import { lineItemBody, makeThings, OTHER_ADVERTISER, OTHER_MARK, OUR_ADVERTISERS, startTour } from './tour.js';
import type { Things, Tour } from './tour.js';

/** What the other organization's data looks like in an answer: its names and its advertiser id. */
const LEAK = /zqx/;

type Expect = 'not_found' | 'not_owned' | 'empty' | 'ours_only';
interface Case {
  label: string;
  params: Record<string, string>;
  query?: Record<string, string>;
  body?: unknown;
  expect: Expect;
}

const OBSERVE_KIND: Record<string, keyof Things> = {
  campaigns: 'campaignId',
  'ad-groups': 'adGroupId',
  ads: 'adId',
  creatives: 'creativeId',
  'asset-groups': 'campaignId',
};

/** A body valid enough to get past the schema, so the lookup is what answers. */
function bodyFor(op: OperationDef, ours: Things): unknown {
  switch (op.id) {
    case 'updateSkill':
    case 'updateBrand':
    case 'updatePersona':
    case 'updateCampaignPlan':
    case 'updateLineItem':
      return { revision: 1, name: 'renamed' };
    case 'reimportSkill':
    case 'approveCampaignPlan':
      return {};
    case 'attachBrandAdvertiser':
    case 'registerAsset':
      return { advertiserId: ours.advertiserId };
    case 'createPersona':
      return { slug: 'xorg-persona', name: 'x' };
    case 'reserveDocument':
      return { filename: 'x.pdf', contentType: 'application/pdf' };
    case 'addLineItem':
      return lineItemBody('x', ours.advertiserId);
    case 'recordLineItemExecution':
      return { provider: 'provider_a', entityType: 'campaign', entityId: ours.campaignId };
    case 'renameAsset':
      return { filename: 'x.png', revision: 1 };
    default:
      return undefined;
  }
}

/** Their handles for every path parameter; with `mixed`, the parent is ours and only the child theirs. */
function paramsFor(op: OperationDef, ours: Things, theirs: Things, mixed: boolean): Record<string, string> {
  const names = pathParams(op.path);
  const parent = mixed ? ours : theirs;
  const out: Record<string, string> = {};
  for (const n of names) {
    if (n === 'advertiserId') out[n] = theirs.advertiserId;
    else if (n === 'id' && op.api === 'observe') out[n] = theirs[OBSERVE_KIND[op.path.split('/')[3]!]!];
    else if (n === 'id') out[n] = op.api === 'mutations' ? theirs.mutationId : theirs.assetId;
    else if (n === 'slug')
      out[n] = op.path.startsWith('/context/skills')
        ? op.id === 'reimportSkill'
          ? theirs.importedSkill
          : theirs.skill
        : op.path.startsWith('/context/brands')
          ? parent.brand
          : parent.plan;
    else if (n === 'personaSlug') out[n] = theirs.persona;
    else if (n === 'documentId') out[n] = theirs.documentId;
    else if (n === 'lineItemId') out[n] = theirs.lineItemId;
    else if (n === 'catalogSlug') out[n] = 'budget-pacing';
    else throw new Error(`no handle for path parameter ${n} of ${op.id}`);
  }
  return out;
}

function casesFor(op: OperationDef, ours: Things, theirs: Things): Case[] {
  const names = pathParams(op.path);
  const body = bodyFor(op, ours);
  if (op.id === 'importCatalogSkill') {
    // The Skill Catalog is the service's, not an organization's: importing is ours alone.
    return [{ label: 'the shared catalog', params: { catalogSlug: 'budget-pacing' }, body: { slug: 'xorg-import' }, expect: 'ours_only' }];
  }
  if (names.length === 0) {
    const cases: Case[] = [{ label: 'no filter', params: {}, expect: 'ours_only' }];
    if (op.method === 'GET' && op.api === 'observe') {
      cases.push({
        label: 'their advertiser as filter',
        params: {},
        query: { advertiserId: theirs.advertiserId, ...(op.id === 'listInsights' ? { since: '2026-01-01', until: '2026-12-31' } : {}) },
        expect: 'empty',
      });
      if (op.id === 'listInsights') cases[0]!.query = { since: '2026-01-01', until: '2026-12-31' };
    }
    if (op.id === 'listMutations')
      cases.push({ label: 'their advertiser as filter', params: {}, query: { advertiserId: theirs.advertiserId }, expect: 'empty' });
    if (op.id === 'createMutation') {
      return [
        {
          label: 'their advertiser in the body',
          params: {},
          body: { advertiserId: theirs.advertiserId, target: { type: 'campaign', id: theirs.campaignId }, action: 'pause' },
          expect: 'not_owned',
        },
      ];
    }
    if (op.method === 'POST') cases[0] = { ...cases[0]!, body: creationBody(op.id) };
    return cases;
  }
  const cases: Case[] = [{ label: 'their thing', params: paramsFor(op, ours, theirs, false), body, expect: 'not_found' }];
  // A child of theirs under a parent of ours: the child lookup is scoped too.
  if (names.length > 1 && !names.includes('advertiserId') && op.api === 'context') {
    cases.push({ label: 'our parent, their child', params: paramsFor(op, ours, theirs, true), body, expect: 'not_found' });
  }
  // Our thing, their advertiser in the body.
  if (op.id === 'attachBrandAdvertiser')
    cases.push({
      label: 'their advertiser attached to our brand',
      params: { slug: ours.brand },
      body: { advertiserId: theirs.advertiserId },
      expect: 'not_owned',
    });
  if (op.id === 'registerAsset')
    cases.push({
      label: 'our asset registered to their advertiser',
      params: { id: ours.assetId },
      body: { advertiserId: theirs.advertiserId },
      expect: 'not_owned',
    });
  if (op.id === 'detachBrandAdvertiser')
    cases.push({ label: 'their advertiser from our brand', params: { slug: ours.brand, advertiserId: theirs.advertiserId }, expect: 'not_found' });
  return cases;
}

/** Creations with no path parameter make a thing of ours; the answer must hold nothing of theirs. */
function creationBody(id: string): unknown {
  switch (id) {
    case 'createSkill':
      return { slug: 'xorg-skill', name: 'x' };
    case 'createBrand':
      return { slug: 'xorg-brand', name: 'x' };
    case 'createCampaignPlan':
      return { slug: 'xorg-plan', name: 'x', currency: 'USD' };
    case 'reserveAssetUpload':
      return { filename: 'x.png', contentType: 'image/png' };
    default:
      throw new Error(`no creation body for ${id}`);
  }
}

let tour: Tour;
let ours: Things;
let theirs: Things;
beforeAll(async () => {
  tour = await startTour();
  ours = await makeThings(tour.ours, 'tour', OUR_ADVERTISERS[0].id);
  theirs = await makeThings(tour.theirs, OTHER_MARK, OTHER_ADVERTISER.id);
});
afterAll(() => tour.close());

describe('another organization’s things, on every operation', () => {
  it.each(OPERATIONS.map((o) => [`${o.method} ${o.path}`, o] as const))('%s', async (_label, op) => {
    const cases = casesFor(op, ours, theirs);
    expect(cases.length).toBeGreaterThan(0);
    for (const c of cases) {
      const res = await tour.ours(op.method, fillPath(op.path, c.params), {
        ...(c.query ? { query: c.query } : {}),
        ...(c.body !== undefined ? { body: c.body } : {}),
      });
      const what = `${op.id} (${c.label}) → ${res.status} ${res.text.slice(0, 200)}`;
      expect(res.status, what).not.toBe(403);
      expect(LEAK.test(res.text), `${what}: their data in our answer`).toBe(false);
      switch (c.expect) {
        case 'not_found':
          expect([res.status, res.body.error], what).toEqual([404, 'not_found']);
          break;
        case 'not_owned':
          // The spec's code for an advertiser of the body: 422 advertiser_not_owned (404 would hide it as well).
          expect(['422 advertiser_not_owned', '404 not_found'], what).toContain(`${res.status} ${res.body.error}`);
          break;
        case 'empty':
          expect([res.status, res.body.data], what).toEqual([200, []]);
          break;
        case 'ours_only':
          expect(res.status, what).toBeLessThan(300);
          break;
      }
    }
  });

  it('their things are still there for them (the 404s above were about whose, not whether)', async () => {
    expect((await tour.theirs('GET', `/context/skills/${theirs.skill}`)).status).toBe(200);
    expect((await tour.theirs('GET', `/assets/${theirs.assetId}`)).status).toBe(200);
    expect((await tour.theirs('GET', `/mutations/${theirs.mutationId}`)).status).toBe(200);
    expect((await tour.theirs('GET', `/context/campaign-plans/${theirs.plan}`)).body.name).toContain(OTHER_MARK);
    expect((await tour.theirs('GET', `/observe/${theirs.advertiserId}/campaigns/${theirs.campaignId}`)).status).toBe(200);
  });

  it('every answer above matched the published documents', () => {
    expect(tour.checker.failures).toEqual([]);
  });
});
