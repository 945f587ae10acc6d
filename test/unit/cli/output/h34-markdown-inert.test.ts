// Issue #34 §3: the GitHub step summary (and --output markdown, written with
// the same cells) left bare URLs (GitHub links them), `$$…$$` and `$…$`
// (rendered as math) and @mentions (from file names and service text) as they
// came, and had no size bound (20 rows with a 200 KB service error wrote
// 4 MB; GitHub shows nothing of a step summary over 1 MiB). Read back as
// GitHub's parser splits a row and finds code spans (helpers/markdown-cells.ts).
import { describe, expect, it } from 'vitest';
import { CELL_MAX, renderStepSummary, SUMMARY_MAX_BYTES, type StepSummary } from '../../../../src/cli/output/step-summary.js';
import { inline } from '../../../../src/cli/output/writers/markdown.js';
import { plainIsInert, shownText, tableCells, tableRows } from '../../../helpers/markdown-cells.js';
import { list } from './helpers.js';

/** Text a service or a file name may hold, each something GitHub would render or act on if left plain. */
const HOSTILE = [
  'see https://evil.example/a?b=c and http://x.test',
  'www.evil.example',
  'write to ops@evil.example',
  'cc @octocat and @acme/admins',
  '$$\\sum_{i}x^2$$',
  'costs $5 and $6$ here',
  'fixes #123, GH-12 and acme/repo#7',
  'f00dcafe42', // a commit SHA's shape (GitHub autolinks it); no other test remembers it as a secret, which would mask it here
  '<img src=x onerror=alert(1)><!-- hidden -->',
  '[click](http://evil.example) ![i](http://evil.example/i.png)',
  '*em* _em_ ~~gone~~ **b** :shipit: &amp; &#64;',
  'a|b\\|c | d',
  'tick ` and ``two`` and `code`',
  '`starts and ends`',
  '  spaced both sides  ',
  'line one\nline two\r\nthree\u2028four',
  '| --- | --- |',
];
describe('markdown cells are inert on GitHub: no autolink, math, mention, HTML or table break', () => {
  it('each hostile text in a table cell: one cell on one line, plain text only in words, shown exactly', () => {
    for (const text of HOSTILE) {
      const row = `| x | ${inline(text, { table: true })} | y |`;
      expect(row, text).not.toMatch(/[\r\n\u2028]/);
      const cells = tableCells(row);
      expect(cells, `${text} → ${row}`).toHaveLength(3);
      expect(cells[2]).toBe('y');
      expect(plainIsInert(cells[1]!), `${text} → ${row}`).toBe(true);
      // What a reader sees (and copies) is the text itself, line breaks as breaks.
      expect(shownText(cells[1]!), row).toBe(text.replace(/\r\n?|\u2028/g, '\n'));
    }
  });

  it('outside a table (the summary heading, a --query scalar), the same; a pipe stays in its span', () => {
    for (const text of HOSTILE) {
      const out = inline(text, { table: false });
      expect(plainIsInert(out), `${text} → ${out}`).toBe(true);
      expect(shownText(out)).toBe(text.replace(/\r\n?|\u2028/g, '\n'));
    }
    // Words stay as they are: ids, states, column names.
    expect(inline('acc_acme_a_001', { table: true })).toBe('acc_acme_a_001');
    expect(inline('uploaded', { table: false })).toBe('uploaded');
    expect(inline(12.5, { table: true })).toBe('12.5');
  });

  it('--output markdown on stdout writes the same cells as the step summary', async () => {
    const row = { file: '@octocat $$x$$.png', result: 'failed', id: null, filename: 'www.evil.example', error: 'see https://evil.example' };
    const columns = ['file', 'result', 'id', 'filename', 'error'];
    const stdout = await list([[row]], { tty: false, format: 'markdown', resource: 'generic', fields: columns });
    const summary = renderStepSummary({ command: 'adops assets upload @octocat', rows: [row], columns, state: 'result', failed: () => true });
    expect(summary).toContain(stdout.split('\n')[2]);
    expect(summary.split('\n')[0]).toBe('### `adops assets upload @octocat`');
  });
});

describe('the step summary is bounded', () => {
  const table = (rows: StepSummary['rows']): StepSummary => ({
    command: 'adops mutations apply changes.csv',
    rows,
    columns: ['row', 'state', 'error'],
    state: 'state',
    failed: (r) => r.state !== 'succeeded',
  });

  it('20 rows with a 200 KB service error: every row, each error cut at CELL_MAX saying how much more', () => {
    const error = `refused: ${'x'.repeat(200_000)}`;
    const md = renderStepSummary(table(Array.from({ length: 20 }, (_, i) => ({ row: i + 2, state: 'refused', error }))));
    expect(Buffer.byteLength(md)).toBeLessThan(40 * 1024);
    const rows = tableRows(md);
    expect(rows).toHaveLength(20);
    for (const r of rows) expect(r[2]).toBe(`${error.slice(0, CELL_MAX)}… (cut: ${error.length - CELL_MAX} more characters)`);
    expect(md).not.toContain('left out');
  });

  it('more rows than fit: failures first, the rest counted in a line, the whole within its bytes (multi-byte text too)', () => {
    const rows = Array.from({ length: 3000 }, (_, i) => ({ row: i + 2, state: i % 3 ? 'succeeded' : 'failed', error: '€'.repeat(300) }));
    for (const max of [SUMMARY_MAX_BYTES, 8 * 1024]) {
      const md = renderStepSummary(table(rows), max);
      expect(Buffer.byteLength(md), `${max}`).toBeLessThanOrEqual(max);
      const shown = tableRows(md);
      expect(shown.length).toBeGreaterThan(0);
      expect(shown.length).toBeLessThan(3000);
      expect(md).toContain(`\n${3000 - shown.length} more rows left out: a summary is cut at ${max / 1024} KiB`);
      // The 1000 failures come first.
      expect(shown.slice(0, Math.min(1000, shown.length)).every((r) => r[1] === 'failed')).toBe(true);
      expect(md).toMatch(/^3000 rows: 1000 failed, 2000 succeeded \(1000 not done, listed first\)$/m);
    }
  });

  it('a cell is cut after masking and never inside a surrogate pair', () => {
    const emoji = '😀'.repeat(CELL_MAX);
    const cut = inline(emoji, { table: true, max: CELL_MAX });
    expect(shownText(cut)).toMatch(/^(😀)+… \(cut: \d+ more characters\)$/);
    expect(cut).not.toMatch(/[\ud800-\udbff](?![\udc00-\udfff])/);
  });
});
