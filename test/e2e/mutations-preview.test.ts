// `adops mutations apply FILE --preview` against the sandbox behind a recording proxy: it sends
// no change (the proxy sees no POST), and each row's "current" is what a live read of the same
// target answers (money in the advertiser's currency, with its own decimals); every output
// format writes the rows; a live read that breaks the contract is never judged "no change".
import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { formatMoney } from '../../src/cli/output/values.js';
import { mutationsWorld } from '../sandbox/mutations/world.js';
import { sandboxBehindProxy } from '../helpers/drop-proxy.js';
import { runAdopsInProcess } from '../helpers/run-in-process.js';
import { tempConfigDir } from '../helpers/cli.js';
import { TEST_FULL_KEY } from '../helpers/sandbox.js';
import { tempDir } from '../helpers/temp.js';

const t = sandboxBehindProxy(mutationsWorld());
const dir = tempDir('adops-preview-');
const cfg = tempConfigDir();
const run = (args: string[], base = t.proxy.url) =>
  runAdopsInProcess(args, { env: { ADOPS_CONFIG_DIR: cfg, ADOPS_BASE_URL: base, ADOPS_API_KEY: TEST_FULL_KEY }, timeoutMs: 60_000 });
const HEADER = 'advertiserId,action,targetType,targetId,name,amount,budgetType,bidStrategy,bidAmount,body';

type Live = { id: string; name: string; status: string; budget: number | null; budgetType: string | null; currency: string | null; bidStrategy: string | null };
async function live(advertiserId: string, type: 'campaigns' | 'ad-groups', id: string): Promise<Live> {
  const res = await t.sb.req('GET', `/observe/${advertiserId}/${type}`, { key: TEST_FULL_KEY });
  const data: Live[] = res.body.data;
  const row = data.find((r) => r.id === id);
  if (!row) throw new Error(`no live ${type} ${id}`);
  return row;
}

type Shown = { row: number; advertiser: string; target: string; field: string; current: unknown; new: unknown; effect: string; note: string | null };

describe('mutations apply --preview', () => {
  it('sends no change, and shows each target as a live read answers it, with its effect', async () => {
    const a100 = await live('acc_a', 'campaigns', '100');
    const c400 = await live('acc_c', 'campaigns', '400');
    const a200 = await live('acc_a', 'ad-groups', '200');
    const file = join(dir, 'preview.csv');
    writeFileSync(
      file,
      [
        HEADER,
        `acc_a,pause,campaign,100,,,,,,`, // ACTIVE: a change
        `acc_a,rename,campaign,100,${a100.name},,,,,`, // already so
        `acc_c,set_budget,campaign,400,,35.5,,,,`,
        `acc_a,set_bid,ad_group,200,,,,COST_CAP,2.25,`,
        `acc_a,delete,campaign,100,,,,,,`,
        `acc_b,pause,campaign,no-such,,,,,,`,
        `acc_nc,pause,campaign,1,,,,,,`, // not connected: its value cannot be read
      ].join('\n') + '\n',
    );
    const r = await run(['mutations', 'apply', file, '--preview', '--output', 'json']);
    expect(r.code, r.stderr).toBe(0);
    expect(t.proxy.seen.filter((s) => s.method !== 'GET')).toEqual([]);
    const rows: Shown[] = JSON.parse(r.stdout);
    expect(rows.map((x) => [x.row, x.target, x.field, x.effect])).toEqual([
      [2, 'campaign 100', 'status', 'change'],
      [3, 'campaign 100', 'name', 'no change'],
      [4, 'campaign 400', 'budget', 'change'],
      [5, 'ad_group 200', 'bid', 'change'],
      [6, 'campaign 100', 'status', 'cannot undo'],
      [7, 'campaign no-such', 'pause', 'missing'],
      [8, 'campaign 1', 'pause', 'cannot undo'],
    ]);
    expect(rows[0]).toMatchObject({ advertiser: 'acc_a', current: a100.status, new: 'PAUSED' });
    expect(rows[1]).toMatchObject({ current: a100.name, new: a100.name });
    expect(rows[2]).toMatchObject({ current: `${formatMoney(c400.budget!, c400.currency!)} ${c400.budgetType}`, new: formatMoney(35.5, c400.currency!) });
    expect(rows[3]!.current).toBe(`${a200.bidStrategy} / ${formatMoney(1.5, a200.currency!)}`);
    expect(rows[6]!.note).toMatch(/provider_not_connected/);
    // The live reads were batched: one list per advertiser and type, narrowed with ids=.
    expect(t.proxy.seen.filter((s) => s.path === '/observe/acc_a/campaigns')).toHaveLength(1);
  });

  it('every output format writes the rows; in GitHub Actions the step summary shows the preview', async () => {
    const file = join(dir, 'formats.csv');
    writeFileSync(file, `${HEADER}\nacc_a,pause,campaign,100,,,,,,\nacc_b,rename,ad_group,301,New B,,,,,\n`);
    for (const output of ['table', 'json', 'csv', 'ndjson', 'markdown']) {
      const r = await run(['mutations', 'apply', file, '--preview', '--output', output]);
      expect(r.code, `${output}: ${r.stderr}`).toBe(0);
      expect(r.stdout, output).toMatch(/New B/);
      expect(r.stdout, output).toMatch(/campaign 100/);
    }
    const summary = join(dir, 'summary.md');
    writeFileSync(summary, '');
    const r = await runAdopsInProcess(['mutations', 'apply', file, '--preview'], {
      env: { ADOPS_CONFIG_DIR: cfg, ADOPS_BASE_URL: t.proxy.url, ADOPS_API_KEY: TEST_FULL_KEY, GITHUB_ACTIONS: 'true', GITHUB_STEP_SUMMARY: summary },
      timeoutMs: 60_000,
    });
    expect(r.code, r.stderr).toBe(0);
    const md = readFileSync(summary, 'utf8');
    expect(md).toMatch(/--preview/);
    expect(md).toMatch(/\| *effect *\|/);
    expect(md).toMatch(/New B/);
    expect(t.proxy.seen.filter((s) => s.method === 'POST')).toEqual([]);
  });
});
