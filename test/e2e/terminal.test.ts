// A good citizen of the terminal (issue 18, items 7-11), as a user runs it: piped
// (in process), and the built binary under a pty (util-linux `script`) at 80 columns and
// at 0 columns (what `script` and some CI runners report). Colour follows
// NO_COLOR / FORCE_COLOR / CLICOLOR_FORCE; tables never drop or cut silently;
// CSV carries the currency and a header on a quiet day; globs as bash reads
// them; messages in plain sentences.
import { chmodSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it, vi } from 'vitest';
import { png } from '../unit/uploads/media-samples.js';
import { BIN, DEMO, ROOT, runAdopsTty, tempConfigDir } from '../helpers/cli.js';
import { runAdopsInProcess } from '../helpers/run-in-process.js';
import { useDemoSandbox } from '../helpers/demo-sandbox.js';
import { spawnAsync } from '../helpers/spawn-async.js';
import { tempDir } from '../helpers/temp.js';
import { SOCIAL_LINE_ITEM } from '../helpers/plans.js';

const cfg = tempConfigDir();
const env = (extra: Record<string, string> = {}) => ({ ADOPS_CONFIG_DIR: cfg, ADOPS_BASE_URL: sandbox.url, ADOPS_API_KEY: DEMO.full, ...extra });
// Piped runs in this process (helpers/run-in-process.ts: the same entry decision, streams that are not terminals):
// a spawned binary costs ~0.15-0.3 s of CPU each. The terminal runs below are processes under a pty.
const piped = (args: string[], extra: Record<string, string> = {}, stdin?: string) =>
  runAdopsInProcess(args, { env: env(extra), timeoutMs: 30_000, ...(stdin !== undefined ? { stdin } : {}) });
const tty = (args: string[], cols: number, extra: Record<string, string> = {}) => runAdopsTty(args, { env: env(extra), cols, timeoutMs: 30_000 });

// Each test runs the binary several times; on a loaded machine that outlasts the default.
vi.setConfig({ testTimeout: 120_000 });

const ESC = '\u001b[';
// The table's own lines (a pty's text arrives with \r\n and spinner codes).
const tableLines = (text: string) =>
  text
    .split(/\r?\n/)
    .map((l) => l.replace(/\u001b\[[0-9;?]*[A-Za-z]/g, ''))
    .filter((l) => /[┌│├└]/.test(l))
    .map((l) => l.slice(l.search(/[┌│├└]/)));
const headerOf = (text: string) =>
  tableLines(text)[1]!
    .split('│')
    .map((c) => c.trim())
    .filter(Boolean);

const SEPT = ['--since', '2026-09-01', '--until', '2026-09-30'];

const sandbox = useDemoSandbox();

describe('colour: NO_COLOR wins over everything, forced colour over no terminal (item 7)', () => {
  const keys = ['sandbox', 'keys', '--output', 'table'];
  it('into a pipe: plain, unless FORCE_COLOR or CLICOLOR_FORCE force it; NO_COLOR and --no-color still win', async () => {
    const cases: Array<[Record<string, string>, string[], boolean]> = [
      [{}, [], false],
      [{ FORCE_COLOR: '1' }, [], true],
      [{ CLICOLOR_FORCE: '1' }, [], true],
      [{ CLICOLOR_FORCE: '0' }, [], false],
      [{ FORCE_COLOR: '0', CLICOLOR_FORCE: '1' }, [], false],
      [{ CLICOLOR_FORCE: '1', NO_COLOR: '1' }, [], false],
      [{ FORCE_COLOR: '1' }, ['--no-color'], false],
    ];
    const runs = await Promise.all(cases.map(([extra, flags]) => piped([...keys, ...flags], extra)));
    for (const [i, [extra, , coloured]] of cases.entries()) {
      const r = runs[i]!;
      expect(r.code, r.stderr).toBe(0);
      expect(r.stdout.includes(ESC), JSON.stringify(extra)).toBe(coloured);
      expect(r.stdout).toContain('acr_demo_acme_full_0001');
    }
  });

  it('on a pty: colour by default, none in CI unless forced, none under NO_COLOR even when forced', async () => {
    const has = async (extra: Record<string, string>) => (await tty(['sandbox', 'keys'], 200, extra)).stdout.includes(`${ESC}36m`);
    expect(await has({})).toBe(true);
    expect(await has({ CI: 'true' })).toBe(false);
    expect(await has({ CI: 'true', CLICOLOR_FORCE: '1' })).toBe(true);
    expect(await has({ NO_COLOR: '1', FORCE_COLOR: '3' })).toBe(false);
  });
});

describe('tables never drop or cut silently (item 8)', () => {
  it('at 80 columns, Insights keep entityId and the metrics, and say on stderr which columns were hidden', async () => {
    const r = await tty(['observe', 'insights', ...SEPT, '--level', 'campaign', '--limit', '20'], 80, { NO_COLOR: '1' });
    expect(r.code, r.stdout).toBe(0);
    const head = headerOf(r.stdout);
    expect(head).toEqual(expect.arrayContaining(['entityId', 'spend', 'impressions', 'clicks']));
    for (const line of tableLines(r.stdout)) expect([...line].length).toBeLessThanOrEqual(80);
    // The hint wraps at words on the 80-column terminal (#29): read with its continuation lines joined.
    expect(r.stdout.replace(/\r?\n {2}/g, ' ')).toMatch(/\d columns? hidden to fit 80 columns: [a-zA-Z, ]+; choose the columns with --fields/);
    // Ids are whole: every entityId of the same page read as JSON appears as it is.
    const json = JSON.parse((await piped(['observe', 'insights', ...SEPT, '--level', 'campaign', '--limit', '20'])).stdout) as Array<{ entityId: string }>;
    for (const row of json) expect(r.stdout).toContain(row.entityId);
  });

  it('on a pty reporting 0 columns, nothing is cut: whole ids, no …', async () => {
    const r = await tty(['observe', 'campaigns', '--limit', '5'], 0, { NO_COLOR: '1' });
    expect(r.code, r.stdout).toBe(0);
    const json = JSON.parse((await piped(['observe', 'campaigns', '--limit', '5'])).stdout) as Array<{ id: string; name: string }>;
    for (const c of json) expect(r.stdout).toContain(`│ ${c.id} │ ${c.name} `);
    expect(tableLines(r.stdout).join('\n')).not.toContain('…');
    expect(r.stdout).not.toContain('hidden');
  });

  it('--output table into a pipe keeps every column and every character; stderr says nothing was hidden', async () => {
    const r = await piped(['observe', 'insights', ...SEPT, '--level', 'campaign', '--limit', '20', '--output', 'table']);
    expect(r.code, r.stderr).toBe(0);
    expect(headerOf(r.stdout)).toEqual([
      'dateStart',
      'dateStop',
      'advertiserId',
      'provider',
      'entityType',
      'entityId',
      'spend',
      'impressions',
      'clicks',
      'reach',
      'conversions',
    ]);
    expect(r.stdout).not.toContain('…');
    expect(r.stderr).not.toContain('hidden');
  });
});

describe('CSV for spreadsheets and loaders (item 9)', () => {
  it('money has its currency beside it: one export mixing USD, EUR and GBP stays readable', async () => {
    const r = await piped(['observe', 'insights', ...SEPT, '--all', '--output', 'csv']);
    expect(r.code, r.stderr).toBe(0);
    const [head, ...rows] = r.stdout.trimEnd().split('\n');
    const cols = head!.split(',');
    expect(cols.indexOf('currency')).toBe(cols.indexOf('spend') + 1);
    const cur = rows.map((l) => l.split(',')[cols.indexOf('currency')]);
    expect(new Set(cur.filter(Boolean))).toEqual(new Set(['USD', 'EUR', 'GBP']));
    // A row with spend has its currency.
    for (const l of rows) if (l.split(',')[cols.indexOf('spend')] !== '') expect(l.split(',')[cols.indexOf('currency')]).toMatch(/^[A-Z]{3}$/);
    const campaigns = await piped(['observe', 'campaigns', '--limit', '5', '--output', 'csv']);
    expect(campaigns.stdout.split('\n')[0]).toMatch(/,budget,currency,/);
  });

  it('an empty export still has its header: the default columns, or the named --fields', async () => {
    const none = await piped(['observe', 'campaigns', '--ids', '999999999', '--output', 'csv', '--fields', 'id,name']);
    expect(none.code, none.stderr).toBe(0);
    expect(none.stdout).toBe('id,name\n');
    const insights = await piped(['observe', 'insights', '--since', '2020-01-01', '--until', '2020-01-01', '--output', 'csv']);
    expect(insights.code, insights.stderr).toBe(0);
    expect(insights.stdout).toBe('dateStart,dateStop,advertiserId,provider,entityType,entityId,spend,currency,impressions,clicks,reach,conversions\n');
    // A --query projecting onto named keys: the header from the query, never `[]` in a CSV.
    const query = await piped(['observe', 'campaigns', '--ids', '999999999', '--output', 'csv', '--query', '[].{advertiserId: advertiserId, targetId: id}']);
    expect(query.stdout).toBe('advertiserId,targetId\n');
  });

  it("the README's daily cron recipe survives a quiet day: the file has its header", async () => {
    const readme = readFileSync(join(ROOT, 'README.md'), 'utf8');
    const script = /<!-- recipe: insights-csv -->\n```sh\n([\s\S]*?)```/.exec(readme)![1]!;
    const dir = tempDir('adops-quiet-');
    const bin = tempDir('adops-bin-');
    writeFileSync(join(bin, 'adops'), `#!/bin/sh\nexec "${process.execPath}" "${BIN}" "$@"\n`);
    chmodSync(join(bin, 'adops'), 0o755);
    // Not spawnSync: the sandbox the recipe reads from answers from this process.
    const r = await spawnAsync('bash', ['--norc', '--noprofile', '-c', script], {
      cwd: dir,
      timeout: 60_000,
      env: { PATH: `${bin}:${process.env.PATH}`, HOME: process.env.HOME ?? '/tmp', LANG: 'C.UTF-8', ...env({ DAY: '2020-01-01' }) },
    });
    expect(r.status, r.stderr).toBe(0);
    const text = readFileSync(join(dir, 'insights-2020-01-01.csv'), 'utf8');
    expect(text).toMatch(/^dateStart,dateStop,advertiserId,provider,entityType,entityId,spend,currency,/);
    expect(text.trimEnd().split('\n')).toHaveLength(1);
  });
});

describe('globs as bash reads them (item 10)', () => {
  it("'cr/*.{png,jpg}' and 'cr/[ab]*.png' upload the files they name", async () => {
    const dir = tempDir('adops-globs-');
    mkdirSync(join(dir, 'cr'));
    writeFileSync(join(dir, 'cr', 'a.png'), png(64, 32));
    writeFileSync(join(dir, 'cr', 'b.png'), png(65, 32));
    writeFileSync(join(dir, 'cr', 'c.png'), png(66, 32));
    const r = await piped(['assets', 'upload', join(dir, 'cr', '[ab]*.png'), '--output', 'json']);
    expect(r.code, r.stderr).toBe(0);
    expect((JSON.parse(r.stdout) as Array<{ filename: string }>).map((f) => f.filename).sort()).toEqual(['a.png', 'b.png']);
    const braces = await piped(['assets', 'upload', join(dir, 'cr', '*.{png,jpg}'), '--output', 'json']);
    expect(braces.code, braces.stderr).toBe(0);
    expect((JSON.parse(braces.stdout) as Array<{ filename: string }>).map((f) => f.filename).sort()).toEqual(['a.png', 'b.png', 'c.png']);
  });
});

describe('messages in plain sentences with the right remedy (item 11)', () => {
  it('a directory given as a file: "is a directory", exit 2, for --input, -F @file and apply files', async () => {
    const dir = tempDir('adops-dir-');
    for (const args of [
      ['api', 'POST', '/v1/mutations', '--input', dir],
      ['mutations', 'apply', dir],
      ['plans', 'apply', dir],
      ['api', 'POST', '/v1/mutations', '-F', `body=@${dir}`],
    ]) {
      const r = await piped(args);
      expect(r.code, args.join(' ')).toBe(2);
      expect(r.stderr).toContain(`${dir}`);
      expect(r.stderr).toContain('is a directory, not a file');
      expect(r.stderr).not.toMatch(/EISDIR|illegal operation/);
    }
  });

  it('--amount must be greater than 0 (the service refuses 0), said so for -5 and 0', async () => {
    for (const amount of ['-5', '0']) {
      const r = await piped(['mutations', 'budget', 'acc_acme_a_001', '--campaign', '1', `--amount=${amount}`, '--dry-run']);
      expect(r.code).toBe(2);
      expect(r.stderr).toContain('greater than 0');
      expect(r.stderr).not.toContain('non-negative');
    }
  });

  it('readiness of a draft plan hints the approval, not --wait', async () => {
    const file = join(tempDir('adops-plan-'), 'plan.json');
    const li = SOCIAL_LINE_ITEM;
    writeFileSync(
      file,
      JSON.stringify({ slug: 'term-draft', name: 'Draft', currency: 'USD', budget: 1000, startDate: '2026-10-01', endDate: '2026-10-31', lineItems: [li] }),
    );
    const applied = await piped(['plans', 'apply', file, '--json']);
    expect(applied.code, applied.stderr).toBe(0);
    const id = (JSON.parse(applied.stdout) as { lineItems: Array<{ lineItemId: string }> }).lineItems[0]!.lineItemId;
    const r = await piped(['plans', 'line-items', 'readiness', 'term-draft', id]);
    expect(r.code).toBe(7);
    expect(r.stderr).toContain('hint: approve the plan with `adops plans approve term-draft`');
    expect(r.stderr).not.toContain('--wait');
  });
});
