// `adops plans pacing --suggest FILE` on the demo plan (issue #36), in process
// against the demo world: the suggested daily budgets × the days left + the
// spend to date make the planned total (to one minor unit a day per entity),
// and `mutations apply` sends the file unchanged, every amount accepted.
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DEMO_LINE_ITEMS, DEMO_PLAN, startSandbox, type RunningSandbox } from '../../src/sandbox/index.js';
import { DEMO_KEYS } from '../../src/sandbox/fixtures/demo.js';
import { tempConfigDir } from '../helpers/cli.js';
import { runAdopsInProcess } from '../helpers/run-in-process.js';
import { request } from '../helpers/sandbox.js';
import { tempDir } from '../helpers/temp.js';

let sandbox: RunningSandbox;
const key = DEMO_KEYS['acme-full'];
const cfg = tempConfigDir();
const dir = tempDir('w36-suggest-demo-');
const cli = (args: readonly string[]) =>
  runAdopsInProcess(args, { env: { ADOPS_CONFIG_DIR: cfg, ADOPS_BASE_URL: sandbox.url, ADOPS_API_KEY: key }, timeoutMs: 60_000 });

beforeAll(async () => {
  sandbox = await startSandbox({ host: '127.0.0.1', port: 0, data: ':memory:', quiet: true });
}, 60_000);
afterAll(async () => {
  await sandbox?.close();
});

type PacingRow = { lineItemId: string; budget: number; budgetType: string; spend: number; flightDays: number; daysElapsed: number; inBand: boolean };

/** The ACTIVE ad groups of a campaign, read live: where its budget lives when the campaign does not carry it. */
async function runningAdGroups(campaignId: string): Promise<string[]> {
  const q = { campaignId, advertiserId: DEMO_PLAN.advertiserId };
  const ids = (await request(sandbox.url, 'GET', '/observe/ad-groups', { key, query: q })).body.data.map((g: { id: string }) => g.id).join(',');
  const live = (await request(sandbox.url, 'GET', `/observe/${DEMO_PLAN.advertiserId}/ad-groups`, { key, query: { ids } })).body.data;
  return live.filter((g: { status: string }) => g.status === 'ACTIVE').map((g: { id: string }) => g.id);
}

/** A change file's CSV rows, by column. */
function csvRows(text: string): Array<Record<string, string>> {
  const [header, ...lines] = text.trim().split('\n');
  const cols = header!.split(',');
  return lines.map((l) => Object.fromEntries(l.split(',').map((v, i) => [cols[i]!, v])));
}

describe('plans pacing --suggest on the demo plan', () => {
  it('daily budgets × days left + spend to date = the planned total; apply sends the file unchanged and the live budgets are its amounts', async () => {
    const file = join(dir, 'suggest.csv');
    // A band both Line Items are outside: Prospecting's budget lives on its campaign, Retargeting's on its ad groups.
    const r = await cli(['plans', 'pacing', DEMO_PLAN.slug, '--as-of', '2026-09-30', '--band', '99,100', '--suggest', file, '-o', 'json']);
    expect(r.code, r.stderr).toBe(0);
    const paced: PacingRow[] = JSON.parse(r.stdout);
    expect(paced.map((p) => [p.lineItemId, p.inBand, p.budgetType])).toEqual([
      [DEMO_LINE_ITEMS.prospecting, false, 'daily'],
      [DEMO_LINE_ITEMS.retargeting, false, 'daily'],
    ]);
    const rows = csvRows(readFileSync(file, 'utf8'));
    const plan = (await request(sandbox.url, 'GET', `/context/campaign-plans/${DEMO_PLAN.slug}`, { key })).body;
    for (const p of paced) {
      const li = plan.lineItems.find((x: { lineItemId: string }) => x.lineItemId === p.lineItemId);
      const executed: string = li.executions[0].entityId;
      const live = (await request(sandbox.url, 'GET', `/observe/${DEMO_PLAN.advertiserId}/campaigns`, { key, query: { ids: executed } })).body.data[0];
      // Where the budget lives: the campaign itself, or its ad groups (each a row of its own).
      const carriers = live.budgetLevel === 'campaign' ? [executed] : await runningAdGroups(executed);
      const mine = rows.filter((x) => carriers.includes(x.targetId!));
      expect(mine.length, p.lineItemId).toBe(carriers.length);
      if (p.lineItemId === DEMO_LINE_ITEMS.retargeting) expect(mine.every((x) => x.targetType === 'ad_group') && mine.length > 0).toBe(true);
      for (const x of mine)
        expect([x.action, x.advertiserId, x.amount]).toEqual(['set_budget', DEMO_PLAN.advertiserId, expect.stringMatching(/^\d+(\.\d{1,2})?$/)]);
      const daily = mine.reduce((n, x) => n + Number(x.amount), 0);
      const daysLeft = p.flightDays - p.daysElapsed;
      // The split sums to the day's target rounded to the cent; times the days left, plus what was spent, the planned total.
      expect(Math.abs(daily - (p.budget * p.flightDays - p.spend) / daysLeft)).toBeLessThanOrEqual(0.005 + 1e-9);
      expect(Math.abs(daily * daysLeft + p.spend - p.budget * p.flightDays)).toBeLessThanOrEqual(0.005 * daysLeft + 1e-6);
    }
    expect(rows).toHaveLength(new Set(rows.map((x) => x.targetId)).size);

    const applied = await cli(['mutations', 'apply', file, '--wait', '--interval', '0.1', '-o', 'json']);
    expect(applied.code, applied.stderr).toBe(0);
    expect(JSON.parse(applied.stdout).map((x: { state: string }) => x.state)).toEqual(rows.map(() => 'succeeded'));
    for (const x of rows) {
      const path = x.targetType === 'campaign' ? 'campaigns' : 'ad-groups';
      const live = (await request(sandbox.url, 'GET', `/observe/${DEMO_PLAN.advertiserId}/${path}`, { key, query: { ids: x.targetId } })).body.data[0];
      expect([x.targetId, live.budget]).toEqual([x.targetId, Number(x.amount)]);
    }
  });

  it('on pace: no change; an existing FILE is refused (exit 2) unless --force', async () => {
    const file = join(dir, 'on-pace.ndjson');
    const r = await cli(['plans', 'pacing', DEMO_PLAN.slug, '--as-of', '2026-09-30', '--band', '0,1000', '--suggest', file]);
    expect(r.code, r.stderr).toBe(0);
    expect(readFileSync(file, 'utf8')).toBe('');
    expect(r.stderr).toContain('0 change(s) written');
    const again = await cli(['plans', 'pacing', DEMO_PLAN.slug, '--suggest', file]);
    expect([again.code, again.stdout]).toEqual([2, '']);
    expect((await cli(['plans', 'pacing', DEMO_PLAN.slug, '--suggest', file, '--force'])).code).toBe(0);
  });
});
