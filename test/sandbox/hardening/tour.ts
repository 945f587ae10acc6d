// A world of two organizations, each holding one of every kind of thing the
// service has, made through the API itself. The contract and cross-organization
// tests share it; every answer passes through a ContractChecker.
import { generateDemoEntities } from '../../../src/sandbox/providers/demo-entities.js';
import { minimalWorld, startTestSandbox, withAdvertiser, withOrganization } from '../../helpers/sandbox.js';
import type { ReqOptions, TestResponse, TestSandbox } from '../../helpers/sandbox.js';
import { ContractChecker } from '../../helpers/contract-check.js';

export const OTHER_KEY = 'acr_test_org_other_0001';
/** In every name and slug of the other organization, so its data is easy to spot in an answer. */
export const OTHER_MARK = 'zqx-other';

export const OUR_ADVERTISERS = [
  { id: 'acc_tour_a', provider: 'provider_a', currency: 'USD' },
  { id: 'acc_tour_b', provider: 'provider_b', currency: 'EUR' },
  { id: 'acc_tour_c', provider: 'provider_c', currency: 'USD' },
  { id: 'acc_tour_d', provider: 'provider_d', currency: 'USD' },
] as const;
export const OTHER_ADVERTISER = { id: 'acc_zqx_other_a', provider: 'provider_a', currency: 'USD' } as const;

export const PNG_BYTES = Buffer.from([
  0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a, 0, 0, 0, 13, 0x49, 0x48, 0x44, 0x52, 0, 0, 0, 1, 0, 0, 0, 1, 8, 6, 0, 0, 0, 0x1f, 0x15, 0xc4, 0x89,
]);
export const PDF_BYTES = Buffer.from('%PDF-1.7\n1 0 obj << /Type /Catalog >> endobj\ntrailer << /Root 1 0 R >>\n%%EOF\n', 'latin1');

function tourWorld() {
  let w = withOrganization(minimalWorld(), 'org_other');
  const seeds = [...OUR_ADVERTISERS.map((a) => ({ ...a, organization: 'org_test' })), { ...OTHER_ADVERTISER, organization: 'org_other' }];
  for (const a of seeds) {
    const seed = { ...a, name: a.id, connection: 'connected' };
    w = withAdvertiser(w, { ...generateDemoEntities(seed), ...seed } as never);
  }
  return w;
}

export type Call = (method: string, path: string, opts?: Omit<ReqOptions, 'key'>) => Promise<TestResponse>;

export interface Tour {
  sb: TestSandbox;
  checker: ContractChecker;
  /** As org_test (key `full`), judged by the checker. */
  ours: Call;
  /** As org_other, judged by the checker. */
  theirs: Call;
  /** Any key (or none), judged by the checker. */
  as(key: string | undefined): Call;
  close(): Promise<void>;
}

export async function startTour(): Promise<Tour> {
  const sb = await startTestSandbox({ world: tourWorld() });
  const checker = new ContractChecker((await sb.req('GET', '/openapi.json')).body);
  const as =
    (key: string | undefined): Call =>
    async (method, path, opts = {}) => {
      const res = await sb.req(method, path, { ...opts, ...(key ? { key } : {}) });
      checker.check(method, path, res);
      return res;
    };
  return { sb, checker, ours: as(sb.keys.full), theirs: as(OTHER_KEY), as, close: () => sb.close() };
}

/** One of every thing an organization can hold, with the handles to reach each. */
export interface Things {
  advertiserId: string;
  skill: string;
  importedSkill: string;
  brand: string;
  persona: string;
  documentId: string;
  plan: string;
  lineItemId: string;
  assetId: string;
  mutationId: string;
  /** Observe: one id of each entity kind of the advertiser (provider_a has creatives, no asset groups). */
  campaignId: string;
  adGroupId: string;
  adId: string;
  creativeId: string;
}

async function ok(res: Promise<TestResponse>, what: string): Promise<any> {
  const r = await res;
  if (r.status >= 300) throw new Error(`${what}: ${r.status} ${r.text.slice(0, 300)}`);
  return r.body;
}

async function putBytes(url: string, bytes: Buffer, contentType: string): Promise<void> {
  const res = await fetch(url, { method: 'PUT', headers: { 'content-type': contentType }, body: bytes });
  if (res.status !== 200) throw new Error(`PUT ${res.status}: ${await res.text()}`);
}

/** Make the things through the API, named `${prefix}-…`, on a provider_a advertiser of the organization. */
export async function makeThings(call: Call, prefix: string, advertiserId: string): Promise<Things> {
  const first = async (path: string) => (await ok(call('GET', path, { query: { advertiserId, limit: 1 } }), path)).data[0].id as string;
  const skill = (await ok(call('POST', '/context/skills', { body: { slug: `${prefix}-skill`, name: `${prefix} skill`, body: '# Steps' } }), 'skill')).slug;
  const importedSkill = (await ok(call('POST', '/context/skill-catalog/budget-pacing/import', { body: { slug: `${prefix}-pacing` } }), 'import')).slug;
  const brand = (await ok(call('POST', '/context/brands', { body: { slug: `${prefix}-brand`, name: `${prefix} brand` } }), 'brand')).slug;
  await ok(call('POST', `/context/brands/${brand}/advertisers`, { body: { advertiserId } }), 'attach');
  const persona = (await ok(call('POST', `/context/brands/${brand}/personas`, { body: { slug: `${prefix}-persona`, name: `${prefix} persona` } }), 'persona'))
    .slug;
  const doc = await ok(call('POST', `/context/brands/${brand}/documents`, { body: { filename: `${prefix}.pdf`, contentType: 'application/pdf' } }), 'document');
  await putBytes(doc.uploadUrl, PDF_BYTES, 'application/pdf');
  await ok(call('POST', `/context/brands/${brand}/documents/${doc.documentId}/finalize`), 'finalize document');
  const plan = (await ok(call('POST', '/context/campaign-plans', { body: { slug: `${prefix}-plan`, name: `${prefix} plan`, currency: 'USD' } }), 'plan')).slug;
  const lineItem = await ok(call('POST', `/context/campaign-plans/${plan}/line-items`, { body: lineItemBody(`${prefix} line`, advertiserId) }), 'line item');
  const asset = await ok(call('POST', '/assets/uploads', { body: { filename: `${prefix}.png`, contentType: 'image/png' } }), 'asset');
  await putBytes(asset.uploadUrl, PNG_BYTES, 'image/png');
  await ok(call('POST', `/assets/${asset.id}/finalize`), 'finalize asset');
  await ok(call('POST', `/assets/${asset.id}/registrations`, { body: { advertiserId } }), 'register');
  const campaignId = await first('/observe/campaigns');
  const mutation = await ok(call('POST', '/mutations', { body: { advertiserId, target: { type: 'campaign', id: campaignId }, action: 'pause' } }), 'mutation');
  return {
    advertiserId,
    skill,
    importedSkill,
    brand,
    persona,
    documentId: doc.documentId,
    plan,
    lineItemId: lineItem.lineItemId,
    assetId: asset.id,
    mutationId: mutation.id,
    campaignId,
    adGroupId: await first('/observe/ad-groups'),
    adId: await first('/observe/ads'),
    creativeId: await first('/observe/creatives'),
  };
}

/** A Line Item complete enough to validate, approve and execute. */
export function lineItemBody(name: string, advertiserId: string) {
  return {
    name,
    provider: 'provider_a',
    advertiserId,
    budget: 100,
    budgetType: 'daily',
    startDate: '2026-11-01',
    endDate: '2026-11-30',
    objective: 'OUTCOME_SALES',
  };
}
