// The step summary from rows handed over one at a time (SummaryRows): `mutations apply` streams a file of any
// length, and its summary used to keep every row's line until the end (memory grew with the file). Now only what a
// summary can show is held, and the summary is the one the whole list gave: checked against the renderer as it was
// (every row held, failures first, cut at the byte bound), on random rows and bounds.
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { CELL_MAX, renderStepSummary, SummaryRows, type StepSummary } from '../../../../src/cli/output/step-summary.js';
import { inline, tableRow } from '../../../../src/cli/output/writers/markdown.js';
import { getPath } from '../../../../src/cli/output/fields.js';
import { asText } from '../../../../src/cli/output/sanitize.js';
import { mutationsTable } from '../../../../src/flows/step-summary.js';

/** The renderer before SummaryRows, every row in hand: the oracle. */
function renderAllRows(s: StepSummary, maxBytes: number): string {
  const text = (t: string) => inline(t, { table: false });
  const bytes = (t: string) => Buffer.byteLength(t);
  const failures = s.rows.filter(s.failed);
  const rows = [...failures, ...s.rows.filter((r) => !s.failed(r))];
  const counts = new Map<string, number>();
  for (const r of rows) {
    const state = asText(r[s.state] ?? 'unknown');
    counts.set(state, (counts.get(state) ?? 0) + 1);
  }
  const tally = [...counts].map(([state, n]) => `${n} ${text(state)}`).join(', ');
  let out =
    `### ${text(s.command)}\n` +
    `${rows.length} ${rows.length === 1 ? 'row' : 'rows'}: ${tally || 'none'}${failures.length ? ` (${failures.length} not done, listed first)` : ''}\n\n`;
  if (rows.length === 0) return `${out}(no rows)\n\n`;
  // tableHead as it was: a column right-aligned when its values in these rows are all numbers (and there is one).
  const line = (cells: readonly string[]) => `| ${cells.join(' | ')} |\n`;
  const numeric = s.columns.map((c) => {
    const values = rows.map((r) => getPath(r, c)).filter((v) => v !== null && v !== undefined);
    return values.length > 0 && values.every((v) => typeof v === 'number');
  });
  out += line(s.columns.map((c) => inline(c, { table: true }))) + line(numeric.map((n) => (n ? '---:' : '---')));
  const room = maxBytes - 200;
  let shown = 0;
  let size = bytes(out);
  for (const r of rows) {
    const row = tableRow(s.columns, r, CELL_MAX);
    if (size + bytes(row) > room) break;
    out += row;
    size += bytes(row);
    shown++;
  }
  const left = rows.length - shown;
  if (left > 0)
    out += `\n${left} more ${left === 1 ? 'row' : 'rows'} left out: a summary is cut at ${Math.floor(maxBytes / 1024)} KiB (GitHub shows no step summary over 1 MiB); the command's output has every row.\n`;
  return `${out}\n`;
}

const STATES = ['succeeded', 'pending', 'refused', 'unknown', 'not sent', 'unchanged', 'failed'];
const rowArb = fc.record({
  row: fc.oneof(fc.integer({ min: 1, max: 1e6 }), fc.string({ maxLength: 6 })),
  action: fc.constantFrom('pause', 'resume', 'setBudget'),
  target: fc.option(fc.string({ maxLength: 30 }), { nil: null }),
  mutationId: fc.option(fc.string({ minLength: 1, maxLength: 12 }), { nil: null }),
  state: fc.constantFrom(...STATES),
  // Some long enough to fill a small bound in a few rows, some past a cell's cut.
  error: fc.option(
    fc.oneof(
      fc.string({ maxLength: 40 }),
      fc.integer({ min: 10, max: 1500 }).map((n) => 'e'.repeat(n)),
    ),
    { nil: null },
  ),
});

describe('SummaryRows', () => {
  it('renders what the whole list rendered, at any bound, from rows handed over one at a time', () => {
    fc.assert(
      fc.property(fc.array(rowArb, { maxLength: 60 }), fc.integer({ min: 1024, max: 16 * 1024 }), (rows, maxBytes) => {
        const s: StepSummary = { command: 'adops mutations apply plan.csv', ...mutationsTable(rows) };
        const collected = new SummaryRows(s, maxBytes);
        for (const r of rows) collected.add(r);
        const want = renderAllRows(s, maxBytes);
        expect(collected.render(s.command, maxBytes)).toBe(want);
        expect(renderStepSummary(s, maxBytes)).toBe(want);
      }),
      { numRuns: 300 },
    );
  });

  it('holds only what a summary can show: 100,000 rows keep a few hundred, and every one is counted', () => {
    const table = mutationsTable([]);
    const collected = new SummaryRows(table);
    const error = 'x'.repeat(400);
    for (let i = 0; i < 100_000; i++)
      collected.add({ row: i + 2, action: 'pause', target: 'campaign 1', mutationId: null, state: i % 3 ? 'succeeded' : 'refused', error });
    expect(collected.held).toBeLessThan(1_500);
    const md = collected.render('adops mutations apply big.csv', 256 * 1024);
    expect(md).toContain('100000 rows: 33334 refused, 66666 succeeded (33334 not done, listed first)');
    expect(md).toMatch(/\n\d+ more rows left out: a summary is cut at 256 KiB/);
  });
});
