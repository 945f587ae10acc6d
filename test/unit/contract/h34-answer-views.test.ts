// The answer views (src/contract/answer-views.ts): what each flow's step reads
// of an answer, compiled from the contract's own schemas. A read field is
// checked whole and required as the contract requires it; a field no step
// reads is not looked at (the real service may differ there).
import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { ANSWER_VIEWS, parseRead } from '../../../src/contract/answer-views.js';
import { answerIssues, issuesByItem } from '../../../src/contract/response-check.js';
import { responseValidatorsSource, viewSchema } from '../../../src/contract/response-schemas.js';
import { OPERATION_SCHEMAS } from '../../../src/contract/operation-schemas.js';
import { campaignRow } from '../../helpers/contract-rows.js';

const liveCampaign = campaignRow('acc_1', '1', { name: 'x', path: '1', budget: 5 });

describe('answer views', () => {
  it('src/contract/generated/response-validators.js is current (regenerate: npm run gen)', () => {
    const committed = readFileSync(new URL('../../../src/contract/generated/response-validators.js', import.meta.url), 'utf8');
    expect(committed === responseValidatorsSource()).toBe(true);
  });

  it('a contract-valid answer keeps every view of its operation (the sandbox’s own rows pass)', async () => {
    const page = OPERATION_SCHEMAS.listLiveCampaigns.response.parse({ data: [liveCampaign] });
    for (const name of ['liveCampaignsVerified', 'liveCampaignsDrift'] as const) expect(await answerIssues(name, page), name).toEqual([]);
  });

  it('a read field missing, mistyped or outside its enum is an issue of its row; unread fields are not looked at', async () => {
    const { status: _status, ...noStatus } = liveCampaign;
    const rows = [
      liveCampaign,
      noStatus,
      { ...liveCampaign, budgetLevel: 'account' },
      { ...liveCampaign, budget: '5' },
      { ...liveCampaign, name: 7, path: null },
    ];
    const issues = await answerIssues('liveCampaignsVerified', { data: rows });
    const { items, rest } = issuesByItem(issues, '/data');
    expect(rest).toEqual([]);
    expect([...items.keys()]).toEqual([1, 2, 3]);
    expect(items.get(1)).toEqual([{ pointer: '/status', text: 'is required' }]);
    expect(items.get(2)![0]!.pointer).toBe('/budgetLevel');
    expect(items.get(3)![0]!.pointer).toBe('/budget');
  });

  it('nested reads: an execution type the contract does not name is an issue of that Line Item', async () => {
    expect(JSON.stringify(viewSchema(ANSWER_VIEWS.planVerified))).toMatch(
      /"executions":\{"type":"array","items":\{"type":"object","properties":\{"entityType"/,
    );
    const li = (type: string) => ({
      lineItemId: 'li_1',
      name: 'a',
      advertiserId: 'acc_1',
      budget: 10,
      budgetType: 'daily',
      startDate: '2026-11-01',
      endDate: '2026-11-30',
      objective: null,
      executions: [{ entityType: type, entityId: '1' }],
    });
    const issues = await answerIssues('planVerified', { slug: 'p', currency: 'USD', lineItems: [li('campaign'), li('keyword')] });
    const { items, rest } = issuesByItem(issues, '/lineItems');
    expect(rest).toEqual([]);
    expect([...items.keys()]).toEqual([1]);
    expect(items.get(1)![0]!.pointer).toBe('/executions/0/entityType');
  });

  it('a date that is not a calendar day (2026-11-1) is an issue wherever a step reads one', async () => {
    const insight = { dateStart: '2026-11-1', dateStop: '2026-11-01', level: 'campaign', entityId: '1', currency: 'USD', spend: 1 };
    const pointers = async (...a: Parameters<typeof answerIssues>) => [...new Set((await answerIssues(...a)).map((i) => i.pointer))];
    expect(await pointers('spendByDay', { data: [insight] })).toEqual(['/data/0/dateStart']);
    const plan = {
      slug: 'p',
      currency: 'USD',
      lineItems: [{ lineItemId: 'li', name: 'a', advertiserId: null, budget: null, budgetType: null, startDate: '2026-11-1', endDate: null, executions: [] }],
    };
    expect(await pointers('planPaced', plan)).toEqual(['/lineItems/0/startDate']);
  });

  it('a read marked `?` may be absent, and is checked when present', () => {
    expect(parseRead('uploadExpiresAt?')).toEqual({ steps: [{ field: 'uploadExpiresAt', each: false }], optional: true });
    expect(parseRead('data[].id')).toEqual({
      steps: [
        { field: 'data', each: true },
        { field: 'id', each: false },
      ],
      optional: false,
    });
  });
});
