// Writers for results on stdout. Lists stream: json writes `[`, each row, `]`
// (one valid document, nothing accumulated), ndjson one line per row, csv a
// header then rows, table one table per page (memory flat with --all).
import type { Writable } from 'node:stream';
import { pick, type OutputFormat } from './format.js';
import { resourceView } from './resources.js';
import { cellText } from './sanitize.js';
import { renderTable, renderVertical } from './table.js';

export interface WriterOptions {
  format: OutputFormat;
  out: Writable;
  resource: string;
  fields?: string[] | undefined;
  color: boolean;
}

type Row = Record<string, unknown>;

function write(out: Writable, text: string): Promise<void> {
  return new Promise((resolve, reject) => {
    // Respect back-pressure so a slow pipe keeps memory flat.
    const ok = out.write(text, (err) => (err ? reject(err) : undefined));
    if (ok) resolve();
    else out.once('drain', resolve);
  });
}

export function csvCell(value: unknown): string {
  if (value === null || value === undefined) return '';
  const text = typeof value === 'object' ? JSON.stringify(value) : String(value);
  return /[",\r\n]/.test(text) || /^\s|\s$/.test(text) ? `"${text.replace(/"/g, '""')}"` : text;
}

/** Columns for a table or csv: --fields, else the resource's columns present in the rows, else the rows' own keys. */
export function columnsFor(rows: readonly Row[], resource: string, fields?: readonly string[]): string[] {
  if (fields) return [...fields];
  const view = resourceView(resource);
  const present = view.columns.filter((c) => rows.some((r) => c in r));
  if (present.length) return present;
  const keys: string[] = [];
  for (const r of rows) for (const k of Object.keys(r)) if (!keys.includes(k)) keys.push(k);
  return keys.slice(0, 8);
}

export class ListWriter {
  private count = 0;
  private started = false;
  private columns: string[] | undefined;
  constructor(private readonly opts: WriterOptions) {}

  get rowsWritten(): number {
    return this.count;
  }

  async begin(): Promise<void> {
    // The `[` waits for the first page: a list that fails before any answer prints nothing.
  }

  async page(rows: readonly Row[]): Promise<void> {
    const { format, out, fields } = this.opts;
    if (!this.started) {
      this.started = true;
      if (format === 'json') await write(out, '[');
    }
    if (rows.length === 0) return;
    if (format === 'json') {
      let text = '';
      for (const row of rows) text += (this.count++ === 0 ? '\n' : ',\n') + JSON.stringify(pick(row, fields));
      await write(out, text);
    } else if (format === 'ndjson') {
      await write(out, rows.map((r) => JSON.stringify(pick(r, fields)) + '\n').join(''));
      this.count += rows.length;
    } else if (format === 'csv') {
      this.columns ??= columnsFor(rows, this.opts.resource, fields);
      let text = this.count === 0 ? this.columns.map(csvCell).join(',') + '\n' : '';
      for (const row of rows) text += this.columns.map((c) => csvCell(row[c])).join(',') + '\n';
      this.count += rows.length;
      await write(out, text);
    } else {
      this.columns ??= columnsFor(rows, this.opts.resource, fields);
      this.count += rows.length;
      await write(out, (await renderTable(this.columns, rows, this.opts.color)) + '\n');
    }
  }

  async end(): Promise<void> {
    if (!this.started) return;
    if (this.opts.format === 'json') await write(this.opts.out, this.count === 0 ? ']\n' : '\n]\n');
    else if (this.opts.format === 'table' && this.count === 0) await write(this.opts.out, '(no rows)\n');
  }
}

/** One object (a get, a create's answer): json pretty, ndjson one line, csv one row, table key/value. */
export async function writeObject(value: unknown, opts: WriterOptions): Promise<void> {
  const { format, out, fields } = opts;
  if (value === undefined) return;
  const isRow = value !== null && typeof value === 'object' && !Array.isArray(value);
  const shown = isRow ? pick(value as Row, fields) : value;
  if (format === 'json') return write(out, JSON.stringify(shown, null, 2) + '\n');
  if (format === 'ndjson') return write(out, JSON.stringify(shown) + '\n');
  if (!isRow) return write(out, (typeof shown === 'string' ? cellText(shown) : JSON.stringify(shown, null, 2)) + '\n');
  if (format === 'csv') {
    const cols = Object.keys(shown as Row);
    return write(out, cols.map(csvCell).join(',') + '\n' + cols.map((c) => csvCell((shown as Row)[c])).join(',') + '\n');
  }
  return write(out, (await renderVertical(shown as Row, opts.color)) + '\n');
}
