// `adops plans verify` and `adops plans pacing` (issue #28), in process against
// a sandbox in this process. Set-up: an approved plan in the advertiser's
// currency (USD) whose Line Items were executed by real campaigns of a
// generated provider_a advertiser (entities and 90 days of Insights up to
// 2026-09-30), plus advertisers whose currency is unknown, whose connection is
// lost (409) and whose provider cannot read creatives live (501).
import { describe, expect, it } from 'vitest';
import { useTestSandbox } from '../helpers/sandbox.js';
import { approvedPlan as approvedPlanOf, generatedWorld, matchingLine } from '../helpers/plan-world.js';
import type { LineItemSpec, PlanCampaign as Campaign } from '../helpers/plan-world.js';
import { runAdopsInProcess } from '../helpers/run-in-process.js';
import { cliAgainst } from '../helpers/sandbox-cli.js';

const A = 'acc_h28_a';
const NOCUR = 'acc_h28_nocur';
const OFF = 'acc_h28_off';
const B = 'acc_h28_b';

const world = () =>
  generatedWorld([
    { id: A, currency: 'USD' },
    { id: NOCUR, currency: null },
    { id: OFF, currency: 'USD', connection: 'not_connected' },
    { id: B, currency: null, provider: 'provider_b' },
  ]);

const sb = useTestSandbox({ world: world() });
const { cfg, cli, api } = cliAgainst(sb);
/** The rows of a list answer. */
const listed = async <T>(path: string): Promise<T[]> => (await api('GET', path)).data;

const DAY = 86_400_000;
const today = new Date().toISOString().slice(0, 10);
/** A flight that started in the Insights' range and ends well after today: inside it now. */
const START = '2026-09-01';
const END = new Date(Math.max(Date.parse(`${today}T00:00:00Z`), Date.parse('2026-11-01T00:00:00Z')) + 60 * DAY).toISOString().slice(0, 10);

/** ACTIVE campaigns of A that carry their own budget and delivered (have Insights in September). */
async function deliveringCampaigns(): Promise<Campaign[]> {
  const rows = await listed<Campaign>(`/observe/${A}/campaigns?limit=100`);
  const insights = await listed<{ entityId: string }>(`/observe/insights?since=${START}&until=2026-09-30&level=campaign&advertiserId=${A}&limit=500`);
  const delivering = new Set(insights.map((r) => r.entityId));
  return rows.filter((c) => c.status === 'ACTIVE' && c.budgetLevel === 'campaign' && c.budget !== null && delivering.has(c.id));
}

/** An approved plan in USD with these Line Items and their executions; its Line Item ids in order. */
const approvedPlan = (slug: string, items: LineItemSpec[]) => approvedPlanOf(api, slug, items, { startDate: START, endDate: END });

/** A Line Item that matches campaign `c` exactly. */
const matching = (name: string, c: Campaign): LineItemSpec => matchingLine(A, c, name);

const verify = async (slug: string, ...args: string[]) => {
  const r = await cli(['plans', 'verify', slug, ...args, '-o', 'json']);
  expect(r.code, r.stderr).toBe(0);
  const rows: Array<Record<string, unknown>> = JSON.parse(r.stdout);
  return rows;
};

describe('plans verify', () => {
  it('in sync: no rows, exit 0 (also with --exit-code); a pause makes a status row and --exit-code exits 11', async () => {
    const [c] = await deliveringCampaigns();
    const [li] = await approvedPlan('h28-sync', [matching('Prospecting', c!)]);
    expect(await verify('h28-sync')).toEqual([]);
    const clean = await cli(['plans', 'verify', 'h28-sync', '--exit-code', '-o', 'ndjson']);
    expect([clean.code, clean.stdout]).toEqual([0, '']);
    expect(clean.stderr).toContain('plan h28-sync is in sync');

    // Set-up changes poll every 0.1 s (--interval), not the default 2 s: how the wait polls is not what is tested here.
    const paused = await cli(['mutations', 'pause', A, '--campaign', c!.id, '--wait', '--interval', '0.1', '-o', 'json']);
    expect(paused.code, paused.stderr).toBe(0);
    expect(await verify('h28-sync')).toEqual([
      {
        lineItemId: li,
        entityType: 'campaign',
        entityId: c!.id,
        field: 'status',
        planned: 'ACTIVE',
        live: 'PAUSED',
        note: expect.stringContaining('inside the flight'),
      },
    ]);
    const flagged = await cli(['plans', 'verify', 'h28-sync', '--exit-code', '-o', 'csv']);
    expect(flagged.code).toBe(11);
    expect(flagged.stdout.split('\n')[0]).toBe('lineItemId,entityType,entityId,field,planned,live,note');
    expect(flagged.stdout).toContain(`${li},campaign,${c!.id},status,ACTIVE,PAUSED,`);
  });

  it('a budget change makes a budget row; --line-item checks one Line Item', async () => {
    const [, c, other] = await deliveringCampaigns();
    const [li, li2] = await approvedPlan('h28-budget', [matching('Budget', c!), matching('Untouched', other!)]);
    const changed = await cli(['mutations', 'budget', A, '--campaign', c!.id, '--amount', String(c!.budget! + 7), '--wait', '--interval', '0.1', '-o', 'json']);
    expect(changed.code, changed.stderr).toBe(0);
    expect(await verify('h28-budget')).toEqual([
      { lineItemId: li, entityType: 'campaign', entityId: c!.id, field: 'budget', planned: c!.budget, live: c!.budget! + 7, note: null },
    ]);
    expect(await verify('h28-budget', '--line-item', li2!)).toEqual([]);
    const unknown = await cli(['plans', 'verify', 'h28-budget', '--line-item', 'li_nope']);
    expect(unknown.code).toBe(4);
    expect(unknown.stderr).toContain('has no Line Item li_nope');
  });

  it('an entity the provider no longer holds is "missing"; a Line Item without executions is "not launched"', async () => {
    const [c] = await deliveringCampaigns();
    const [gone, idle] = await approvedPlan('h28-missing', [
      {
        ...matching('Gone', c!),
        executions: [
          { entityType: 'campaign', entityId: c!.id },
          { entityType: 'campaign', entityId: '99999999999999' },
        ],
      },
      { ...matching('Idle', c!), executions: [] },
    ]);
    const rows = await verify('h28-missing');
    expect(rows).toContainEqual({
      lineItemId: gone,
      entityType: 'campaign',
      entityId: '99999999999999',
      field: 'exists',
      planned: true,
      live: false,
      note: 'missing',
    });
    expect(rows).toContainEqual({
      lineItemId: idle,
      entityType: null,
      entityId: null,
      field: 'executions',
      planned: 'launched',
      live: 'none',
      note: 'not launched',
    });
    expect(rows.filter((r) => r.entityId === c!.id && r.field !== 'status')).toEqual([]);
  });

  it('an advertiser whose currency is not known: the budget is "not comparable", never compared', async () => {
    const rows = await listed<Campaign>(`/observe/${NOCUR}/campaigns?limit=100`);
    const c = rows.find((r) => r.budgetLevel === 'campaign' && r.budgetType !== null)!;
    expect(c.budget).toBeNull(); // spec: budget is null when the account currency is not yet known
    const [li] = await approvedPlan('h28-nocur', [
      {
        name: 'Unknown currency',
        advertiserId: NOCUR,
        budget: 50,
        budgetType: c.budgetType!,
        executions: [{ entityType: 'campaign', entityId: c.id }],
      },
    ]);
    const budget = (await verify('h28-nocur')).filter((r) => String(r.field).startsWith('budget'));
    expect(budget).toEqual([
      {
        lineItemId: li,
        entityType: 'campaign',
        entityId: c.id,
        field: 'budget',
        planned: 50,
        live: null,
        note: "not comparable: the advertiser's currency is not known yet (the plan is in USD)",
      },
    ]);
  });

  it("reads each advertiser's executed entities with one ids= list, not one request per entity", async () => {
    const cs = (await listed<Campaign>(`/observe/${A}/campaigns?limit=5`)).map((c): Campaign => ({ ...c, budget: 10, budgetType: 'daily' }));
    const nocur = (await listed<Campaign>(`/observe/${NOCUR}/campaigns?limit=3`)).map((c) => ({ entityType: 'campaign', entityId: c.id }));
    await approvedPlan('h28-batched', [
      { ...matching('Three', cs[0]!), executions: cs.slice(0, 3).map((c) => ({ entityType: 'campaign', entityId: c.id })) },
      { ...matching('Two', cs[3]!), executions: cs.slice(3).map((c) => ({ entityType: 'campaign', entityId: c.id })) },
      { name: 'Elsewhere', advertiserId: NOCUR, budget: 10, budgetType: 'daily', executions: nocur },
    ]);
    const before = sb.services.providerCalls.calls('provider_a');
    const r = await cli(['plans', 'verify', 'h28-batched', '-o', 'json']);
    expect(r.code, r.stderr).toBe(0);
    // Eight entities of two advertisers: one live list each.
    expect(sb.services.providerCalls.calls('provider_a') - before).toBe(2);
  });

  it('an advertiser the service cannot read live (409, 501) is a row with its code, not a crash; the other Line Items are still checked', async () => {
    const [c] = await deliveringCampaigns();
    const [off, b, ok] = await approvedPlan('h28-unreadable', [
      { name: 'Disconnected', advertiserId: OFF, budget: 10, budgetType: 'daily', executions: [{ entityType: 'campaign', entityId: '1' }] },
      {
        name: 'Shorts creative',
        advertiserId: B,
        provider: 'provider_b',
        budget: 10,
        budgetType: 'daily',
        executions: [{ entityType: 'creative', entityId: '7' }],
      },
      matching('Fine', c!),
    ]);
    const r = await cli(['plans', 'verify', 'h28-unreadable', '-o', 'json']);
    expect(r.code, r.stderr).toBe(0);
    const rows: Array<Record<string, unknown>> = JSON.parse(r.stdout);
    expect(rows).toContainEqual({
      lineItemId: off,
      entityType: 'campaign',
      entityId: '1',
      field: 'read',
      planned: null,
      live: null,
      note: 'provider_not_connected (409)',
    });
    expect(rows).toContainEqual({
      lineItemId: b,
      entityType: 'creative',
      entityId: '7',
      field: 'read',
      planned: null,
      live: null,
      note: 'live_read_unsupported (501)',
    });
    expect(rows.filter((x) => x.lineItemId === ok && x.field !== 'status')).toEqual([]);
  });
});

type Pacing = Record<string, any>;
const pacing = async (slug: string, ...args: string[]) => {
  const r = await cli(['plans', 'pacing', slug, ...args, '-o', 'json']);
  expect(r.code, r.stderr).toBe(0);
  const rows: Pacing[] = JSON.parse(r.stdout);
  return rows;
};
/** The stored Insights' spend of these campaigns from `since` to `until`, summed as the service answers it. */
async function insightSpend(ids: string[], since: string, until: string): Promise<number> {
  const rows = await listed<{ spend: number }>(
    `/observe/insights?since=${since}&until=${until}&level=campaign&ids=${ids.join(',')}&advertiserId=${A}&limit=500`,
  );
  expect(rows.length).toBe(ids.length);
  return rows.reduce((n, r) => n + r.spend, 0);
}
const flightDays = Math.round((Date.parse(END) - Date.parse(START)) / DAY) + 1;

describe('plans pacing', () => {
  it('spend is the sum of GET /observe/insights for the same entities and dates; expected, pace and projected follow the formulas', async () => {
    const cs = await deliveringCampaigns();
    const [daily, lifetime] = await approvedPlan('h28-pacing', [
      { ...matching('Daily', cs[0]!), budget: 40, budgetType: 'daily', executions: [cs[0]!, cs[1]!].map((c) => ({ entityType: 'campaign', entityId: c.id })) },
      { ...matching('Lifetime', cs[2]!), budget: 3000, budgetType: 'lifetime' },
    ]);
    const rows = await pacing('h28-pacing', '--as-of', '2026-09-20');
    const d = rows.find((r) => r.lineItemId === daily)!;
    const l = rows.find((r) => r.lineItemId === lifetime)!;

    const dSpend = await insightSpend([cs[0]!.id, cs[1]!.id], START, '2026-09-20');
    expect(d.spend).toBeCloseTo(dSpend, 2);
    expect(d).toMatchObject({ asOf: '2026-09-20', daysElapsed: 20, flightDays, expected: 800, note: null });
    expect(d.pace).toBeCloseTo((dSpend / 800) * 100, 1);
    expect(d.projected).toBeCloseTo((dSpend / 20) * flightDays, 1);

    const lSpend = await insightSpend([cs[2]!.id], START, '2026-09-20');
    expect(l.spend).toBeCloseTo(lSpend, 2);
    expect(l.expected).toBeCloseTo((3000 * 20) / flightDays, 2);
    expect(l.pace).toBeCloseTo((lSpend / ((3000 * 20) / flightDays)) * 100, 1);

    // The as-of day counts, both ends of the flight do: on the first day one day has elapsed.
    const first = (await pacing('h28-pacing', '--as-of', START, '--line-item', daily!))[0]!;
    expect(first).toMatchObject({ daysElapsed: 1, expected: 40 });
    expect(first.spend).toBeCloseTo(await insightSpend([cs[0]!.id, cs[1]!.id], START, START), 2);
    // Before the flight: nothing expected, nothing spent.
    expect((await pacing('h28-pacing', '--as-of', '2026-08-31', '--line-item', daily!))[0]).toMatchObject({
      daysElapsed: 0,
      spend: 0,
      expected: 0,
      pace: null,
    });

    const csv = await cli(['plans', 'pacing', 'h28-pacing', '--as-of', '2026-09-20', '-o', 'csv']);
    expect(csv.code, csv.stderr).toBe(0);
    expect(csv.stdout.split('\n')[0]).toBe(
      'lineItemId,name,currency,budgetType,budget,startDate,endDate,asOf,daysElapsed,flightDays,spend,expected,pace,projected,inBand,note',
    );
    expect(csv.stdout).toContain(`${daily},Daily,USD,daily,40,${START},${END},2026-09-20,20,${flightDays},`);
  });

  it('spend in no known currency is "not comparable" with the plan\'s: no expected pace, never outside the band, a finding under --exit-code (#34)', async () => {
    const c = (await listed<Campaign>(`/observe/${NOCUR}/campaigns?limit=1`))[0]!;
    const [li] = await approvedPlan('h28-pace-nocur', [
      { name: 'Unknown', advertiserId: NOCUR, budget: 40, budgetType: 'daily', executions: [{ entityType: 'campaign', entityId: c.id }] },
    ]);
    const r = await cli(['plans', 'pacing', 'h28-pace-nocur', '--as-of', '2026-09-20', '--exit-code', '-o', 'json']);
    // Not comparable is not on pace: with --exit-code it is a finding (#34), and nothing here could be judged.
    expect(r.code, r.stderr).toBe(11);
    expect(r.stderr).toContain('no Line Item could be judged: 1 not comparable');
    expect(JSON.parse(r.stdout)).toEqual([
      expect.objectContaining({
        lineItemId: li,
        spend: null,
        expected: null,
        pace: null,
        inBand: null,
        note: 'not comparable: spend in an unknown currency, the plan in USD (never converted)',
      }),
    ]);
  });

  it('a campaign and its own ad groups, both executed, spend once: in the campaign', async () => {
    const [c] = await deliveringCampaigns();
    const adGroups = (await listed<Campaign>(`/observe/ad-groups?campaignId=${c!.id}&advertiserId=${A}&limit=50`)).map((g) => g.id);
    expect(adGroups.length).toBeGreaterThan(0);
    const [li] = await approvedPlan('h28-nested', [
      {
        ...matching('Nested', c!),
        budget: 40,
        budgetType: 'daily',
        executions: [c!.id, ...adGroups].map((id, i) => ({ entityType: i === 0 ? 'campaign' : 'ad_group', entityId: id })),
      },
    ]);
    const [row] = await pacing('h28-nested', '--as-of', '2026-09-20');
    expect(row).toMatchObject({ lineItemId: li, note: `${adGroups.length} executions inside another execution of this Line Item counted once, in it` });
    expect(row!.spend).toBeCloseTo(await insightSpend([c!.id], START, '2026-09-20'), 2);
  });

  it('--chart draws cumulative spend against the ideal line on a terminal, and says why not elsewhere', async () => {
    const env = { ADOPS_CONFIG_DIR: cfg, ADOPS_BASE_URL: sb.url, ADOPS_API_KEY: sb.keys.full, NO_COLOR: '1', CI: '1' }; // CI: no spinner on the stand-in terminal
    const drawn = await runAdopsInProcess(['plans', 'pacing', 'h28-pacing', '--as-of', '2026-09-20', '--chart'], {
      env,
      tty: { columns: 200 },
      timeoutMs: 60_000,
    });
    expect(drawn.code, drawn.stderr).toBe(0);
    expect(drawn.stdout).toContain('Cumulative spend against the ideal line, USD');
    // NO_COLOR: the two lines are told apart by marker, named in the legend (#29).
    expect(drawn.stdout).toMatch(/^ +\* spend to date \(USD\)$/m);
    expect(drawn.stdout).toMatch(/^ +o ideal \(USD\)$/m);
    expect(drawn.stdout).toMatch(/2026-09-01\s+2026-09-20/);
    const piped = await cli(['plans', 'pacing', 'h28-pacing', '--as-of', '2026-09-20', '--chart', '-o', 'csv']);
    expect(piped.code).toBe(0);
    expect(piped.stdout).not.toContain('Cumulative');
    expect(piped.stderr).toContain('--chart draws under a table on a terminal');
  });

  it('--band decides inBand, --exit-code exits 11 when a row is outside it; a bad band or date is a usage error', async () => {
    const [c] = await deliveringCampaigns();
    await approvedPlan('h28-band', [{ ...matching('Band', c!), budget: 40, budgetType: 'daily' }]);
    const [row] = await pacing('h28-band', '--as-of', '2026-09-20');
    const pace: number = row!.pace;
    const inside = `${Math.floor(pace - 1)},${Math.ceil(pace + 1)}`;
    const above = `${Math.ceil(pace + 1)},${Math.ceil(pace + 50)}`;
    expect((await pacing('h28-band', '--as-of', '2026-09-20', '--band', inside))[0]!.inBand).toBe(true);
    expect((await pacing('h28-band', '--as-of', '2026-09-20', '--band', above))[0]!.inBand).toBe(false);
    const ok = await cli(['plans', 'pacing', 'h28-band', '--as-of', '2026-09-20', '--band', inside, '--exit-code', '-o', 'json']);
    expect(ok.code, ok.stderr).toBe(0);
    const outside = await cli(['plans', 'pacing', 'h28-band', '--as-of', '2026-09-20', '--band', above, '--exit-code', '-o', 'json']);
    expect(outside.code).toBe(11);
    expect(outside.stderr).toContain('1 of 1 Line Items outside the band');
    // The default band is 90,110.
    expect((await pacing('h28-band', '--as-of', '2026-09-20'))[0]!.inBand).toBe(pace >= 90 && pace <= 110);
    for (const bad of [
      ['--band', '110,90'],
      ['--band', '90'],
      ['--band', 'a,b'],
      ['--as-of', '2026-02-30'],
    ]) {
      expect((await cli(['plans', 'pacing', 'h28-band', ...bad])).code, bad.join(' ')).toBe(2);
    }
  });
});
