// Terminal polish of issue #29, the pure parts in process: hints wrapped at
// words, TERM=dumb means no colour, narrow tables keep what names a row and its
// money (priorities in the resources module), one currency per chart axis and
// markers without colour, a default verb's flags on its group's page, and the
// man page generated from the registry (fresh, and every command on it).
import { spawnSync } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { renderChart } from '../../../../src/cli/output/chart.js';
import { chooseColor } from '../../../../src/cli/output/format.js';
import { resourceView } from '../../../../src/cli/output/resources.js';
import { renderTable } from '../../../../src/cli/output/table.js';
import { wrapWords } from '../../../../src/cli/output/wrap.js';
import { manPage } from '../../../../src/cli/docs.js';
import { helpFor } from '../../../../src/cli/help.js';
import { packageVersion } from '../../../../src/cli/version.js';
import { getRegistry } from '../../../../src/commands/index.js';
import { columnPriority, RESOURCES } from '../../../../src/contract/resources.js';

const MAN = new URL('../../../../man/adops.1', import.meta.url);

describe('hints wrap at words, at the terminal width', () => {
  const hint =
    '2 columns hidden to fit 80 columns: advertiserId, budgetType; choose the columns with --fields (e.g. --fields id,name,provider,advertiserId), or use a wider terminal or --output csv';

  it('no line longer than the width, no word cut, continuation lines indented', () => {
    for (const width of [40, 60, 80]) {
      const wrapped = wrapWords(hint, width);
      const lines = wrapped.split('\n');
      expect(lines.length).toBeGreaterThan(1);
      for (const line of lines) expect([...line].length, line).toBeLessThanOrEqual(width);
      for (const line of lines.slice(1)) expect(line).toMatch(/^ {2}\S/);
      // The words are the same words, in order: only spaces and line breaks were changed.
      expect(wrapped.split(/\s+/)).toEqual(hint.split(/\s+/));
    }
  });

  it('a word longer than the width (a cursor) keeps its line whole; unknown width or a short line: unchanged', () => {
    const cursor = 'x'.repeat(120);
    expect(wrapWords(`next cursor: ${cursor}`, 80)).toBe(`next cursor:\n  ${cursor}`);
    expect(wrapWords(hint, undefined)).toBe(hint);
    expect(wrapWords(hint, 0)).toBe(hint);
    expect(wrapWords('short\n  and indented', 80)).toBe('short\n  and indented');
  });
});

describe('TERM=dumb means no colour (chooseColor, the one place colour is decided)', () => {
  it('off on a terminal outside CI, unless forced', () => {
    expect(chooseColor({ env: { TERM: 'xterm' }, stdoutIsTTY: true, ci: false })).toBe(true);
    expect(chooseColor({ env: { TERM: 'dumb' }, stdoutIsTTY: true, ci: false })).toBe(false);
    expect(chooseColor({ env: { TERM: 'dumb', FORCE_COLOR: '1' }, stdoutIsTTY: true, ci: false })).toBe(true);
    expect(chooseColor({ env: { TERM: 'dumb', CLICOLOR_FORCE: '1', NO_COLOR: '1' }, stdoutIsTTY: true, ci: false })).toBe(false);
  });
});

describe('narrow tables keep ids, name, status and money (priorities in src/contract/resources.ts)', () => {
  const row = {
    id: '232730200144',
    name: 'Search Lookalike 23',
    provider: 'provider_c',
    status: 'ACTIVE',
    advertiserId: 'acc_acme_c_readonly',
    budget: 12251,
    currency: 'GBP',
    budgetType: 'lifetime',
    objective: 'OUTCOME_SALES',
    updatedAt: 1795757248500,
  };
  const header = (text: string) =>
    text
      .split('\n')[1]!
      .split('│')
      .map((c) => c.trim())
      .filter(Boolean);

  it('the priorities: id, name, status, money, then the rest in table order', () => {
    expect([...RESOURCES.campaign.columns].sort((a, b) => columnPriority(RESOURCES.campaign, a) - columnPriority(RESOURCES.campaign, b)).slice(0, 4)).toEqual([
      'id',
      'name',
      'status',
      'budget',
    ]);
    expect(resourceView('campaign').importance!.slice(0, 4)).toEqual(['id', 'name', 'status', 'budget']);
    expect(resourceView('campaignPlan').importance!.slice(0, 4)).toEqual(['slug', 'name', 'status', 'budget']);
    expect(resourceView('asset').importance!.slice(0, 3)).toEqual(['id', 'filename', 'state']);
    // A noun's own order wins (Insights: the numbers are why one reads them).
    expect(resourceView('insight').importance).toEqual(RESOURCES.insight.importance);
  });

  for (const width of [60, 80]) {
    it(`at ${width} columns a campaign keeps id, name, status and budget`, async () => {
      const { columns, importance } = resourceView('campaign');
      const drawn = await renderTable(columns, [row], { color: false, width, importance });
      expect(header(drawn.text)).toEqual(expect.arrayContaining(['id', 'name', 'status', 'budget']));
      expect(drawn.hidden).not.toContain('budget');
      for (const line of drawn.text.split('\n')) expect([...line].length).toBeLessThanOrEqual(width);
    });
  }
});

describe('charts: one currency per axis; without colour, a marker per line and a legend', () => {
  const insight = (day: number, entityId: string, currency: string, spend: number) => ({
    dateStart: `2026-09-0${day}`,
    dateStop: `2026-09-0${day}`,
    entityId,
    currency,
    spend,
    impressions: spend * 10,
  });
  const rows = [1, 2, 3].flatMap((d) => [insight(d, 'usd_1', 'USD', 100 * d), insight(d, 'eur_1', 'EUR', 5 * d), insight(d, 'jpy_1', 'JPY', 90000 * d)]);

  it('spend over three currencies: a chart per currency, each naming its currency and holding its own lines only', async () => {
    const text = await renderChart(rows, 'spend', { width: 60, height: 4, color: false });
    expect(text).toMatch(/^spend in 3 currencies: one chart per currency\n/);
    const charts = text.split(/\n(?=spend in [A-Z]{3} by)/).slice(1);
    expect(charts.map((c) => /^spend in ([A-Z]{3})/.exec(c)![1])).toEqual(['EUR', 'JPY', 'USD']);
    expect(charts[0]).toContain('eur_1');
    expect(charts[0]).not.toMatch(/jpy_1|usd_1/);
    // Each axis spans its own currency's values: EUR tops at 15, JPY at 270,000.
    expect(charts[0]).toMatch(/^ +15 ┤/m);
    expect(charts[1]).toMatch(/^ +270,000 ┤/m);
  });

  it('a metric that is not money shares one axis; without colour each line has its own marker, named in the legend', async () => {
    const text = await renderChart(rows, 'impressions', { width: 60, height: 6, color: false });
    expect(text.match(/ by 3 periods/g)).toHaveLength(1);
    expect(text).not.toMatch(/\u001b/);
    const legend = text.trimEnd().split('\n').slice(-3);
    expect(legend).toEqual(['  * jpy_1', '  o usd_1', '  + eur_1']);
    const plot = text.split('\n').filter((l) => l.includes('┤'));
    expect(plot.join('\n')).toContain('*');
    expect(plot.join('\n')).toContain('o');
    for (const line of text.split('\n')) expect([...line].length).toBeLessThanOrEqual(60);
  });
});

describe("a group with a default verb shows that verb's flags (`adops observe campaigns --help`)", () => {
  it('the options, arguments and examples of list, as the bare group runs it', () => {
    const { text } = helpFor(getRegistry(), ['observe', 'campaigns'], '0');
    expect(text).toContain('adops observe campaigns [options]   (runs `list`)');
    expect(text).toMatch(/^ {2}list \(default\) +List campaigns/m);
    expect(text).toContain('Options (of list, the default):');
    for (const flag of ['--live <advertiserId>', '--limit <n>', '--cursor <cursor>', '--all', '--max <n>', '--status <status>']) expect(text).toContain(flag);
    // A group without a default verb stays a list of its subcommands.
    expect(helpFor(getRegistry(), ['sandbox'], '0').text).not.toContain('Options (of');
  });
});

describe('man/adops.1, generated from the registry', () => {
  it('is current (regenerate: npm run gen)', () => {
    expect(readFileSync(MAN, 'utf8')).toBe(manPage(getRegistry(), packageVersion()));
  });

  const manAvailable = spawnSync('man', ['--version']).status === 0;
  it.skipIf(!manAvailable)('`man -l man/adops.1` renders every command, with no roff warning', () => {
    const at = (width: number) =>
      spawnSync('man', ['-l', MAN.pathname], {
        encoding: 'utf8',
        env: { ...process.env, MANWIDTH: String(width), MANPAGER: 'cat', PAGER: 'cat', LANG: 'C.UTF-8' },
      });
    // No "can't break line" or invalid-character warning at any usual width.
    for (const width of [60, 80, 200]) {
      const other = at(width);
      expect(other.status, other.stderr).toBe(0);
      expect(other.stderr, `MANWIDTH=${width}`).toBe('');
    }
    const r = at(100);
    expect(r.status, r.stderr).toBe(0);
    expect(r.stderr).toBe('');
    const page = r.stdout.replace(/.\u0008/g, '');
    for (const c of getRegistry().commands.filter((x) => !x.hidden)) expect(page, c.path.join(' ')).toContain(`adops ${c.path.join(' ')}`);
    expect(page).toMatch(/^EXIT STATUS/m);
    expect(page).toContain('--output');
  });

  it.skipIf(spawnSync('groff', ['--version']).status !== 0)('groff reads it without a warning (-ww)', () => {
    const r = spawnSync('groff', ['-man', '-ww', '-z', MAN.pathname], { encoding: 'utf8' });
    expect(r.status).toBe(0);
    expect(r.stderr).toBe('');
  });
});
