// The rows of `mutations apply FILE`: CSV (quoted cells across lines, a JSON
// body column) and NDJSON, each row with the line it starts on and what is wrong.
import { describe, expect, it } from 'vitest';
import { csvRecords, parseRows } from '../../../src/commands/mutations/_rows.js';

const HEADER = 'advertiserId,action,targetType,targetId,name,amount,budgetType,bidStrategy,bidAmount,body';

describe('mutation rows', () => {
  it('reads quoted CSV cells (commas, quotes, line breaks) and keeps each record\'s first line', () => {
    const recs = csvRecords('a,b\r\n"x, ""y""","multi\nline"\n\nlast,row\n');
    expect(recs).toEqual([
      { line: 1, cells: ['a', 'b'] },
      { line: 2, cells: ['x, "y"', 'multi\nline'] },
      { line: 5, cells: ['last', 'row'] },
    ]);
  });

  it('builds bodies from columns, a body column, or NDJSON', () => {
    const csv = [HEADER, 'acc_1,set_budget,campaign,7,,50,daily,,,', 'acc_1,set_bid,ad_group,8,,,,COST_CAP,2.5,', ',,,,,,,,,"{""advertiserId"":""acc_1"",""action"":""pause"",""target"":{""type"":""campaign"",""id"":""9""}}"'].join('\n');
    const { rows } = parseRows(csv, 'x.csv');
    expect(rows.map((r) => r.problems)).toEqual([[], [], []]);
    expect(rows[0]!.body).toEqual({ advertiserId: 'acc_1', target: { type: 'campaign', id: '7' }, action: 'set_budget', budget: { amount: 50, type: 'daily' } });
    expect(rows[1]!.body).toMatchObject({ bidStrategy: 'COST_CAP', bidAmount: 2.5 });
    expect(rows[2]!.body).toMatchObject({ action: 'pause', target: { id: '9' } });
    const nd = parseRows('{"advertiserId":"acc_1","action":"rename","target":{"type":"campaign","id":"1"},"name":"x"}\n\nnot json\n', 'x.ndjson');
    expect(nd.rows.map((r) => [r.line, r.problems])).toEqual([[1, []], [3, ['body is not valid JSON']]]);
  });

  it('names what is wrong with a row, and an unknown column before any row', () => {
    const { rows } = parseRows([HEADER, 'acc_1,rename,campaign,1,,,,,,', 'acc_1,pause,campaign,1,,,,,,{}', 'acc_1,set_budget,adset,1,,5,weekly,,,', 'acc_1,pause,campaign,1,extra,,,,,'].join('\n'), 'x.csv');
    expect(rows[0]!.problems).toEqual(['name is required for rename']);
    expect(rows[1]!.problems[0]).toMatch(/either body or the columns/);
    expect(rows[2]!.problems).toEqual(['target.type must be one of campaign, ad_group', 'budget.type must be one of daily, lifetime']);
    expect(rows[3]!.problems[0]).toBe('name: not used by action pause');
    expect(parseRows('advertiserId,verb\n', 'x.csv').fileProblem).toMatch(/unknown column\(s\) verb/);
  });
});
