// --output csv: RFC 4180 with a header row, `\n` line ends, raw values
// (nested ones as JSON), streamed page by page. Columns are fixed by the first
// page: --fields as named; else ALL the resource's default columns (a loader
// gets the same header every day, present or not in today's rows), with the
// currency beside the first money column (CSV keeps bare numbers, and one
// export may mix USD, EUR and GBP); else the rows' own keys.
import { getPath } from '../fields.js';
import { MONEY_KEYS } from '../money.js';
import { resourceView, type ViewName } from '../resources.js';
import { asText, cellText, csvText, jsonText } from '../sanitize.js';
import { columnsFor, isRow, write, type FormatWriter, type Row } from './writer.js';

// A spreadsheet runs a cell starting with one of these as a formula (CSV
// injection); a plain number such as -5 is not one and stays numeric.
const FORMULA_START = /^[=+\-@\t\r]/;
const PLAIN_NUMBER = /^[+-]?(\d+\.?\d*|\.\d+)([eE][+-]?\d+)?$/;

/** One CSV cell: raw value (objects as JSON), controls stripped, RFC 4180 quoting, formula guard. */
export function csvCell(value: unknown): string {
  if (value === null || value === undefined) return '';
  let text = typeof value === 'object' ? jsonText(value) : typeof value === 'string' ? csvText(value) : asText(value);
  if (typeof value === 'string' && FORMULA_START.test(text) && !PLAIN_NUMBER.test(text)) text = `'${text}`;
  return /[",\r\n]/.test(text) || /^\s|\s$/.test(text) ? `"${text.replace(/"/g, '""')}"` : text;
}

const csvLine = (cells: readonly unknown[]) => cells.map(csvCell).join(',') + '\n';

/** A list's columns (see the top); undefined: not known without rows. */
function csvColumns(rows: readonly Row[], resource: ViewName, fields?: readonly string[]): string[] | undefined {
  if (fields) return [...fields];
  const view = resourceView(resource);
  if (view.columns.length === 0) return rows.length ? columnsFor(rows, resource) : undefined;
  const cols = [...view.columns];
  const money = cols.findIndex((c) => MONEY_KEYS.has(c));
  if (money >= 0 && !cols.includes('currency') && view.fields?.includes('currency')) cols.splice(money + 1, 0, 'currency');
  return cols;
}

const isScalar = (v: unknown) => !isRow(v) && !Array.isArray(v);

export const writer: FormatWriter = {
  list(opts) {
    const { out, resource, fields, signal } = opts;
    let columns: string[] | undefined;
    return {
      start: () => Promise.resolve(),
      async page(rows: readonly Row[]) {
        const header = columns === undefined;
        columns ??= csvColumns(rows, resource, fields)!;
        let text = header ? csvLine(columns) : '';
        for (const row of rows) text += csvLine(columns.map((c) => getPath(row, c)));
        await write(out, text, signal);
      },
      async end(rows) {
        if (rows > 0) return;
        // An empty export still has its header when the columns are known: a loader reading
        // a quiet day's file finds the columns it expects, not a 0-byte file.
        const cols = csvColumns([], resource, fields);
        if (cols) await write(out, csvLine(cols), signal);
      },
    };
  },
  object(value, { out, fields, signal }) {
    if (!isRow(value)) return write(out, (typeof value === 'string' ? cellText(value) : jsonText(value, 2)) + '\n', signal);
    const cols = fields ?? Object.keys(value);
    return write(out, csvLine(cols) + csvLine(cols.map((c) => getPath(value, c))), signal);
  },
  async result(value, opts) {
    const { out, signal } = opts;
    const list = Array.isArray(value) ? value : undefined;
    if (list?.length === 0) {
      // No rows: the header when the query's shape names the columns, else nothing (never `[]` in a CSV).
      const { queryColumns } = await import('../query.js');
      const cols = opts.query !== undefined ? await queryColumns(opts.query) : undefined;
      return cols ? write(out, csvLine(cols), signal) : undefined;
    }
    if (list?.every(isRow)) {
      const cols = columnsFor(list, 'generic');
      return write(out, csvLine(cols) + list.map((r) => csvLine(cols.map((c) => r[c]))).join(''), signal);
    }
    if (list?.every(isScalar)) return write(out, list.map((v) => csvLine([v])).join(''), signal);
    return write(out, jsonText(value ?? null, 2) + '\n', signal);
  },
};
