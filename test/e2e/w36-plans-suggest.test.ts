// `adops plans pacing --suggest FILE` (issue #36) in JPY, which has no decimals,
// in process against a sandbox in this process: a Line Item executed by two
// campaigns gets one daily budget each, in proportion to their budgets, in
// whole yen, and `mutations apply` takes them; a lifetime budget and a Line
// Item with nothing running are listed on stderr with the reason, no row.
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { useTestSandbox } from '../helpers/sandbox.js';
import { approvedPlan as approvedPlanOf, byCampaigns, generatedWorld } from '../helpers/plan-world.js';
import { cliAgainst } from '../helpers/sandbox-cli.js';
import { tempDir } from '../helpers/temp.js';

const J = 'acc_w36_jpy';

const world = () => generatedWorld([{ id: J, currency: 'JPY' }]);

const sb = useTestSandbox({ world: world() });
const dir = tempDir('w36-suggest-');
const { cli, api } = cliAgainst(sb);

type Campaign = { id: string; status: string; budget: number | null; budgetLevel: string | null; budgetType: string | null };
const END = '2026-12-31';

/** An approved JPY plan, each Line Item executed by the campaigns named. */
const approvedPlan = (slug: string, items: Array<{ budget: number; budgetType: 'daily' | 'lifetime'; campaigns: string[] }>, currency = 'JPY') =>
  approvedPlanOf(
    api,
    slug,
    items.map((it) => ({ advertiserId: J, budget: it.budget, budgetType: it.budgetType, executions: byCampaigns(it.campaigns) })),
    { startDate: '2026-09-01', endDate: END, currency },
  );

describe('plans pacing --suggest in JPY', () => {
  it('two campaigns: whole yen in proportion to their budgets, summing to the target; apply takes them; lifetime and paused are listed', async () => {
    const all: Campaign[] = (await api('GET', `/observe/${J}/campaigns?limit=100`)).data;
    const own = all.filter((c) => c.status === 'ACTIVE' && c.budgetLevel === 'campaign' && c.budgetType === 'daily' && c.budget !== null);
    expect(own.length).toBeGreaterThanOrEqual(3);
    const [a, b, paused] = own;
    // Set-up changes poll every 0.1 s (--interval), not the default 2 s: how the wait polls is not what is tested here.
    expect((await cli(['mutations', 'pause', J, '--campaign', paused!.id, '--wait', '--interval', '0.1'])).code).toBe(0);
    const [split, lifetime, idle] = await approvedPlan('w36-jpy', [
      { budget: 1_000_003, budgetType: 'daily', campaigns: [a!.id, b!.id] },
      { budget: 5_000_000, budgetType: 'lifetime', campaigns: [a!.id] },
      { budget: 900_000, budgetType: 'daily', campaigns: [paused!.id] },
    ]);
    const file = join(dir, 'jpy.csv');
    const r = await cli(['plans', 'pacing', 'w36-jpy', '--as-of', '2026-09-30', '--band', '100,100', '--suggest', file, '-o', 'json']);
    expect(r.code, r.stderr).toBe(0);
    const paced = JSON.parse(r.stdout).find((p: { lineItemId: string }) => p.lineItemId === split);
    expect(paced.inBand).toBe(false);
    const lines = readFileSync(file, 'utf8').trim().split('\n');
    expect(lines[0]).toBe('advertiserId,action,targetType,targetId,name,amount,budgetType,bidStrategy,bidAmount');
    const rows = lines.slice(1).map((l) => l.split(','));
    expect(rows.map((x) => [x[1], x[2], x[3]])).toEqual([
      ['set_budget', 'campaign', a!.id],
      ['set_budget', 'campaign', b!.id],
    ]);
    const amounts = rows.map((x) => x[5]!);
    for (const amount of amounts) expect(amount).toMatch(/^[1-9]\d*$/); // whole yen
    const [x, y] = amounts.map(Number);
    const daysLeft = paced.flightDays - paced.daysElapsed;
    expect(x! + y!).toBe(Math.round((1_000_003 * paced.flightDays - paced.spend) / daysLeft));
    // In proportion to their current budgets, to the yen.
    expect(Math.abs(x! - ((x! + y!) * a!.budget!) / (a!.budget! + b!.budget!))).toBeLessThanOrEqual(1);
    expect(r.stderr).toContain(`not proposed (${lifetime}): a lifetime budget`);
    expect(r.stderr).toContain(`not proposed (${idle}): nothing running`);

    const applied = await cli(['mutations', 'apply', file, '--wait', '--interval', '0.1', '-o', 'json']);
    expect(applied.code, applied.stderr).toBe(0);
    const live: Campaign[] = (await api('GET', `/observe/${J}/campaigns?ids=${a!.id},${b!.id}`)).data;
    expect(live.map((c) => [c.id, c.budget]).sort()).toEqual(
      [
        [a!.id, x],
        [b!.id, y],
      ].sort(),
    );
  });

  it('Line Items pacing could not judge (not launched; not started as of the day asked): listed with the verdict, no row', async () => {
    const all: Campaign[] = (await api('GET', `/observe/${J}/campaigns?limit=100`)).data;
    const c = all.find((x) => x.status === 'ACTIVE' && x.budgetLevel === 'campaign' && x.budgetType === 'daily')!;
    const [li] = await approvedPlan('w36-unjudged', [
      { budget: 100, budgetType: 'daily', campaigns: [] },
      { budget: 100, budgetType: 'daily', campaigns: [c.id] },
    ]);
    const file = join(dir, 'unjudged.ndjson');
    const r = await cli(['plans', 'pacing', 'w36-unjudged', '--as-of', '2026-09-30', '--band', '0,1000000', '--suggest', file]);
    expect(r.code, r.stderr).toBe(0);
    expect(readFileSync(file, 'utf8')).toBe('');
    expect(r.stderr).toContain(`not proposed (${li}): not launched: not launched`);
    const early = await cli(['plans', 'pacing', 'w36-unjudged', '--as-of', '2026-08-01', '--suggest', join(dir, 'early.csv')]);
    expect(early.code, early.stderr).toBe(0);
    expect(readFileSync(join(dir, 'early.csv'), 'utf8').trim().split('\n')).toHaveLength(1); // the header alone
    expect(early.stderr).toContain('not started: the flight has not started');
  });
});
