// --output markdown (issue 26, part 4: output formats as writers): a
// GitHub-flavoured table, one new writer file plus its entry in the registry.
// Here the writer itself, through ListWriter and writeObject as every command
// calls them; test/unit/cli/h26-writers-markdown-cli.test.ts runs the commands.
import { describe, expect, it } from 'vitest';
import { ListWriter, writeObject } from '../../../../src/cli/output/writers.js';
import { FORMATS, OUTPUT_FORMATS, drawsForTerminal, jsonLayout, writesJson } from '../../../../src/cli/output/writers/formats.js';
import { DANGER, list, object, sink } from './helpers.js';

const KEY = 'acr_live_8f3a9c1d2e4b5a6f7081';
const rows = [
  { id: 'cmp_1', name: 'Spring', status: 'ACTIVE', advertiserId: 'acc_acme_a_001', budget: 1250, currency: 'EUR', entityId: '' },
  { id: 'cmp_2', name: 'Summer', status: 'PAUSED', advertiserId: 'acc_acme_a_001', budget: 99.5, currency: 'EUR', entityId: '' },
];
const md = { tty: false, format: 'markdown' as const, resource: 'campaign' as const };

/** The cells of a markdown table line, split on unescaped pipes (as GFM splits them). */
const cells = (line: string) =>
  line
    .slice(2, -2)
    .split(/(?<!\\) \| /)
    .map((c) => c.trim());

describe('the registry of formats', () => {
  it('lists markdown with the four formats it had, each with a writer that loads', async () => {
    expect(OUTPUT_FORMATS).toEqual(['table', 'json', 'ndjson', 'csv', 'markdown']);
    for (const f of OUTPUT_FORMATS) {
      const { writer } = await FORMATS[f].load();
      expect(Object.keys(writer).sort(), f).toEqual(['list', 'object', 'result']);
    }
  });

  it('answers the facts commands ask instead of naming a format', () => {
    expect(OUTPUT_FORMATS.filter(writesJson)).toEqual(['json', 'ndjson']);
    expect(OUTPUT_FORMATS.filter(drawsForTerminal)).toEqual(['table']);
    expect(OUTPUT_FORMATS.map(jsonLayout)).toEqual(['json', 'json', 'ndjson', 'json', 'json']);
    expect(writesJson('nope')).toBe(false);
  });
});

describe('--output markdown', () => {
  it('a list: header, separator, one row per item, the columns a table shows (entityId empty in every row: left out)', async () => {
    const text = await list([rows], md);
    expect(text).toBe(
      [
        '| id | name | status | advertiserId | budget |',
        '| --- | --- | --- | --- | ---: |',
        '| cmp_1 | Spring | ACTIVE | acc_acme_a_001 | 1250 |',
        '| cmp_2 | Summer | PAUSED | acc_acme_a_001 | 99.5 |',
        '',
      ].join('\n'),
    );
    // The table shows the same columns.
    const table = await list([rows], { ...md, format: 'table' });
    expect(table.split('\n')[1]).toMatch(/id .*name .*status .*advertiserId .*budget/);
    expect(table).not.toContain('entityId');
  });

  it('--fields picks and orders the columns, dotted paths included', async () => {
    const text = await list([[{ ...rows[0], target: { id: 't_1' } }]], { ...md, resource: 'generic', fields: ['status', 'target.id', 'id'] });
    expect(text).toBe('| status | target.id | id |\n| --- | --- | --- |\n| ACTIVE | t_1 | cmp_1 |\n');
  });

  it('--all is one table, the header once, each page written as it arrives', async () => {
    const s = sink();
    const w = new ListWriter({ format: 'markdown', out: s.out, resource: 'campaign', color: false });
    await w.begin();
    await w.page([rows[0]!]);
    const afterFirst = s.text();
    expect(afterFirst.split('\n')).toHaveLength(4); // header, rule, row, ''
    await w.page([rows[1]!]);
    await w.end();
    expect(s.text().startsWith(afterFirst)).toBe(true);
    expect(s.text().match(/^\| --- /gm)).toHaveLength(1);
    expect(s.text().trim().split('\n')).toHaveLength(4);
  });

  it('no rows: says so', async () => {
    expect(await list([[]], md)).toBe('(no rows)\n');
  });

  it('one object (a get) is a field/value table, nested fields as dotted paths', async () => {
    const text = await object({ id: 'cmp_1', budget: { amount: 5, currency: 'EUR' }, tags: ['a', 'b'] }, md);
    expect(text).toBe(
      ['| field | value |', '| --- | --- |', '| id | cmp_1 |', '| budget.amount | 5 |', '| budget.currency | EUR |', '| tags | `["a","b"]` |', ''].join('\n'),
    );
  });

  it('one object with --fields: only those fields', async () => {
    const s = sink();
    await writeObject(rows[0], { format: 'markdown', out: s.out, resource: 'campaign', color: false, fields: ['name', 'id'] });
    expect(s.text()).toBe('| field | value |\n| --- | --- |\n| name | Spring |\n| id | cmp_1 |\n');
  });

  it('a hostile value stays one cell: | between spans, line breaks as <br>, markup in code spans, no escape sequence, no key', async () => {
    const name = `a|b\r\nc\u001b]0;owned\u0007\u001b[31mred\u001b[0m ${KEY} <img src=x> [x](http://e) \`code\` *em* __b__ &amp; \\|`;
    const text = await list([[{ id: 'cmp_1', name }]], { ...md, resource: 'generic', fields: ['id', 'name'] });
    const row = text.split('\n')[2]!;
    expect(cells(row)).toHaveLength(2);
    // Words as they are, the rest in code spans (a fence longer than its backticks), a `|` between spans; the key masked.
    expect(cells(row)[1]).toBe('a\\|b<br>``cred acr_…7081 <img src=x> [x](http://e) `code` *em* __b__ &amp; \\``\\|');
    expect(text).not.toMatch(DANGER);
    expect(text).not.toContain('8f3a9c1d2e4b5a6f');
    expect(text.split('\n')).toHaveLength(4); // header, rule, one row, ''
    // The same value in a get.
    const one = await object({ id: 'cmp_1', note: name }, md);
    expect(one).not.toMatch(DANGER);
    expect(one).not.toContain('8f3a9c1d2e4b5a6f');
    expect(cells(one.split('\n')[3]!)).toHaveLength(2);
  });

  it('a --query result: rows as a table, an object as field/value, scalars as a list, anything else as a JSON block', async () => {
    expect(await list([rows], { ...md, query: '[].{id: id, n: name}' })).toBe('| id | n |\n| --- | --- |\n| cmp_1 | Spring |\n| cmp_2 | Summer |\n');
    expect(await list([rows], { ...md, query: '[].id' })).toBe('- cmp_1\n- cmp_2\n');
    expect(await list([rows], { ...md, query: 'length(@)' })).toBe('2\n');
    expect(await list([rows], { ...md, query: '[0]' })).toMatch(/^\| field \| value \|\n/);
    expect(await list([[rows[0]!]], { ...md, query: '[].[id, name]' })).toBe('```json\n[\n  [\n    "cmp_1",\n    "Spring"\n  ]\n]\n```\n');
  });
});
