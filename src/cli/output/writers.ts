// Results on stdout, the same way for every format: the --fields checks, the
// --query (it applies to the whole list, so its rows are held), the count of
// rows; then the writer of the chosen format (one file each under ./writers/,
// listed in ./writers/formats.ts) writes. Every wait for a full pipe to drain
// ends when the command's signal aborts (Ctrl-C), so a stalled reader cannot swallow it.
import { UsageError } from '../errors.js';
import { checkFields, checkFieldsInData, pick } from './fields.js';
import { resourceView, type ViewName } from './resources.js';
import { cellText } from './sanitize.js';
import { writerOf, type OutputFormat } from './writers/formats.js';
import { isRow, type FormatOptions, type Row, type RowSink } from './writers/writer.js';

export { write } from './writers/writer.js';

export interface WriterOptions extends FormatOptions {
  format: OutputFormat;
}

export class ListWriter {
  private count = 0;
  private started = false;
  private checked = false;
  private sink: RowSink | undefined;
  /** Rows held for the query. */
  private held: Row[] = [];
  constructor(private readonly opts: WriterOptions) {}

  get rowsWritten(): number {
    return this.count;
  }

  async begin(): Promise<void> {
    // The writer starts with the first page: a list that fails before any answer prints nothing.
  }

  async page(rows: readonly Row[]): Promise<void> {
    const { fields, query } = this.opts;
    if (rows.length > 0 && !this.checked) {
      // Before anything is written: an unknown --fields name is a usage error, not a column of nulls.
      checkFieldsInData(fields, this.opts.resource, rows);
      this.checked = true;
    }
    if (!this.started) {
      this.started = true;
      if (query === undefined) {
        this.sink = (await writerOf(this.opts.format)).list(this.opts);
        await this.sink.start();
      }
    }
    if (rows.length === 0) return;
    this.count += rows.length;
    if (this.sink) await this.sink.page(rows);
    else for (const r of rows) this.held.push(pick(r, fields));
  }

  async end(): Promise<void> {
    if (!this.started) return;
    if (this.sink) return this.sink.end(this.count);
    const { applyQuery } = await import('./query.js');
    const rows = this.held;
    this.held = [];
    await (await writerOf(this.opts.format)).result(await applyQuery(rows, this.opts.query!), this.opts);
  }
}

/** One value (a get, a create's answer), --fields applied to an object; with --query, what the query gives. */
export async function writeObject(value: unknown, opts: WriterOptions): Promise<void> {
  if (value === undefined) return;
  const { fields, query } = opts;
  if (isRow(value)) checkFieldsInData(fields, opts.resource, [value]);
  const shown = isRow(value) ? pick(value, fields) : value;
  const writer = await writerOf(opts.format);
  if (query === undefined) return writer.object(shown, opts);
  const { applyQuery } = await import('./query.js');
  return writer.result(await applyQuery(shown, query), opts);
}

export interface OutputContext {
  output: { format: OutputFormat; fields?: string[] | undefined; color: boolean; query?: string | undefined };
  io: { stdout: FormatOptions['out'] };
  signal?: AbortSignal;
  note?(message: string): void;
}

/**
 * WriterOptions from a command's context, every output flag checked before
 * anything is sent: --fields (strict resources), --query (parsed; loads the
 * JMESPath library only when a query is given), --chart (a metric of the resource).
 */
export async function prepareOutput(ctx: OutputContext, resource: ViewName, extra: Partial<WriterOptions> = {}): Promise<WriterOptions> {
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
