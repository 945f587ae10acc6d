// Stream a list to stdout page by page (memory flat) through the client's
// paginator: --all follows nextCursor, --max caps the rows. Whenever the run
// stops before the end — one page shown, --max reached, an error, Ctrl-C —
// the cursor to resume from is printed once on stderr (an error's report carries it).
import type { ViewName } from '../../cli/output/resources.js';
import type { ApiRequest } from '../../client/http.js';
import { paginate } from '../../client/paginate.js';
import type { CommandContext } from '../../cli/context.js';
import { lineText } from '../../cli/output/sanitize.js';
import { ListWriter, type WriterOptions } from '../../cli/output/writers.js';

export interface ListOptions {
  all: boolean;
  limit?: number | undefined;
  max?: number | undefined;
  resource: ViewName;
  fields?: string[] | undefined;
  /** Writer options from prepareOutput (signal, --query, chart); default: from the context. */
  output?: WriterOptions;
  /** Told how many rows were written, once the list ended without failing. */
  onEnd?: (rows: number) => Promise<void> | void;
}

export async function streamList(ctx: CommandContext, req: ApiRequest, opts: ListOptions): Promise<number> {
  ctx.signal.throwIfAborted();
  const client = await ctx.client();
  const writer = new ListWriter(
    opts.output ?? {
      format: ctx.output.format,
      out: ctx.io.stdout,
      resource: opts.resource,
      fields: opts.fields,
      color: ctx.output.color,
      signal: ctx.signal,
      note: ctx.note,
    },
  );
  let resume: string | undefined;
  const spinner = await ctx.spinner('Loading…');
  await writer.begin();
  try {
    const pages = paginate(client, req, {
      ...(opts.limit !== undefined ? { pageSize: opts.limit } : {}),
      ...(opts.max !== undefined ? { max: opts.max } : {}),
      signal: ctx.signal,
    });
    for await (const page of pages) {
      spinner.stop();
      await writer.page(page.rows);
      resume = page.nextCursor;
      if (!opts.all) break;
    }
  } finally {
    spinner.stop();
    await writer.end();
  }
  await opts.onEnd?.(writer.rowsWritten);
  // Stopped by one page or --max with rows left: say where to go on, the cursor once, on ONE line, the line a
  // script reads (`next cursor: X`; --cursor's help says what it is for). It is server text: one line through
  // the boundary, as report.ts prints it.
  if (resume) ctx.note(`next cursor: ${lineText(resume)}`);
  return 0;
}
