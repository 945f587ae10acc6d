// The rows of `mutations apply FILE`: CSV (quoted cells across lines, a JSON
// body column) and NDJSON, streamed, each row with the line it starts on and
// what is wrong; a file whose structure is broken is refused naming the line.
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { changeChecker } from '../../../src/commands/mutations/_change.js';
import { StreamedRowIds } from '../../../src/commands/mutations/_row-ids.js';
import { MAX_CELL_CHARS, MAX_ROW_CHARS, readRows, type ParsedRow } from '../../../src/commands/mutations/_rows.js';
import { rowIds } from '../../../src/flows/mutation-match.js';
import { tempDir } from '../../helpers/temp.js';

const HEADER = 'advertiserId,action,targetType,targetId,name,amount,budgetType,bidStrategy,bidAmount,body';
const dir = tempDir('adops-rows-');
let n = 0;
async function rowsOf(text: string, ext = 'csv'): Promise<ParsedRow[]> {
  const file = join(dir, `f${n++}.${ext}`);
  writeFileSync(file, text);
  const out: ParsedRow[] = [];
  for await (const r of readRows(file)) out.push(r);
  return out;
}
const refusal = (text: string) =>
  rowsOf(text).then(
    () => 'read',
    (err: Error) => err.message,
  );

describe('mutation rows', () => {
  it("reads quoted CSV cells (commas, quotes, a JSON body over lines) and keeps each record's first line", async () => {
    const body = '{"advertiserId":"acc_1","action":"rename",\n"target":{"type":"campaign","id":"9"},"name":"x, \\"y\\""}';
    const rows = await rowsOf(`${HEADER}\r\nacc_1,pause,campaign,1,,,,,,\r\n\r\n,,,,,,,,,"${body.replace(/"/g, '""')}"\r\nacc_1,pause,campaign,2,,,,,,\r\n`);
    expect(rows.map((r) => [r.line, r.problems])).toEqual([
      [2, []],
      [4, []],
      [6, []],
    ]);
    expect(rows[1]!.body).toMatchObject({ name: 'x, "y"', target: { id: '9' } });
    // Mixed line endings: each row stays its own.
    const mixed = await rowsOf(`${HEADER}\r\nacc_1,pause,campaign,1,,,,,,\nacc_1,pause,campaign,2,,,,,,\r\nacc_1,pause,campaign,3,,,,,,\n`);
    expect(mixed.map((r) => [r.line, r.problems, (r.body.target as { id: string }).id])).toEqual([
      [2, [], '1'],
      [3, [], '2'],
      [4, [], '3'],
    ]);
  });

  it('skips comment lines (an undo file names its service on its first), keeps a # inside a cell, and each row its first line', async () => {
    const text = `# adops undo file: service=http://x key=abc of=def\n${HEADER}\nacc_1,rename,campaign,1,Sale #2,,,,,\n\nacc_1,rename,campaign,2,"multi\n# line",,,,,\n# a note\nacc_1,rename,campaign,3,x # y,,,,,\n`;
    const rows = await rowsOf(text);
    expect(rows.map((r) => [r.line, r.body.name, r.problems.length > 0])).toEqual([
      [3, 'Sale #2', false],
      [5, 'multi\n# line', true], // a name never holds a line break: refused, at the line it starts on
      [8, 'x # y', false],
    ]);
  });

  it('builds bodies from columns, a body column, or NDJSON', async () => {
    const csv = [
      HEADER,
      'acc_1,set_budget,campaign,7,,50,daily,,,',
      'acc_1,set_bid,ad_group,8,,,,COST_CAP,2.5,',
      ',,,,,,,,,"{""advertiserId"":""acc_1"",""action"":""pause"",""target"":{""type"":""campaign"",""id"":""9""}}"',
    ].join('\n');
    const rows = await rowsOf(csv);
    expect(rows.map((r) => r.problems)).toEqual([[], [], []]);
    expect(rows[0]!.body).toEqual({
      advertiserId: 'acc_1',
      target: { type: 'campaign', id: '7' },
      action: 'set_budget',
      budget: { amount: 50, type: 'daily' },
    });
    expect(rows[1]!.body).toMatchObject({ bidStrategy: 'COST_CAP', bidAmount: 2.5 });
    expect(rows[2]!.body).toMatchObject({ action: 'pause', target: { id: '9' } });
    const nd = await rowsOf('{"advertiserId":"acc_1","action":"rename","target":{"type":"campaign","id":"1"},"name":"x"}\n\nnot json\n', 'ndjson');
    expect(nd.map((r) => [r.line, r.problems])).toEqual([
      [1, []],
      [3, ['body is not valid JSON']],
    ]);
  });

  it('names what is wrong with a row, and an unknown column before any row', async () => {
    const rows = await rowsOf(
      [
        HEADER,
        'acc_1,rename,campaign,1,,,,,,',
        'acc_1,pause,campaign,1,,,,,,{}',
        'acc_1,set_budget,adset,1,,5,weekly,,,',
        'acc_1,pause,campaign,1,extra,,,,,',
      ].join('\n'),
    );
    expect(rows[0]!.problems).toEqual(['name is required for rename']);
    expect(rows[1]!.problems[0]).toMatch(/either body or the columns/);
    expect(rows[2]!.problems).toEqual(['target.type must be one of campaign, ad_group', 'budget.type must be one of daily, lifetime']);
    expect(rows[3]!.problems[0]).toBe('name: not used by action pause');
    expect(await refusal('advertiserId,verb\n')).toMatch(/line 1: unknown column\(s\) verb/);
  });

  it('every pass over every file checks its rows with the one checker of the process, and it still names what is wrong', async () => {
    // A checker made per pass was a new callee where the rows are made: V8 threw away the code compiled for the
    // first pass's and compiled it again (#37 session 7).
    const [first, second] = [await changeChecker(), await changeChecker()];
    expect(second).toBe(first);
    expect(first({ advertiserId: 'acc_1', action: 'set_budget', target: { type: 'campaign', id: '1' }, budget: { amount: 0, type: 'daily' } })).toContain(
      'budget.amount must be greater than 0',
    );
    expect(first({ advertiserId: 'acc_1', action: 'pause', target: { type: 'campaign', id: '1' } })).toEqual([]);
  });

  it('an unclosed quote refuses the file naming the line it opens on, instead of swallowing the rows after it', async () => {
    const text = [
      HEADER,
      'acc_1,pause,campaign,1,,,,,,',
      '',
      'acc_1,rename,campaign,2,"New name,,,,,',
      'acc_1,pause,campaign,3,,,,,,',
      'acc_1,pause,campaign,4,,,,,,',
    ].join('\n');
    expect(await refusal(text)).toMatch(/f\d+\.csv: line 4: a quoted cell is never closed/);
    // Closed again by a later quote: a stray quote, or a name holding the rows it swallowed.
    expect(await refusal([HEADER, 'acc_1,rename,campaign,2,"New name,,,,,', 'acc_1,rename,campaign,3,"x",,,,,'].join('\n'))).toMatch(
      /line 3: a quote ends a cell but more text follows/,
    );
    // A quote inside a cell that does not start with one (csv-parse's INVALID_OPENING_QUOTE was shown as its code
    // alone, "cannot be read (INVALID_OPENING_QUOTE)", with no line).
    expect(await refusal([HEADER, 'acc_1,pause,campaign,1,,,,,,', 'acc_1,rename,campaign,2,Sale "big",,,,,'].join('\n'))).toMatch(
      /f\d+\.csv: line 3: a quote inside a cell that does not start with one/,
    );
    // A CRLF inside a quoted body is one line: the row after it is named by the line it is on.
    const crlf = await rowsOf(
      `${HEADER}\r\n,,,,,,,,,"{""advertiserId"":""acc_1"",\r\n""action"":""pause"",""target"":{""type"":""campaign"",""id"":""9""}}"\r\nacc_1,pause,campaign,2,,,,,,\r\n`,
    );
    expect(crlf.map((r) => [r.line, r.problems])).toEqual([
      [2, []],
      [4, []],
    ]);
    const swallowed = await rowsOf([HEADER, 'acc_1,rename,campaign,2,"New name,,,,,', 'acc_1,pause,campaign,3,,,,,,"'].join('\n'));
    expect(swallowed.map((r) => [r.line, r.problems])).toEqual([[2, ['name holds a line break (a quote closed too late?)']]]);
  });

  it('a cell or a row past its bound is refused naming its line, without reading it all', async () => {
    const long = 'x'.repeat(MAX_CELL_CHARS + 1);
    expect((await rowsOf(`${HEADER}\nacc_1,rename,campaign,1,${long},,,,,\n`)).map((r) => [r.line, r.problems])).toEqual([
      [2, [`name: longer than ${MAX_CELL_CHARS} characters`]],
    ]);
    const huge = 'y'.repeat(MAX_ROW_CHARS * 4);
    expect(await refusal(`${HEADER}\nacc_1,pause,campaign,1,,,,,,\nacc_1,rename,campaign,1,"${huge}",,,,,\n`)).toMatch(/line 3: a row longer than/);
    expect(await rowsOf(`{"a":1}\n{"name":"${huge}"}\n`, 'ndjson').catch((e: Error) => e.message)).toMatch(/line 2: a row longer than/);
  });

  it("row identities over two streamed passes equal the journal's rowIds (repeats numbered by occurrence)", () => {
    fc.assert(
      fc.property(fc.array(fc.integer({ min: 0, max: 6 }), { maxLength: 60 }), (picks) => {
        const bodies = picks.map((i) => ({ action: 'pause', target: { type: 'campaign', id: String(i) } }));
        const ids = new StreamedRowIds();
        bodies.forEach((b) => ids.see(b));
        expect(bodies.map((b) => ids.id(b))).toEqual(rowIds(bodies));
      }),
    );
  });
});
