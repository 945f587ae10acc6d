// Stream a list to stdout page by page (memory flat), following nextCursor
// with --all, capping with --max. Whenever the run stops before the end —
// one page shown, --max reached, an error, Ctrl-C — the cursor to resume
// from is printed on stderr.
import type { ApiRequest } from '../../client/http.js';
import type { CommandContext } from '../../cli/context.js';
import { ListWriter, type WriterOptions } from '../../cli/output/writers.js';
import { LIMIT_DEFAULT } from '../../contract/ids.js';

export interface ListOptions {
  all: boolean;
  limit?: number | undefined;
  max?: number | undefined;
  resource: string;
  fields?: string[] | undefined;
  /** Writer options from prepareOutput (signal, --query, chart); default: from the context. */
  output?: WriterOptions;
  /** Told how many rows were written, once the list ended without failing. */
  onEnd?: (rows: number) => Promise<void> | void;
}

export async function streamList(ctx: CommandContext, req: ApiRequest, opts: ListOptions): Promise<number> {
  const client = await ctx.client();
  const writer = new ListWriter(opts.output ?? { format: ctx.output.format, out: ctx.io.stdout, resource: opts.resource, fields: opts.fields, color: ctx.output.color, signal: ctx.signal });
  let cursor = req.query?.cursor as string | undefined;
  let finished = false;
  let pagesRead = 0;
  const spinner = await ctx.spinner('Loading…');
  await writer.begin();
  try {
    for (;;) {
      const remaining = opts.max !== undefined ? opts.max - writer.rowsWritten : undefined;
      // With --max, ask for no more than remain so the next cursor resumes exactly.
      const limit = remaining !== undefined ? Math.min(opts.limit ?? LIMIT_DEFAULT, remaining) : opts.limit;
      const res = await client.request<Record<string, unknown>>({
        ...req,
        query: { ...req.query, cursor, limit },
        signal: ctx.signal,
      });
      const body = res.body && typeof res.body === 'object' ? res.body : {};
      const rows = Array.isArray(body.data) ? (body.data as Record<string, unknown>[]) : [];
      spinner.stop();
      pagesRead++;
      await writer.page(rows);
      const next = typeof body.nextCursor === 'string' && body.nextCursor !== '' ? body.nextCursor : undefined;
      if (!next) {
        finished = true;
        break;
      }
      cursor = next;
      if (!opts.all || (opts.max !== undefined && writer.rowsWritten >= opts.max)) break;
    }
  } catch (err) {
    // Stopped by a failure or Ctrl-C after some pages: the error report carries
    // the cursor to resume from (the page that did not arrive).
    if (pagesRead > 0 && cursor && err && typeof err === 'object') (err as { resumeCursor?: string }).resumeCursor = cursor;
    throw err;
  } finally {
    spinner.stop();
    await writer.end();
  }
  await opts.onEnd?.(writer.rowsWritten);
  if (!finished && cursor) ctx.note(`next cursor: ${cursor}\n(more rows: resume with --cursor '${cursor}')`);
  return 0;
}
