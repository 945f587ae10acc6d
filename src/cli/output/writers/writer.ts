// What every output format implements (one file each in this folder, listed
// once in formats.ts), and what they share: the abortable write, and the
// columns a list shows. A writer receives values already narrowed by
// --fields (objects) or the fields to show (lists); --query, the --fields
// checks and the choice of the format are writers.ts's, the same for every format.
import type { Writable } from 'node:stream';
import { getPath } from '../fields.js';
import { resourceView, type ViewName } from '../resources.js';

export type Row = Record<string, unknown>;

/** The output flags, resolved, that a format reads (writers.ts's WriterOptions without the format word). */
export interface FormatOptions {
  out: Writable;
  resource: ViewName;
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

/** The rows of one list as the pages arrive. */
export interface RowSink {
  /** The first answer arrived (it may hold no row): a document may open here (json's `[`); a list that fails before any answer prints nothing. */
  start(): Promise<void>;
  /** A page of one row or more, as the service sent them (a writer applies `fields` as its format shows them). */
  page(rows: readonly Row[]): Promise<void>;
  /** The list is over (only after start); `rows`: how many pages' rows arrived in all. */
  end(rows: number): Promise<void>;
}

/** One output format: what `--output <name>` writes. */
export interface FormatWriter {
  /** A list (one page, or every page of --all). */
  list(opts: FormatOptions): RowSink;
  /** One value (a get, a create's answer): an object already narrowed by --fields, or any JSON value. */
  object(value: unknown, opts: FormatOptions): Promise<void>;
  /** What a --query gave (any JSON value: rows, an object, scalars). */
  result(value: unknown, opts: FormatOptions): Promise<void>;
}

export const isRow = (v: unknown): v is Row => v !== null && typeof v === 'object' && !Array.isArray(v);

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

/** Columns of a list: --fields, else the resource's columns present in the rows, else the rows' own keys. */
export function columnsFor(rows: readonly Row[], resource: ViewName, fields?: readonly string[]): string[] {
  if (fields) return [...fields];
  const view = resourceView(resource);
  const present = view.columns.filter((c) => rows.some((r) => getPath(r, c) !== undefined));
  if (present.length) return present;
  const keys: string[] = [];
  for (const r of rows) for (const k of Object.keys(r)) if (!keys.includes(k)) keys.push(k);
  // All of them: a table at a known width hides what does not fit and says so; CSV keeps every one.
  return keys;
}

/** The columns a person sees: columnsFor minus default columns empty in every row (e.g. entityId of a breakdown); --fields as named. */
export function shownColumns(rows: readonly Row[], resource: ViewName, fields?: readonly string[]): string[] {
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
