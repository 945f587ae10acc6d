// --output markdown: a GitHub-flavoured table, what a CI job appends to
// $GITHUB_STEP_SUMMARY or pastes into a pull request. A list is one table
// (header once) streamed row by row, the table's columns fixed by the first
// page (the columns a table shows, or --fields); numbers right-aligned; raw
// values, as CSV has them (times as sent, not local: a reader may be anywhere).
// One object is a field/value table, nested fields as dotted paths.
//
// Every cell passes the text boundary (stripControl: secrets masked, control
// characters and escape sequences removed), then is escaped so that outside
// text stays text: `|` cannot open a cell, `<` an HTML tag, `[` a link or an
// image, `` ` * _ ~ `` a code span or emphasis, `&` an entity; a line break
// becomes `<br>` (a row is one line).
import { flatten, getPath } from '../fields.js';
import { asText, jsonText, stripControl } from '../sanitize.js';
import { columnsFor, isRow, shownColumns, write, type FormatWriter, type Row } from './writer.js';

// `_` only where it could open or close emphasis (GFM ignores one inside a word: acc_acme_001 stays as it is).
const MARKUP = /[\\|`*~[\]<>]|&(?=#?[A-Za-z0-9]+;)|(?<![A-Za-z0-9])_|_(?![A-Za-z0-9])/g;
const LINE_BREAK = /\r\n?|[\n\u2028\u2029]/g;

/** One cell's text: masked, stripped, escaped, on one line. */
function cell(value: unknown): string {
  if (value === null || value === undefined) return '';
  const text = typeof value === 'object' ? jsonText(value) : asText(value);
  return stripControl(text.replace(LINE_BREAK, '\n')).replace(MARKUP, '\\$&').replace(/\t/g, ' ').replace(/\n/g, '<br>');
}

const line = (cells: readonly string[]) => `| ${cells.join(' | ')} |\n`;
const isNumber = (v: unknown) => typeof v === 'number';

/** Header and separator; a column whose values (in these rows) are all numbers is right-aligned. */
function head(columns: readonly string[], rows: readonly Row[]): string {
  const rule = columns.map((c) => {
    const values = rows.map((r) => getPath(r, c)).filter((v) => v !== null && v !== undefined);
    return values.length > 0 && values.every(isNumber) ? '---:' : '---';
  });
  return line(columns.map(cell)) + line(rule);
}

const body = (columns: readonly string[], rows: readonly Row[]) => rows.map((r) => line(columns.map((c) => cell(getPath(r, c))))).join('');

const fieldTable = (value: Row) =>
  line(['field', 'value']) +
  line(['---', '---']) +
  flatten(value)
    .map(([k, v]) => line([cell(k), cell(v)]))
    .join('');

/** A value that is not a table: text on its line, anything else as a JSON block (a JSON line never starts with a backtick: the fence holds). */
const block = (value: unknown) =>
  typeof value === 'string' || typeof value === 'number' || typeof value === 'boolean'
    ? `${cell(value)}\n`
    : '```json\n' + jsonText(value ?? null, 2) + '\n```\n';

export const writer: FormatWriter = {
  list({ out, resource, fields, signal }) {
    let columns: string[] | undefined;
    return {
      start: () => Promise.resolve(),
      async page(rows: readonly Row[]) {
        const first = columns === undefined;
        columns ??= shownColumns(rows, resource, fields);
        await write(out, (first ? head(columns, rows) : '') + body(columns, rows), signal);
      },
      end: (rows) => (rows === 0 ? write(out, '(no rows)\n', signal) : Promise.resolve()),
    };
  },
  object: (value, { out, signal }) => write(out, isRow(value) ? fieldTable(value) : block(value), signal),
  result(value, { out, signal }) {
    const list = Array.isArray(value) ? value : undefined;
    if (list?.length === 0) return write(out, '(no rows)\n', signal);
    if (list?.every(isRow)) {
      const cols = columnsFor(list, 'generic');
      return write(out, head(cols, list) + body(cols, list), signal);
    }
    if (isRow(value)) return write(out, fieldTable(value), signal);
    if (list?.every((v) => !isRow(v) && !Array.isArray(v))) return write(out, list.map((v) => `- ${cell(v)}\n`).join(''), signal);
    return write(out, block(value), signal);
  },
};
