import { PassThrough } from 'node:stream';
import { describe, expect, it } from 'vitest';
import { UsageError } from '../../../../src/cli/errors.js';
import { checkFields, chooseFormat } from '../../../../src/cli/output/format.js';
import { cellText, stripControl } from '../../../../src/cli/output/sanitize.js';
import { ListWriter, writeObject } from '../../../../src/cli/output/writers.js';
import { csvCell } from '../../../../src/cli/output/writers/csv.js';

function sink() {
  const out = new PassThrough();
  let text = '';
  out.on('data', (c) => (text += c));
  return { out, text: () => text };
}

const rows = [
  { id: '1', name: 'Spring', provider: 'provider_a', status: 'ACTIVE', advertiserId: 'acc_1', extra: { x: 1 } },
  { id: '2', name: 'Sum,"mer"', provider: 'provider_b', status: 'PAUSED', advertiserId: 'acc_2' },
];

describe('format selection', () => {
  it('defaults to table on a TTY and json otherwise; flags win', () => {
    expect(chooseFormat({ stdoutIsTTY: true })).toBe('table');
    expect(chooseFormat({ stdoutIsTTY: false })).toBe('json');
    expect(chooseFormat({ stdoutIsTTY: true, json: true })).toBe('json');
    expect(chooseFormat({ stdoutIsTTY: false, output: 'csv' })).toBe('csv');
    expect(chooseFormat({ stdoutIsTTY: true, configured: 'ndjson' })).toBe('ndjson');
    expect(() => chooseFormat({ stdoutIsTTY: true, output: 'xml' })).toThrow(UsageError);
  });
  it('checks --fields against known fields with the list in the hint', () => {
    expect(checkFields(['name', 'id'], 'campaign')).toEqual(['name', 'id']);
    const err = (() => {
      try {
        checkFields(['nmae'], 'campaign');
      } catch (e) {
        return e as UsageError;
      }
    })();
    expect(err?.message).toMatch(/unknown field for campaign: nmae/);
    expect(err?.hint).toMatch(/advertiserId, id, name/);
    // Resources whose fields the spec does not show accept any name.
    expect(checkFields(['anything'], 'mutation')).toEqual(['anything']);
  });
});

describe('list writers', () => {
  it('json across pages is one valid document, rows written as they come', async () => {
    const s = sink();
    const w = new ListWriter({ format: 'json', out: s.out, resource: 'campaign', color: false });
    await w.begin();
    await w.page([rows[0]!]);
    expect(s.text()).toBe('[\n' + JSON.stringify(rows[0]));
    await w.page([rows[1]!]);
    await w.end();
    expect(JSON.parse(s.text())).toEqual(rows);
  });
  it('json with no rows is []', async () => {
    const s = sink();
    const w = new ListWriter({ format: 'json', out: s.out, resource: 'campaign', color: false });
    await w.page([]);
    await w.end();
    expect(JSON.parse(s.text())).toEqual([]);
  });
  it('ndjson is one row per line with --fields order', async () => {
    const s = sink();
    const w = new ListWriter({ format: 'ndjson', out: s.out, resource: 'campaign', fields: ['status', 'id'], color: false });
    await w.page(rows);
    expect(s.text()).toBe('{"status":"ACTIVE","id":"1"}\n{"status":"PAUSED","id":"2"}\n');
  });
  it('csv quotes what needs quoting and writes the header once', async () => {
    const s = sink();
    const w = new ListWriter({ format: 'csv', out: s.out, resource: 'campaign', fields: ['id', 'name'], color: false });
    await w.page([rows[0]!]);
    await w.page([rows[1]!]);
    expect(s.text()).toBe('id,name\n1,Spring\n2,"Sum,""mer"""\n');
    expect(csvCell({ a: 1 })).toBe('"{""a"":1}"');
  });
  it('table uses the resource columns and strips terminal control characters', async () => {
    const s = sink();
    const w = new ListWriter({ format: 'table', out: s.out, resource: 'campaign', color: false });
    await w.page([{ ...rows[0]!, name: 'evil\u001b]0;title\u0007\u001b[2Jname\r\n' }]);
    expect(s.text()).toBe(''); // one table for every page: drawn at the end
    await w.end();
    const text = s.text();
    expect(text).toContain('evilname');
    expect(text).not.toMatch(/\u001b|\u0007/);
    expect(text).toContain('advertiserId');
    expect(text).not.toContain('extra');
  });
  it('keeps unknown fields in json output of an object', async () => {
    const s = sink();
    await writeObject({ id: 'm1', brandNew: [1, 2] }, { format: 'json', out: s.out, resource: 'mutation', color: false });
    expect(JSON.parse(s.text())).toEqual({ id: 'm1', brandNew: [1, 2] });
  });
});

describe('sanitize', () => {
  it('removes C0, C1 and escape sequences', () => {
    // 0x9b is an 8-bit CSI: with its final byte (here 'b') it goes whole.
    expect(stripControl('a\u001b[31mred\u001b[0m\u009bb\u0000c')).toBe('aredc');
    expect(cellText('line1\nline2\tx')).toBe('line1 line2 x');
    expect(cellText(null)).toBe('');
  });
});
