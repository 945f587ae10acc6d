// The published documents are as tight as the spec (issue 26, part 1): each error code's added
// fields are required with their code, and a row's `type` is the spec's closed list. Judged with
// the same checker that judges every sandbox answer (test/helpers/check-responses.ts), against the
// document the sandbox serves.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ContractChecker } from '../../helpers/contract-check.js';
import { startTestSandbox, type TestResponse, type TestSandbox } from '../../helpers/sandbox.js';

let sb: TestSandbox;
let checker: ContractChecker;
beforeAll(async () => {
  sb = await startTestSandbox();
  checker = new ContractChecker((await sb.req('GET', '/openapi.json')).body as ConstructorParameters<typeof ContractChecker>[0]);
});
afterAll(() => sb.close());

const answer = (status: number, body: unknown): TestResponse => ({
  status,
  headers: new Headers({ 'content-type': 'application/json' }),
  body,
  text: JSON.stringify(body),
});
const judge = (method: string, path: string, status: number, body: unknown) => checker.check(method, path, answer(status, body));

describe('error bodies: a code and its added fields go together', () => {
  const cases: Array<{ code: string; method: string; path: string; status: number; added: Record<string, unknown> }> = [
    { code: 'revision_mismatch', method: 'PATCH', path: '/context/brands/acme', status: 409, added: { currentRevision: 4 } },
    { code: 'slug_conflict', method: 'POST', path: '/context/brands', status: 409, added: { slug: 'acme' } },
    { code: 'organization_unentitled', method: 'GET', path: '/context/brands', status: 402, added: { paywallUrl: 'https://console.example/billing' } },
    { code: 'provider_not_connected', method: 'POST', path: '/mutations', status: 409, added: { provider: 'provider_a' } },
    { code: 'provider_error', method: 'GET', path: '/observe/acc_1/campaigns', status: 502, added: { provider: 'provider_a' } },
    { code: 'live_read_unsupported', method: 'GET', path: '/observe/acc_1/creatives', status: 501, added: { provider: 'provider_b' } },
    { code: 'too_large', method: 'POST', path: '/context/brands/acme/documents/doc_1/finalize', status: 413, added: { sizeBytes: 9, limitBytes: 8 } },
  ];
  for (const c of cases) {
    it(`${c.code}: valid with ${Object.keys(c.added).join(', ')}, refused without`, () => {
      expect(judge(c.method, c.path, c.status, { error: c.code, message: 'm', ...c.added })).toBeNull();
      expect(judge(c.method, c.path, c.status, { error: c.code, message: 'm' })).not.toBeNull();
    });
  }

  it('paywallUrl is a URI', () => {
    expect(judge('GET', '/context/brands', 402, { error: 'organization_unentitled', message: 'm', paywallUrl: 'not a url' })).not.toBeNull();
  });

  it("an Asset's too_large need not carry sizes (the spec gives them for a Document only); a code that adds nothing still needs only error and message", () => {
    expect(judge('POST', '/assets/ast_1/finalize', 413, { error: 'too_large', message: 'm' })).toBeNull();
    expect(judge('GET', '/context/brands/nope', 404, { error: 'not_found', message: 'm' })).toBeNull();
  });
});

describe("a row's type is the spec's closed list", () => {
  const row = (type: string, extra: Record<string, unknown>) => ({
    advertiserId: 'acc_1',
    id: '1',
    name: 'n',
    path: '1',
    provider: 'provider_a',
    type,
    status: 'ACTIVE',
    currency: null,
    createdAt: null,
    updatedAt: null,
    deletedAt: null,
    createdTime: null,
    updatedTime: null,
    budget: null,
    budgetLevel: null,
    budgetType: null,
    bidStrategy: null,
    ...extra,
  });
  const campaign = (type: string) => row(type, { objective: null, adsetBudgetSharing: null });
  const adGroup = (type: string) => row(type, { campaignId: null, bidAmount: null, roasFloor: null, startTime: null, endTime: null });

  it('campaign: only `campaign`', () => {
    expect(judge('GET', '/observe/campaigns', 200, { data: [campaign('campaign')] })).toBeNull();
    expect(judge('GET', '/observe/campaigns', 200, { data: [campaign('adset')] })).not.toBeNull();
  });

  it('ad group: adset, adgroup or ad_group', () => {
    for (const t of ['adset', 'adgroup', 'ad_group']) expect(judge('GET', '/observe/ad-groups', 200, { data: [adGroup(t)] })).toBeNull();
    expect(judge('GET', '/observe/ad-groups', 200, { data: [adGroup('campaign')] })).not.toBeNull();
  });
});
