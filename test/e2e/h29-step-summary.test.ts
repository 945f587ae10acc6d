// GitHub step summary (issue #29 item 3): with GITHUB_ACTIONS=true and
// GITHUB_STEP_SUMMARY set, `assets sync`, `assets upload`, `mutations apply`
// and `plans apply` append a markdown table of their files or rows (ids and
// states, failures first) to that file; stdout stays the command's result;
// outside GitHub Actions nothing is written. In process, against an in-process
// sandbox of the demo world.
import { existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { DEMO, tempConfigDir } from '../helpers/cli.js';
import { runAdopsInProcess } from '../helpers/run-in-process.js';
import { DEMO_WORLD, useTestSandbox } from '../helpers/sandbox.js';
import { tableRows } from '../helpers/markdown-cells.js';
import { tempDir } from '../helpers/temp.js';
import { SOCIAL_LINE_ITEM } from '../helpers/plans.js';
import { gif, png } from '../unit/uploads/media-samples.js';

const ACC = 'acc_acme_a_001';
const sb = useTestSandbox({ world: DEMO_WORLD });
const dir = tempDir('adops-h29-summary-');
const cfg = tempConfigDir();
let n = 0;
/** A fresh summary file (GitHub gives each step its own), and the run's env with it. */
function summaryEnv(extra: Record<string, string> = {}) {
  const file = join(dir, `summary-${++n}.md`);
  writeFileSync(file, '');
  return {
    file,
    env: { ADOPS_CONFIG_DIR: cfg, ADOPS_BASE_URL: sb.url, ADOPS_API_KEY: DEMO.full, GITHUB_ACTIONS: 'true', GITHUB_STEP_SUMMARY: file, ...extra },
  };
}
const run = (args: string[], env: Record<string, string>) => runAdopsInProcess(args, { env, timeoutMs: 60_000 });

describe('GITHUB_STEP_SUMMARY', () => {
  it('assets sync of two files appends a table naming both files and their Asset ids; stdout is unchanged', async () => {
    const creatives = join(dir, 'creatives');
    mkdirSync(creatives);
    writeFileSync(join(creatives, 'hero.png'), png(64, 64));
    writeFileSync(join(creatives, 'banner.gif'), gif(32, 8));
    const { file, env } = summaryEnv();
    const r = await run(['assets', 'sync', creatives, '--output', 'json'], env);
    expect(r.code, r.stderr).toBe(0);
    const printed: Array<{ file: string; id: string; result: string }> = JSON.parse(r.stdout);
    expect(printed).toHaveLength(2);
    const md = readFileSync(file, 'utf8');
    expect(md).toMatch(/^### `adops assets sync /);
    expect(md).toContain('| file | result | id | filename | error |');
    const rows = tableRows(md);
    expect(rows).toHaveLength(2);
    for (const p of printed) {
      expect(p.id).toMatch(/^ast_/);
      expect(rows).toContainEqual([p.file, 'uploaded', p.id, p.file.split('/').pop(), '']);
    }
    expect(md).not.toContain('{'); // no JSON: a table
  });

  it('assets upload lists a refused file first, with why', async () => {
    writeFileSync(join(dir, 'ok.png'), png(16, 16));
    writeFileSync(join(dir, 'notes.png'), 'not an image at all');
    const { file, env } = summaryEnv();
    const r = await run(['assets', 'upload', join(dir, 'ok.png'), join(dir, 'notes.png'), '--output', 'json'], env);
    expect(r.code).toBe(7);
    const rows = tableRows(readFileSync(file, 'utf8'));
    expect(rows.map((c) => c[1])).toEqual(['failed', 'uploaded']);
    expect(rows[0]![0]).toContain('notes.png');
    expect(rows[0]![4]).not.toBe('');
    expect(rows[1]![2]).toMatch(/^ast_/);
    expect(readFileSync(file, 'utf8')).toMatch(/2 rows: 1 failed, 1 uploaded \(1 not done, listed first\)/);
  });

  it('mutations apply appends a table of its rows with mutation ids and states', async () => {
    const campaigns: Array<{ id: string }> = (await sb.req('GET', '/observe/campaigns', { key: DEMO.full, query: { advertiserId: ACC, limit: 3 } })).body.data;
    const csv = join(dir, 'renames.csv');
    writeFileSync(
      csv,
      ['advertiserId,action,targetType,targetId,name', ...campaigns.slice(0, 2).map((c, i) => `${ACC},rename,campaign,${c.id},Summary ${i}`)].join('\n') + '\n',
    );
    const { file, env } = summaryEnv();
    const r = await run(['mutations', 'apply', csv, '--wait', '--interval', '0.05', '--output', 'json'], env);
    expect(r.code, r.stderr).toBe(0);
    const printed: Array<{ row: number; mutationId: string; state: string }> = JSON.parse(r.stdout);
    const md = readFileSync(file, 'utf8');
    expect(md).toContain('### `adops mutations apply');
    expect(md).toContain('| row | action | target | mutationId | state | error |');
    const rows = tableRows(md);
    expect(rows).toHaveLength(2);
    for (const p of printed) {
      expect(p.state).toBe('succeeded');
      expect(rows).toContainEqual([String(p.row), 'rename', `campaign ${campaigns[p.row - 2]!.id}`, p.mutationId, 'succeeded', '']);
    }
  });

  it('plans apply appends the plan and its Line Items with ids and states', async () => {
    const plan = join(dir, 'plan.json');
    writeFileSync(
      plan,
      JSON.stringify({
        slug: 'h29-summary',
        name: 'Summary plan',
        currency: 'USD',
        budget: 1000,
        startDate: '2026-10-01',
        endDate: '2026-10-31',
        lineItems: [SOCIAL_LINE_ITEM],
      }),
    );
    const { file, env } = summaryEnv();
    const r = await run(['plans', 'apply', plan, '--output', 'json'], env);
    expect(r.code, r.stderr).toBe(0);
    const applied: { slug: string; lineItems: Array<{ lineItemId: string }> } = JSON.parse(r.stdout);
    const rows = tableRows(readFileSync(file, 'utf8'));
    expect(rows[0]!.slice(0, 3)).toEqual(['plan', 'Summary plan', applied.slug]);
    expect(rows[1]!.slice(0, 4)).toEqual(['lineItems[0]', 'Social', applied.lineItems[0]!.lineItemId, 'added']);
  });

  it('plans apply refused at a Line Item lists the refusal first, and the plan as deleted again', async () => {
    const plan = join(dir, 'plan-refused.json');
    const bad = { ...SOCIAL_LINE_ITEM, name: 'Zero', budget: 0 };
    writeFileSync(
      plan,
      JSON.stringify({
        slug: 'h29-refused',
        name: 'Refused plan',
        currency: 'USD',
        budget: 1000,
        startDate: '2026-10-01',
        endDate: '2026-10-31',
        lineItems: [SOCIAL_LINE_ITEM, bad],
      }),
    );
    const { file, env } = summaryEnv();
    const r = await run(['plans', 'apply', plan, '--output', 'json'], env);
    expect(r.code).toBe(7);
    const rows = tableRows(readFileSync(file, 'utf8'));
    expect(rows.map((c) => [c[0], c[3]])).toEqual([
      ['plan', 'deleted again'],
      ['lineItems[1]', 'refused'],
      ['lineItems[0]', 'removed with the plan'],
    ]);
    expect(rows[1]![4]).not.toBe('');
  });

  it('writes nothing outside GitHub Actions (GITHUB_ACTIONS unset), and a summary file it cannot write is a warning only', async () => {
    writeFileSync(join(dir, 'quiet.png'), png(8, 8));
    const { file, env } = summaryEnv({ GITHUB_ACTIONS: '' });
    const quiet = await run(['assets', 'upload', join(dir, 'quiet.png'), '--output', 'json'], env);
    expect(quiet.code, quiet.stderr).toBe(0);
    expect(readFileSync(file, 'utf8')).toBe('');

    const missingDir = join(dir, 'no-such-dir', 'summary.md');
    const r = await run(['assets', 'upload', join(dir, 'quiet.png'), '--output', 'json'], { ...env, GITHUB_ACTIONS: 'true', GITHUB_STEP_SUMMARY: missingDir });
    expect(r.code, r.stderr).toBe(0);
    expect(r.stderr).toMatch(/could not append to GITHUB_STEP_SUMMARY/);
    expect(existsSync(missingDir)).toBe(false);
  });
});
