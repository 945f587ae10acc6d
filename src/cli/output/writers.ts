// Writers for results on stdout. json, ndjson and csv stream page by page
// (json writes `[`, each row, `]`: one valid document, nothing accumulated),
// so memory stays flat with --all. The table buffers the rows and draws ONE
// table at the end (column widths need every row; a person reads it, so the
// size is human-scale; past TABLE_MAX_ROWS it starts a new table). --query
// buffers too: it applies to the whole list. Every wait for a full pipe to
// drain ends when the command's signal aborts (Ctrl-C), so a stalled reader
// cannot swallow it.
import type { Writable } from 'node:stream';
import { UsageError } from '../errors.js';
import { checkFields, checkFieldsInData, getPath, pick } from './fields.js';
import type { OutputFormat } from './format.js';
import { resourceView } from './resources.js';
import { asText, cellText, csvText, jsonText, jsonTexts } from './sanitize.js';
import { MONEY_KEYS } from './money.js';
import type { Drawn, TableStyle } from './table.js';

// Tables (and their Intl formatting, values.ts) load only when one is drawn: JSON, NDJSON and CSV never need them (#16).
const renderTable: typeof import('./table.js').renderTable = async (...a) => (await import('./table.js')).renderTable(...a);
const renderVertical: typeof import('./table.js').renderVertical = async (...a) => (await import('./table.js')).renderVertical(...a);

export interface WriterOptions {
  format: OutputFormat;
  out: Writable;
  resource: string;
  /** Checked with checkFields first; dotted paths allowed. */
  fields?: string[] | undefined;
  color: boolean;
  /** The command's signal: an abort ends any wait for the pipe to drain. */
  signal?: AbortSignal | undefined;
  /** JMESPath over the rows (a list) or the object (see query.ts). */
  query?: string | undefined;
  /** Insights: chart this metric under the table (table format only). */
  chart?: string | undefined;
  /**
   * Terminal columns; default the stream's own when it is a terminal. Unknown
   * (a pipe, a pty reporting 0 columns): tables cut nothing and leave nothing out.
   */
  width?: number | undefined;
  /** A message for the person (stderr): what a table left out to fit, and how to show it. */
  note?: ((message: string) => void) | undefined;
  /** Time zone for times in tables; default local. */
  timeZone?: string | undefined;
}

type Row = Record<string, unknown>;

export const TABLE_MAX_ROWS = 5000;

function abortError(signal: AbortSignal): Error {
  return signal.reason instanceof Error ? signal.reason : new DOMException('The operation was aborted', 'AbortError');
}

/** Write, respecting back-pressure so a slow pipe keeps memory flat; the wait for 'drain' is abortable. */
export function write(out: Writable, text: string, signal?: AbortSignal): Promise<void> {
  return new Promise((resolve, reject) => {
    const ok = out.write(text, (err) => (err ? reject(err) : undefined));
    if (ok) return resolve();
    if (signal?.aborted) return reject(abortError(signal));
    const done = () => {
      out.off('drain', done);
      signal?.removeEventListener('abort', aborted);
      resolve();
    };
    const aborted = () => {
      out.off('drain', done);
      reject(abortError(signal!));
    };
    out.once('drain', done);
    signal?.addEventListener('abort', aborted, { once: true });
  });
}

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

/** Columns for a table or csv: --fields, else the resource's columns present in the rows, else the rows' own keys. */
export function columnsFor(rows: readonly Row[], resource: string, fields?: readonly string[]): string[] {
  if (fields) return [...fields];
  const view = resourceView(resource);
  const present = view.columns.filter((c) => rows.some((r) => getPath(r, c) !== undefined));
  if (present.length) return present;
  const keys: string[] = [];
  for (const r of rows) for (const k of Object.keys(r)) if (!keys.includes(k)) keys.push(k);
  // All of them: a table at a known width hides what does not fit and says so; CSV keeps every one.
  return keys;
}

/**
 * CSV columns, fixed by the first page: --fields as named; else ALL the
 * resource's default columns (a loader gets the same header every day, present
 * or not in today's rows), with the currency beside the first money column
 * (CSV keeps bare numbers, and one export may mix USD, EUR and GBP); else the
 * rows' own keys. Undefined: not known without rows.
 */
function csvColumns(rows: readonly Row[], resource: string, fields?: readonly string[]): string[] | undefined {
  if (fields) return [...fields];
  const view = resourceView(resource);
  if (view.columns.length === 0) return rows.length ? columnsFor(rows, resource) : undefined;
  const cols = [...view.columns];
  const money = cols.findIndex((c) => MONEY_KEYS.has(c));
  if (money >= 0 && !cols.includes('currency') && view.fields?.includes('currency')) cols.splice(money + 1, 0, 'currency');
  return cols;
}

/** A table's default columns minus those empty in every row (e.g. entityId of a breakdown). */
function tableColumns(rows: readonly Row[], resource: string, fields?: readonly string[]): string[] {
  const cols = columnsFor(rows, resource, fields);
  if (fields) return cols;
  const filled = cols.filter((c) =>
    rows.some((r) => {
      const v = getPath(r, c);
      return v !== null && v !== undefined && v !== '';
    }),
  );
  return filled.length ? filled : cols;
}

function tableStyle(opts: WriterOptions): TableStyle {
  const out = opts.out as { isTTY?: boolean; columns?: number };
  const width = opts.width ?? (out.isTTY === true ? out.columns : undefined);
  return { color: opts.color, width: width !== undefined && width > 0 ? width : undefined, timeZone: opts.timeZone };
}

/** A drawn table on stdout; what it left out or shortened to fit is said on stderr, with the way to see it. */
async function writeDrawn(drawn: Drawn, shownColumns: readonly string[], opts: WriterOptions, width: number | undefined): Promise<void> {
  await write(opts.out, drawn.text + '\n', opts.signal);
  const say = opts.note ?? (() => {});
  if (drawn.hidden.length) {
    const n = drawn.hidden.length;
    const shown = shownColumns.filter((c) => !drawn.hidden.includes(c));
    say(
      `${n} column${n === 1 ? '' : 's'} hidden to fit ${width} columns: ${drawn.hidden.join(', ')}; ` +
        `choose the columns with --fields (e.g. --fields ${[...shown.slice(0, 3), drawn.hidden[0]].join(',')}), or use a wider terminal or --output csv`,
    );
  }
  if (drawn.shortened) say('some cells were shortened to fit (…); --output json or csv shows them whole');
}

const isRow = (v: unknown): v is Row => v !== null && typeof v === 'object' && !Array.isArray(v);

export class ListWriter {
  private count = 0;
  private started = false;
  private checked = false;
  private drawn = false;
  private columns: string[] | undefined;
  /** Rows held for the table or the query. */
  private held: Row[] = [];
  constructor(private readonly opts: WriterOptions) {}

  get rowsWritten(): number {
    return this.count;
  }

  private get buffering(): boolean {
    return this.opts.format === 'table' || this.opts.query !== undefined;
  }

  async begin(): Promise<void> {
    // The `[` waits for the first page: a list that fails before any answer prints nothing.
  }

  async page(rows: readonly Row[]): Promise<void> {
    const { format, out, fields, signal } = this.opts;
    if (rows.length > 0 && !this.checked) {
      // Before anything is written: an unknown --fields name is a usage error, not a column of nulls.
      checkFieldsInData(fields, this.opts.resource, rows);
      this.checked = true;
    }
    if (!this.started) {
      this.started = true;
      if (format === 'json' && !this.buffering) await write(out, '[', signal);
    }
    if (rows.length === 0) return;
    if (this.buffering) {
      for (const r of rows) this.held.push(this.opts.query !== undefined ? pick(r, fields) : r);
      this.count += rows.length;
      if (this.opts.query === undefined && this.opts.chart === undefined && this.held.length >= TABLE_MAX_ROWS) await this.flushTable();
      return;
    }
    const shown = () => (fields ? rows.map((r) => pick(r, fields)) : rows);
    if (format === 'json') {
      const first = this.count === 0;
      this.count += rows.length;
      await write(
        out,
        jsonTexts(shown(), (i) => (i === 0 && first ? '\n' : ',\n')),
        signal,
      );
    } else if (format === 'ndjson') {
      await write(
        out,
        jsonTexts(shown(), () => '', '\n'),
        signal,
      );
      this.count += rows.length;
    } else {
      this.columns ??= csvColumns(rows, this.opts.resource, fields)!;
      let text = this.count === 0 ? csvLine(this.columns) : '';
      for (const row of rows) text += csvLine(this.columns.map((c) => getPath(row, c)));
      this.count += rows.length;
      await write(out, text, signal);
    }
  }

  private async flushTable(): Promise<void> {
    const rows = this.held;
    this.held = [];
    this.columns ??= tableColumns(rows, this.opts.resource, this.opts.fields);
    const style = { ...tableStyle(this.opts), keepColumns: this.opts.fields !== undefined, importance: resourceView(this.opts.resource).importance };
    // Said once, under the first table: the next 5,000 rows hide the same columns.
    const first = !this.drawn;
    this.drawn = true;
    const drawn = await renderTable(this.columns, rows, style);
    await writeDrawn(first ? drawn : { ...drawn, hidden: [], shortened: false }, this.columns, this.opts, style.width);
    if (this.opts.chart !== undefined) {
      const { renderChart } = await import('./chart.js');
      await write(this.opts.out, '\n' + (await renderChart(rows, this.opts.chart, { width: style.width ?? 100, color: this.opts.color })), this.opts.signal);
    }
  }

  async end(): Promise<void> {
    if (!this.started) return;
    const { format, out, signal, query } = this.opts;
    if (query !== undefined) {
      const { applyQuery } = await import('./query.js');
      const rows = this.held;
      this.held = [];
      return writeResult(await applyQuery(rows, query), this.opts);
    }
    if (format === 'json') await write(out, this.count === 0 ? ']\n' : '\n]\n', signal);
    else if (format === 'csv' && this.count === 0) {
      // An empty export still has its header when the columns are known: a loader reading
      // a quiet day's file finds the columns it expects, not a 0-byte file.
      const cols = csvColumns([], this.opts.resource, this.opts.fields);
      if (cols) await write(out, csvLine(cols), signal);
    } else if (format === 'table') {
      if (this.held.length) await this.flushTable();
      else if (this.count === 0) await write(out, '(no rows)\n', signal);
    }
  }
}

/** A --query result: JSON, or a table when it is a list of objects (or an object) and the format is table. */
async function writeResult(result: unknown, opts: WriterOptions): Promise<void> {
  const { format, out, signal } = opts;
  const list = Array.isArray(result) ? result : undefined;
  const rowsOnly = list !== undefined && list.length > 0 && list.every(isRow);
  if (format === 'table' && rowsOnly) {
    const cols = columnsFor(list, 'generic');
    return writeDrawn(await renderTable(cols, list, tableStyle(opts)), cols, opts, tableStyle(opts).width);
  }
  if (format === 'table' && isRow(result)) return writeDrawn(await renderVertical(result, tableStyle(opts)), [], opts, undefined);
  if (format === 'table' && list?.every((v) => !isRow(v) && !Array.isArray(v))) return write(out, list.map((v) => cellText(v) + '\n').join(''), signal);
  if (format === 'table' && (typeof result === 'string' || typeof result === 'number' || typeof result === 'boolean'))
    return write(out, cellText(result) + '\n', signal);
  if (format === 'ndjson' && list) return write(out, list.map((v) => jsonText(v) + '\n').join(''), signal);
  if (format === 'csv' && list?.length === 0) {
    // No rows: the header when the query's shape names the columns, else nothing (never `[]` in a CSV).
    const { queryColumns } = await import('./query.js');
    const cols = opts.query !== undefined ? await queryColumns(opts.query) : undefined;
    return cols ? write(out, csvLine(cols), signal) : undefined;
  }
  if (format === 'csv' && rowsOnly) {
    const cols = columnsFor(list, 'generic');
    return write(out, csvLine(cols) + list.map((r) => csvLine(cols.map((c) => r[c]))).join(''), signal);
  }
  if (format === 'csv' && list?.every((v) => !isRow(v) && !Array.isArray(v))) return write(out, list.map((v) => csvLine([v])).join(''), signal);
  return write(out, jsonText(result ?? null, format === 'ndjson' ? undefined : 2) + '\n', signal);
}

/** One object (a get, a create's answer): json pretty, ndjson one line, csv one row, table key/value. */
export async function writeObject(value: unknown, opts: WriterOptions): Promise<void> {
  const { format, out, fields, signal } = opts;
  if (value === undefined) return;
  const isObj = isRow(value);
  if (isObj) checkFieldsInData(fields, opts.resource, [value]);
  const shown = isObj ? pick(value, fields) : value;
  if (opts.query !== undefined) {
    const { applyQuery } = await import('./query.js');
    return writeResult(await applyQuery(shown, opts.query), opts);
  }
  if (format === 'json') return write(out, jsonText(shown, 2) + '\n', signal);
  if (format === 'ndjson') return write(out, jsonText(shown) + '\n', signal);
  if (!isObj) return write(out, (typeof shown === 'string' ? cellText(shown) : jsonText(shown, 2)) + '\n', signal);
  if (format === 'csv') {
    const cols = fields ?? Object.keys(value);
    return write(out, csvLine(cols) + csvLine(cols.map((c) => getPath(value, c))), signal);
  }
  return writeDrawn(await renderVertical(shown as Row, tableStyle(opts)), [], opts, undefined);
}

export interface OutputContext {
  output: { format: OutputFormat; fields?: string[] | undefined; color: boolean; query?: string | undefined };
  io: { stdout: Writable };
  signal?: AbortSignal;
  note?(message: string): void;
}

/**
 * WriterOptions from a command's context, every output flag checked before
 * anything is sent: --fields (strict resources), --query (parsed; loads the
 * JMESPath library only when a query is given), --chart (a metric of the resource).
 */
export async function prepareOutput(ctx: OutputContext, resource: string, extra: Partial<WriterOptions> = {}): Promise<WriterOptions> {
  const fields = checkFields(extra.fields ?? ctx.output.fields, resource);
  const query = extra.query ?? ctx.output.query;
  if (query !== undefined) {
    const { checkQuery } = await import('./query.js');
    await checkQuery(query);
  }
  if (extra.chart !== undefined) {
    const metrics = resourceView(resource).metrics ?? [];
    if (!metrics.includes(extra.chart)) {
      throw new UsageError(
        `--chart ${cellText(extra.chart)}: not a metric of ${resource}`,
        metrics.length ? `chart one of: ${metrics.join(', ')}` : `${resource} has no metric to chart`,
      );
    }
  }
  const note = ctx.note ? (m: string) => ctx.note!(m) : undefined;
  return { format: ctx.output.format, out: ctx.io.stdout, resource, color: ctx.output.color, signal: ctx.signal, note, ...extra, fields, query };
}
