// --output table (the default on a terminal): one table for every page of a
// list. The rows are held and drawn at the end (column widths need every row;
// a person reads it, so the size is human-scale; past TABLE_MAX_ROWS a new
// table starts); a single object is a key/value view. What a table left out
// or shortened to fit a known width is said on stderr, with the way to see it.
import { resourceView } from '../resources.js';
import { cellText, jsonText } from '../sanitize.js';
import type { Drawn, TableStyle } from '../table.js';
import { columnsFor, isRow, shownColumns, write, type FormatOptions, type FormatWriter, type Row } from './writer.js';

// Tables (cli-table3 and the Intl formatting of values.ts) load only when one is drawn (#16).
const renderTable: typeof import('../table.js').renderTable = async (...a) => (await import('../table.js')).renderTable(...a);
const renderVertical: typeof import('../table.js').renderVertical = async (...a) => (await import('../table.js')).renderVertical(...a);

export const TABLE_MAX_ROWS = 5000;

function tableStyle(opts: FormatOptions): TableStyle {
  const out = opts.out as { isTTY?: boolean; columns?: number };
  const width = opts.width ?? (out.isTTY === true ? out.columns : undefined);
  return { color: opts.color, width: width !== undefined && width > 0 ? width : undefined, timeZone: opts.timeZone };
}

/** A drawn table on stdout; what it left out or shortened to fit is said on stderr, with the way to see it. */
async function writeDrawn(drawn: Drawn, columns: readonly string[], opts: FormatOptions, width: number | undefined): Promise<void> {
  await write(opts.out, drawn.text + '\n', opts.signal);
  const say = opts.note ?? (() => {});
  if (drawn.hidden.length) {
    const n = drawn.hidden.length;
    const shown = columns.filter((c) => !drawn.hidden.includes(c));
    say(
      `${n} column${n === 1 ? '' : 's'} hidden to fit ${width} columns: ${drawn.hidden.join(', ')}; ` +
        `choose the columns with --fields (e.g. --fields ${[...shown.slice(0, 3), drawn.hidden[0]].join(',')}), or use a wider terminal or --output csv`,
    );
  }
  if (drawn.shortened) say('some cells were shortened to fit (…); --output json or csv shows them whole');
}

/** A single value: an object as key/value, anything else as one line (JSON when it is not text). */
async function writeOne(value: unknown, opts: FormatOptions): Promise<void> {
  if (isRow(value)) return writeDrawn(await renderVertical(value, tableStyle(opts)), [], opts, undefined);
  return write(opts.out, (typeof value === 'string' ? cellText(value) : jsonText(value, 2)) + '\n', opts.signal);
}

export const writer: FormatWriter = {
  list(opts) {
    let held: Row[] = [];
    let columns: string[] | undefined;
    let drawn = false;
    const flush = async () => {
      const rows = held;
      held = [];
      columns ??= shownColumns(rows, opts.resource, opts.fields);
      const style = { ...tableStyle(opts), keepColumns: opts.fields !== undefined, importance: resourceView(opts.resource).importance };
      // Said once, under the first table: the next 5,000 rows hide the same columns.
      const first = !drawn;
      drawn = true;
      const table = await renderTable(columns, rows, style);
      await writeDrawn(first ? table : { ...table, hidden: [], shortened: false }, columns, opts, style.width);
      if (opts.chart !== undefined) {
        const { renderChart } = await import('../chart.js');
        await write(opts.out, '\n' + (await renderChart(rows, opts.chart, { width: style.width ?? 100, color: opts.color })), opts.signal);
      }
    };
    return {
      start: () => Promise.resolve(),
      async page(rows: readonly Row[]) {
        held.push(...rows);
        // With a chart, one table and one chart of every row.
        if (opts.chart === undefined && held.length >= TABLE_MAX_ROWS) await flush();
      },
      async end(rows) {
        if (held.length) await flush();
        else if (rows === 0) await write(opts.out, '(no rows)\n', opts.signal);
      },
    };
  },
  object: writeOne,
  /** A --query result: a table when it is a list of objects (or an object), a line per value of a list of scalars, else JSON. */
  async result(value, opts) {
    const list = Array.isArray(value) ? value : undefined;
    if (list !== undefined && list.length > 0 && list.every(isRow)) {
      const cols = columnsFor(list, 'generic');
      return writeDrawn(await renderTable(cols, list, tableStyle(opts)), cols, opts, tableStyle(opts).width);
    }
    if (isRow(value)) return writeOne(value, opts);
    if (list?.every((v) => !isRow(v) && !Array.isArray(v))) return write(opts.out, list.map((v) => cellText(v) + '\n').join(''), opts.signal);
    if (typeof value === 'string' || typeof value === 'number' || typeof value === 'boolean') return write(opts.out, cellText(value) + '\n', opts.signal);
    return write(opts.out, jsonText(value ?? null, 2) + '\n', opts.signal);
  },
};
