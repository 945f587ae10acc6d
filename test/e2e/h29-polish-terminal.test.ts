// Terminal polish of issue #29, the BUILT binary under a pty (util-linux
// `script`) at 80 and 200 columns, as a person runs it next to gh and aws:
// `adops version`, a default verb's flags on its group's help, the next cursor
// once, hints wrapped at words, the columns a narrow table keeps, TERM=dumb,
// and a chart over several currencies under NO_COLOR.
import { spawnSync } from 'node:child_process';
import { describe, expect, it, vi } from 'vitest';
import { DEMO, runAdops, runAdopsTty, tempConfigDir } from '../helpers/cli.js';
import { useDemoSandbox } from '../helpers/demo-sandbox.js';
import { runAdopsInProcess } from '../helpers/run-in-process.js';

vi.setConfig({ testTimeout: 120_000 });

const cfg = tempConfigDir();
const sandbox = useDemoSandbox();
const env = (extra: Record<string, string> = {}) => ({ ADOPS_CONFIG_DIR: cfg, ADOPS_BASE_URL: sandbox.url, ADOPS_API_KEY: DEMO.full, ...extra });
const tty = (args: string[], cols: number, extra: Record<string, string> = {}) => runAdopsTty(args, { env: env(extra), cols, timeoutMs: 60_000 });

// What a person sees: a pty's text without \r and escape sequences (the spinner's, colour).
const screen = (text: string) =>
  text
    .replace(/\u001b\[[0-9;?]*[A-Za-z]/g, '')
    .replace(/\r/g, '')
    .split('\n')
    .map((l) => l.replace(/^.*Loading…/, ''));
const header = (lines: string[]) =>
  lines
    .find((l) => l.startsWith('│'))!
    .split('│')
    .map((c) => c.trim())
    .filter(Boolean);
const hasScript = spawnSync('script', ['--version']).status === 0;

describe.skipIf(!hasScript)('adops version (as gh)', () => {
  it('prints what --version prints, piped and on a terminal', async () => {
    const [flag, word, onTty] = await Promise.all([runAdops(['--version']), runAdops(['version']), tty(['version'], 80)]);
    expect(word.code).toBe(0);
    expect(word.stdout).toBe(flag.stdout);
    expect(word.stdout).toMatch(/^\d+\.\d+\.\d+\S*\n$/);
    expect(screen(onTty.stdout).join('\n').trim()).toBe(flag.stdout.trim());
    const json = await runAdops(['version', '--json']);
    expect(JSON.parse(json.stdout)).toMatchObject({ version: flag.stdout.trim(), node: expect.any(String), platform: expect.any(String) });
  });
});

describe.skipIf(!hasScript)('observe campaigns --help shows the flags of list, as the bare group runs it', () => {
  for (const cols of [80, 200]) {
    it(`at ${cols} columns`, async () => {
      const r = await tty(['observe', 'campaigns', '--help'], cols);
      expect(r.code).toBe(0);
      const text = screen(r.stdout).join('\n');
      for (const flag of ['--live <advertiserId>', '--limit <n>', '--cursor <cursor>', '--all', '--status <status>']) expect(text).toContain(flag);
      expect(text).toContain('(runs `list`)');
    });
  }
});

describe.skipIf(!hasScript)('a list on a terminal', () => {
  it('at 80 columns: id, name, status and budget stay; the hint wraps at words; the cursor once', async () => {
    const r = await tty(['observe', 'campaigns', '--limit', '3'], 80, { NO_COLOR: '1' });
    expect(r.code, r.stdout).toBe(0);
    const lines = screen(r.stdout);
    expect(header(lines)).toEqual(expect.arrayContaining(['id', 'name', 'status', 'budget']));
    expect(r.stdout).toMatch(/\d[\d,]*\.\d\d [A-Z]{3} │/);
    for (const line of lines) expect([...line].length, line).toBeLessThanOrEqual(80);
    // The hint about hidden columns: more than one line, each continuation indented, no word cut.
    const at = lines.findIndex((l) => l.includes('hidden to fit 80 columns'));
    expect(at).toBeGreaterThan(0);
    const hint = [lines[at]!];
    for (let i = at + 1; lines[i]?.startsWith('  '); i++) hint.push(lines[i]!);
    expect(hint.length).toBeGreaterThan(1);
    const joined = hint.map((l) => l.trim()).join(' ');
    expect(joined).toMatch(
      /^2 columns hidden to fit 80 columns: advertiserId, budgetType; choose the columns with --fields \(e\.g\. --fields [\w,]+\), or use a wider terminal or --output csv$/,
    );
    // The cursor: once, on its own `next cursor:` line.
    const cursorLines = lines.filter((l) => /cursor/i.test(l));
    expect(cursorLines).toHaveLength(1);
    expect(cursorLines[0]).toMatch(/^next cursor: \S+$/);
  });

  it('at 200 columns: every column, nothing hidden, the cursor once', async () => {
    const r = await tty(['observe', 'campaigns', '--limit', '3'], 200, { NO_COLOR: '1' });
    expect(r.code, r.stdout).toBe(0);
    const lines = screen(r.stdout);
    expect(header(lines)).toEqual(['id', 'name', 'provider', 'status', 'advertiserId', 'budget', 'budgetType']);
    expect(r.stdout).not.toContain('hidden');
    expect(lines.filter((l) => /cursor/i.test(l))).toHaveLength(1);
  });

  it('TERM=dumb: no colour and no spinner, not one escape sequence', async () => {
    const dumb = await tty(['observe', 'campaigns', '--limit', '3'], 200, { TERM: 'dumb' });
    expect(dumb.code, dumb.stdout).toBe(0);
    expect(dumb.stdout).toContain('│ id');
    expect(dumb.stdout).not.toContain('\u001b');
    // The same run on xterm is coloured (the check can fail).
    const xterm = await tty(['observe', 'campaigns', '--limit', '3'], 200);
    expect(xterm.stdout).toContain('\u001b[36m');
  });
});

describe("an error and its hint wrap at words too (in process: a terminal's stderr of 40 columns)", () => {
  it('every line within 40 columns, the continuation indented, the words whole; into a pipe, one line', async () => {
    const args = ['observe', 'campaigns', '--output', 'nope'];
    const narrow = await runAdopsInProcess(args, { env: env(), tty: { columns: 40 } });
    expect(narrow.code).toBe(2);
    const lines = narrow.stderr.trimEnd().split('\n');
    for (const line of lines) expect([...line].length, line).toBeLessThanOrEqual(40);
    const piped = await runAdopsInProcess(args, { env: env() });
    expect(piped.stderr).toMatch(
      /^error: option '-o, --output <format>' argument 'nope' is invalid\. Allowed choices are table, json, ndjson, csv, markdown\.$/m,
    );
    expect(piped.stderr).toMatch(/^hint: see `adops --help` or `adops <command> --help`$/m);
    expect(narrow.stderr.replace(/\n {2}/g, ' ')).toBe(piped.stderr);
    expect(lines.length).toBeGreaterThan(piped.stderr.trimEnd().split('\n').length);
  });
});

describe.skipIf(!hasScript)('insights --chart spend over several advertisers, NO_COLOR', () => {
  it('one chart per currency, each line a marker named in the legend', async () => {
    const r = await tty(
      ['observe', 'insights', '--since', '2026-09-01', '--until', '2026-09-30', '--grain', 'week', '--level', 'advertiser', '--all', '--chart', 'spend'],
      100,
      { NO_COLOR: '1' },
    );
    expect(r.code, r.stdout).toBe(0);
    expect(r.stdout).not.toMatch(/\u001b\[3\dm/);
    const lines = screen(r.stdout);
    expect(lines.join('\n')).toMatch(/spend in \d currencies: one chart per currency/);
    const titles = lines.filter((l) => /^spend in [A-Z]{3} by \d+ periods/.test(l));
    expect(new Set(titles.map((t) => t.slice(9, 12)))).toEqual(new Set(['EUR', 'GBP', 'USD']));
    // The EUR chart holds two advertisers, told apart by marker and legend.
    const eur = lines.slice(lines.findIndex((l) => l.startsWith('spend in EUR')));
    const legend = eur.filter((l) => /^ {2}[*o+x#] acc_/.test(l)).slice(0, 2);
    expect(legend.map((l) => l[2])).toEqual(['*', 'o']);
    const plot = eur
      .slice(
        1,
        eur.findIndex((l) => l.startsWith('  * ')),
      )
      .join('\n');
    expect(plot).toContain('*');
    expect(plot).toContain('o');
  });
});
