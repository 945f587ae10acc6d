// `adops plans verify --fix FILE` (issue #36), in process against a sandbox in
// this process: the change file it writes is an ordinary one, `mutations apply`
// sends it unchanged, and afterwards `plans verify --exit-code` exits 0. What
// cannot be fixed (a missing entity, a budget in no known currency) is listed
// on stderr and has no row; an existing FILE is never overwritten without --force.
import { existsSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { useTestSandbox } from '../helpers/sandbox.js';
import { approvedPlan as approvedPlanOf, byCampaigns, campaignsOf as campaignsOfAdvertiser, generatedWorld, matchingLine } from '../helpers/plan-world.js';
import type { PlanCampaign as Campaign } from '../helpers/plan-world.js';
import { cliAgainst } from '../helpers/sandbox-cli.js';
import { tempDir } from '../helpers/temp.js';

const A = 'acc_w36_fix_a';
const NOCUR = 'acc_w36_fix_nocur';

const world = () =>
  generatedWorld([
    { id: A, currency: 'USD' },
    { id: NOCUR, currency: null },
  ]);

const sb = useTestSandbox({ world: world() });
const dir = tempDir('w36-fix-');
const { cli, api } = cliAgainst(sb);

const campaignsOf = (advertiserId: string) => campaignsOfAdvertiser(api, advertiserId);
/** ACTIVE campaigns that carry their own budget. */
const ownBudget = async (advertiserId: string) =>
  (await campaignsOf(advertiserId)).filter((c) => c.status === 'ACTIVE' && c.budgetLevel === 'campaign' && c.budgetType !== null);

const END = new Date(Date.now() + 90 * 86_400_000).toISOString().slice(0, 10);

/** An approved USD plan whose Line Items each match one campaign (its budget, type, objective) and executed it. */
const approvedPlan = (slug: string, items: Array<{ advertiserId: string; c: Campaign; budget?: number; extra?: string[] }>) =>
  approvedPlanOf(
    api,
    slug,
    items.map((it) => ({
      ...matchingLine(it.advertiserId, it.c),
      budget: it.budget ?? it.c.budget,
      executions: byCampaigns([it.c.id, ...(it.extra ?? [])]),
    })),
    { startDate: '2026-09-01', endDate: END },
  );

const ok = async (args: string[]) => {
  const r = await cli(args);
  expect(r.code, `${args.join(' ')}: ${r.stderr}`).toBe(0);
  return r;
};

describe('plans verify --fix', () => {
  it('a paused campaign and a changed budget: the file, applied unchanged, brings verify back to exit 0', async () => {
    const [c, d] = await ownBudget(A);
    await approvedPlan('w36-fix', [
      { advertiserId: A, c: c! },
      { advertiserId: A, c: d! },
    ]);
    // Set-up changes poll every 0.1 s (--interval), not the default 2 s: how the wait polls is not what is tested here.
    await ok(['mutations', 'pause', A, '--campaign', c!.id, '--wait', '--interval', '0.1', '-o', 'json']);
    await ok(['mutations', 'budget', A, '--campaign', c!.id, '--amount', String(c!.budget! + 7), '--wait', '--interval', '0.1', '-o', 'json']);
    await ok(['mutations', 'budget', A, '--campaign', d!.id, '--amount', String(d!.budget! + 3.5), '--wait', '--interval', '0.1', '-o', 'json']);
    expect((await cli(['plans', 'verify', 'w36-fix', '--exit-code'])).code).toBe(11);

    const file = join(dir, 'fix.csv');
    const fixed = await cli(['plans', 'verify', 'w36-fix', '--fix', file, '-o', 'json']);
    expect(fixed.code, fixed.stderr).toBe(0);
    expect(JSON.parse(fixed.stdout)).toHaveLength(3); // the rows printed as ever
    expect(fixed.stderr).toContain(`3 change(s) written to ${file}`);
    expect(readFileSync(file, 'utf8').split('\n').sort()).toEqual(
      [
        'advertiserId,action,targetType,targetId,name,amount,budgetType,bidStrategy,bidAmount',
        `${A},activate,campaign,${c!.id},,,,,`,
        `${A},set_budget,campaign,${c!.id},,${c!.budget},,,`,
        `${A},set_budget,campaign,${d!.id},,${d!.budget},,,`,
        '',
      ].sort(),
    );
    await ok(['mutations', 'apply', file, '--wait', '--interval', '0.1', '-o', 'json']);
    const after = await cli(['plans', 'verify', 'w36-fix', '--exit-code', '-o', 'ndjson']);
    expect([after.code, after.stdout], after.stderr).toEqual([0, '']);

    // In sync: the file is written, empty of changes (a cron job's quiet day), and apply sends nothing.
    const quiet = join(dir, 'quiet.ndjson');
    await ok(['plans', 'verify', 'w36-fix', '--fix', quiet]);
    expect(readFileSync(quiet, 'utf8')).toBe('');
    await ok(['mutations', 'apply', quiet]);
  });

  it('NDJSON: whole bodies; a missing entity and a budget in no known currency are listed on stderr, never proposed', async () => {
    const [c] = await ownBudget(A);
    const [n] = (await campaignsOf(NOCUR)).filter((x) => x.budgetLevel === 'campaign' && x.status === 'ACTIVE');
    const [li, nocur] = await approvedPlan('w36-fix-partial', [
      { advertiserId: A, c: c!, extra: ['99999999999999'] },
      { advertiserId: NOCUR, c: { ...n!, budget: 50, budgetType: 'daily' } },
    ]);
    await ok(['mutations', 'pause', A, '--campaign', c!.id, '--wait', '--interval', '0.1', '-o', 'json']);
    const file = join(dir, 'partial.ndjson');
    const r = await ok(['plans', 'verify', 'w36-fix-partial', '--fix', file]);
    const lines = readFileSync(file, 'utf8')
      .trim()
      .split('\n')
      .map((l) => JSON.parse(l));
    expect(lines).toEqual([{ advertiserId: A, target: { type: 'campaign', id: c!.id }, action: 'activate' }]);
    expect(r.stderr).toMatch(new RegExp(`not proposed \\(${li}, campaign 99999999999999\\): the entity is missing`));
    expect(r.stderr).toMatch(new RegExp(`not proposed \\(${nocur}, campaign ${n!.id}\\): .*not comparable: the advertiser's currency is not known`));
    await ok(['mutations', 'apply', file, '--wait', '--interval', '0.1']);
    const rows = JSON.parse((await ok(['plans', 'verify', 'w36-fix-partial', '-o', 'json'])).stdout);
    expect(rows.filter((x: { field: string }) => x.field === 'status')).toEqual([]);
  });

  it('an existing FILE: exit 2 before anything is read, the file untouched; --force writes over it', async () => {
    const [c] = await ownBudget(A);
    await approvedPlan('w36-fix-exists', [{ advertiserId: A, c: c! }]);
    const file = join(dir, 'exists.csv');
    writeFileSync(file, 'keep me\n');
    const refused = await cli(['plans', 'verify', 'w36-fix-exists', '--fix', file]);
    expect(refused.code).toBe(2);
    expect(refused.stderr).toContain('exists: not overwritten');
    expect(readFileSync(file, 'utf8')).toBe('keep me\n');
    await ok(['plans', 'verify', 'w36-fix-exists', '--fix', file, '--force']);
    expect(readFileSync(file, 'utf8')).toMatch(/^advertiserId,action,/);
    expect(existsSync(file)).toBe(true);
  });
});
