// Issue 9: server text must not drive the terminal. Every human view and CSV
// strips ESC sequences, C1 controls and bidi overrides; JSON and NDJSON keep
// the characters but as \u escapes.
import { describe, expect, it } from 'vitest';
import { csvCell } from '../../../../src/cli/output/writers/csv.js';
import { cellText, jsonText, jsonTexts, stripControl } from '../../../../src/cli/output/sanitize.js';
import { DANGER, EVIL, list, object, SAFE } from './helpers.js';

describe('untrusted text in human and CSV output', () => {
  it('stripControl removes ESC sequences, C1 controls and bidi overrides', () => {
    expect(stripControl(EVIL)).toBe(SAFE);
    expect(cellText(`x\u202ey\nz`)).toBe('xy z');
  });

  it('a table and a key/value view show the text without them', async () => {
    const table = await list([[{ id: '1', name: EVIL }]], { tty: true });
    expect(table).toContain(SAFE);
    expect(table).not.toMatch(DANGER);
    const kv = await object({ id: '1', name: EVIL, nested: { note: EVIL } }, { tty: true });
    expect(kv).toContain(SAFE);
    expect(kv).toMatch(/nested\.note/);
    expect(kv).not.toMatch(DANGER);
  });

  it('CSV cells are stripped, keep line breaks quoted, and guard formulas but not numbers', async () => {
    expect(csvCell(EVIL)).toBe(SAFE);
    expect(csvCell('two\nlines')).toBe('"two\nlines"');
    expect(csvCell('=HYPERLINK("http://x")')).toBe(`"'=HYPERLINK(""http://x"")"`);
    expect(csvCell('@SUM(A1)')).toBe("'@SUM(A1)");
    expect(csvCell('+33 6 12')).toBe("'+33 6 12");
    expect(csvCell(-5)).toBe('-5');
    expect(csvCell('-5.25')).toBe('-5.25');
    const csv = await list([[{ id: '1', name: EVIL, n: -3 }]], { tty: false, format: 'csv' });
    expect(csv).toBe(`id,name,n\n1,${SAFE},-3\n`);
  });

  it('JSON and NDJSON keep the characters, escaped (C1 and bidi too), so the value survives', async () => {
    const text = jsonText({ name: '\u0085\u009b\u202e\u2066' });
    expect(text).toBe('{"name":"\\u0085\\u009b\\u202e\\u2066"}');
    expect(JSON.parse(text).name).toBe('\u0085\u009b\u202e\u2066');
    for (const format of ['json', 'ndjson'] as const) {
      const out = await list([[{ id: '1', name: EVIL }]], { tty: false, format });
      expect(out).not.toMatch(DANGER);
      const first = format === 'json' ? JSON.parse(out)[0] : JSON.parse(out.split('\n')[0]!);
      expect(first.name).toBe(EVIL);
    }
    const obj = await object({ name: EVIL }, { tty: false });
    expect(obj).not.toMatch(DANGER);
    expect(JSON.parse(obj).name).toBe(EVIL);
  });

  it('a page escaped in one pass (jsonTexts) is the rows escaped one by one, over pages and with --fields', async () => {
    const rows = [
      { id: '1', name: EVIL },
      { id: '2', name: 'plain', n: 3 },
      { id: '3', note: '\u2028\u007f', nested: { x: EVIL } },
    ];
    expect(jsonTexts(rows, () => '', '\n')).toBe(rows.map((r) => jsonText(r) + '\n').join(''));
    expect(jsonTexts(rows, (i) => (i === 0 ? '\n' : ',\n'))).toBe(rows.map((r, i) => (i === 0 ? '\n' : ',\n') + jsonText(r)).join(''));
    const pages = [rows.slice(0, 1), rows.slice(1)];
    const ndjson = await list(pages, { tty: false, format: 'ndjson' });
    expect(ndjson).toBe(rows.map((r) => jsonText(r) + '\n').join(''));
    expect(await list(pages, { tty: false, format: 'json' })).toBe(`[\n${rows.map((r) => jsonText(r)).join(',\n')}\n]\n`);
    const picked = await list(pages, { tty: false, format: 'ndjson', fields: ['name'] });
    expect(picked).toBe(rows.map((r) => jsonText({ name: r.name ?? null }) + '\n').join(''));
  });
});
