// The demo world holds an approved plan whose Line Items were executed by real
// campaigns with Insights (issue #28), so `plans verify` and `plans pacing`
// have something to show out of the box: in process, against the demo world.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DEMO_LINE_ITEMS, DEMO_PLAN, startSandbox, type RunningSandbox } from '../../src/sandbox/index.js';
import { DEMO_KEYS } from '../../src/sandbox/fixtures/demo.js';
import { tempConfigDir } from '../helpers/cli.js';
import { runAdopsInProcess } from '../helpers/run-in-process.js';
import { request } from '../helpers/sandbox.js';

let sandbox: RunningSandbox;
const key = DEMO_KEYS['acme-full'];
const cfg = tempConfigDir();
const cli = (args: readonly string[]) =>
  runAdopsInProcess(args, { env: { ADOPS_CONFIG_DIR: cfg, ADOPS_BASE_URL: sandbox.url, ADOPS_API_KEY: key }, timeoutMs: 60_000 });

beforeAll(async () => {
  sandbox = await startSandbox({ host: '127.0.0.1', port: 0, data: ':memory:', quiet: true });
}, 60_000);
afterAll(async () => {
  await sandbox?.close();
});

describe('the demo plan', () => {
  it('is approved, in the advertiser currency, and each Line Item was executed by a campaign with Insights', async () => {
    const plan = (await request(sandbox.url, 'GET', `/context/campaign-plans/${DEMO_PLAN.slug}`, { key })).body;
    expect(plan).toMatchObject({ status: 'approved', currency: 'USD' });
    expect(plan.lineItems.map((li: { lineItemId: string }) => li.lineItemId)).toEqual([DEMO_LINE_ITEMS.prospecting, DEMO_LINE_ITEMS.retargeting]);
    for (const li of plan.lineItems) {
      expect(li).toMatchObject({ advertiserId: DEMO_PLAN.advertiserId, provider: 'provider_a' });
      expect(li.executions).toHaveLength(1);
      const ids = li.executions[0].entityId;
      const insights = await request(sandbox.url, 'GET', '/observe/insights', {
        key,
        query: { since: '2026-09-01', until: '2026-09-30', level: 'campaign', ids, advertiserId: DEMO_PLAN.advertiserId },
      });
      expect(insights.body.data[0].spend).toBeGreaterThan(0);
    }
  });

  it('verify: in sync; pacing as of the last day with Insights: one Line Item on pace, one under', async () => {
    const verify = await cli(['plans', 'verify', DEMO_PLAN.slug, '--exit-code', '-o', 'json']);
    expect([verify.code, JSON.parse(verify.stdout)], verify.stderr).toEqual([0, []]);
    const pacing = await cli(['plans', 'pacing', DEMO_PLAN.slug, '--as-of', '2026-09-30', '-o', 'json']);
    expect(pacing.code, pacing.stderr).toBe(0);
    const rows: Array<{ lineItemId: string; inBand: boolean; spend: number }> = JSON.parse(pacing.stdout);
    expect(rows.map((r) => [r.lineItemId, r.inBand])).toEqual([
      [DEMO_LINE_ITEMS.prospecting, false],
      [DEMO_LINE_ITEMS.retargeting, true],
    ]);
    for (const r of rows) expect(r.spend).toBeGreaterThan(0);
  });
});
