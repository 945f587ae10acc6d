// The read-only flow tools of `adops mcp` (issue #38), called as the server calls them against a sandbox in
// this process: plans_verify and observe_drift in sync and out of sync, plans_pacing in and outside its band,
// "nothing judged" as an error (as the CLI's --exit-code exits 11 with no row), a service error carried
// with its code, and an argument that would read as a flag refused before anything runs.
import { describe, expect, it } from 'vitest';
import { useTestSandbox } from '../helpers/sandbox.js';
import { cliAgainst } from '../helpers/sandbox-cli.js';
import { flowToolsAgainst } from '../helpers/mcp-flow-env.js';
import { approvedPlan as approvedPlanOf, generatedWorld, matchingLine, ownDailyBudget } from '../helpers/plan-world.js';
import type { PlanCampaign } from '../helpers/plan-world.js';

const A = 'acc_mcp_flows_a';

const sb = useTestSandbox({ world: generatedWorld([{ id: A, currency: 'USD' }]) });
const { cli, api } = cliAgainst(sb);
const { ok, fails, runs } = flowToolsAgainst(sb);

const ownBudget = () => ownDailyBudget(api, A);

/** Inside the flight today, whatever today is (verify wants ACTIVE entities inside it). */
const END = new Date(Date.now() + 90 * 86_400_000).toISOString().slice(0, 10);

/** An approved USD plan: one Line Item per campaign, matching it, executed by it (none: a plan with no Line Item). */
const approvedPlan = (slug: string, items: PlanCampaign[]) =>
  approvedPlanOf(
    api,
    slug,
    items.map((c) => matchingLine(A, c)),
    { startDate: '2026-09-01', endDate: END },
  );

const pause = async (id: string) => expect((await cli(['mutations', 'pause', A, '--campaign', id, '--wait', '--interval', '0.1'])).code).toBe(0);
const ingest = async () => expect((await sb.req('POST', '/_sandbox/ingest')).status).toBe(200);

describe('plans_verify', () => {
  it('in sync, then out of sync after a pause (with the change file that fixes it), then nothing judged', async () => {
    const [c] = await ownBudget();
    await approvedPlan('mcp-verify', [c!]);
    expect(await ok('plans_verify', { slug: 'mcp-verify' })).toEqual({ inSync: true, differences: [] });

    await pause(c!.id);
    const out = await ok('plans_verify', { slug: 'mcp-verify', propose: true });
    expect(out.inSync).toBe(false);
    expect(out.differences).toContainEqual(expect.objectContaining({ entityId: c!.id, field: 'status', live: 'PAUSED' }));
    expect(out.changeFile).toMatch(/\.ndjson$/);
    expect(out.changes).toEqual([{ advertiserId: A, target: { type: 'campaign', id: c!.id }, action: 'activate' }]);

    // A plan with no Line Item (a draft: one cannot be approved without) verifies nothing.
    await api('POST', '/context/campaign-plans', { slug: 'mcp-verify-empty', name: 'empty', currency: 'USD', startDate: '2026-09-01', endDate: END });
    const none = await fails('plans_verify', { slug: 'mcp-verify-empty' });
    expect(none.code).toBe(11);
    expect(none.error).toMatchObject({ code: 'nothing_judged', exitCode: 11 });
    expect(none.error.message).toContain('no Line Item could be verified');
  });

  it("a plan that does not exist: the service's code and the exit meaning, as the CLI reports them", async () => {
    const r = await fails('plans_verify', { slug: 'mcp-no-such-plan' });
    expect(r.code).toBe(4);
    expect(r.error).toMatchObject({ status: 404, exitCode: 4 });
    expect(typeof r.error.code).toBe('string');
  });

  it('an argument that would read as a flag is refused before anything runs', async () => {
    const before = runs.length;
    for (const slug of ['--fix=/tmp/x', '-o']) {
      const r = await fails('plans_verify', { slug });
      expect([r.code, r.error.code]).toEqual([2, 'usage_error']);
    }
    expect((await fails('observe_drift', { advertiser: 'acc_x', compare: ['status', '--exit-code'] })).code).toBe(2);
    expect((await fails('plans_pacing', { slug: 'p', bandLow: 50 })).error.message).toMatch(/give both/);
    expect(runs.length).toBe(before);
  });
});

describe('plans_pacing', () => {
  it('on pace inside a wide band, not on pace in a band of one point; a plan with nothing launched is nothing judged', async () => {
    const [, c] = await ownBudget();
    const [li] = await approvedPlan('mcp-pacing', [c!]);
    const wide = await ok('plans_pacing', { slug: 'mcp-pacing', asOf: '2026-09-30', bandLow: 0, bandHigh: 1_000_000 });
    expect(wide.onPace).toBe(true);
    expect(wide.lineItems).toEqual([expect.objectContaining({ lineItemId: li, inBand: true })]);
    expect(typeof wide.lineItems[0].pace).toBe('number');

    const narrow = await ok('plans_pacing', { slug: 'mcp-pacing', asOf: '2026-09-30', bandLow: 100, bandHigh: 100, propose: true });
    expect(narrow.onPace).toBe(false);
    expect(narrow.lineItems).toEqual([expect.objectContaining({ lineItemId: li, inBand: false })]);
    expect(narrow.changes).toEqual([expect.objectContaining({ advertiserId: A, action: 'set_budget', target: { type: 'campaign', id: c!.id } })]);

    await api('POST', '/context/campaign-plans', { slug: 'mcp-pacing-idle', name: 'idle', currency: 'USD', startDate: '2026-09-01', endDate: END });
    await api('POST', '/context/campaign-plans/mcp-pacing-idle/line-items', {
      name: 'idle',
      provider: 'provider_a',
      advertiserId: A,
      budget: 10,
      budgetType: 'daily',
      startDate: '2026-09-01',
      endDate: END,
    });
    const idle = await fails('plans_pacing', { slug: 'mcp-pacing-idle', asOf: '2026-09-30' });
    expect([idle.code, idle.error.code]).toEqual([11, 'nothing_judged']);
    expect(idle.error.message).toMatch(/no Line Item could be judged: 1 not launched/);
  });
});

describe('observe_drift', () => {
  it('in sync after ingestion; a pause the stored copy has not seen is a status difference', async () => {
    await ingest();
    expect(await ok('observe_drift', { advertiser: A, compare: ['status'] })).toEqual({ inSync: true, differences: [] });
    const c = (await ownBudget()).at(-1)!;
    await pause(c.id);
    const out = await ok('observe_drift', { advertiser: A, level: 'campaigns' });
    expect(out.inSync).toBe(false);
    expect(out.differences).toContainEqual(expect.objectContaining({ id: c.id, field: 'status', stored: 'ACTIVE', live: 'PAUSED' }));
    await ingest();
    expect((await ok('observe_drift', { advertiser: A, compare: ['status'] })).inSync).toBe(true);
  });
});
