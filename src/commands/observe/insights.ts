// `adops observe insights`: the generic list, with (on a terminal, table
// format, --chart METRIC) a chart of that metric over time under the one
// table; and when the range holds no data, which range the store does hold.
import type { CommandContext } from '../../cli/context.js';
import { date as isCalendarDate } from '../../contract/request-formats.js';
import { drawsForTerminal } from '../../cli/output/writers/formats.js';
import type { CommandSpec } from '../../cli/registry.js';
import type { OperationCommandData, OperationInput } from '../_shared/operation-data.js';
import { run as runOperation } from '../operation.js';

const DAY = 86_400_000;

/** First and last period with data in [since, until] at this grain (every page read). */
async function bounds(
  ctx: CommandContext,
  filters: Record<string, string>,
  since: string,
  until: string,
  grain: 'month' | 'day',
): Promise<{ first: string; last: string } | undefined> {
  const client = await ctx.client();
  let first: string | undefined;
  let last: string | undefined;
  let page = 0;
  // The one paginator (a repeated cursor stops it), at most 40 pages.
  for await (const { rows } of client.pages('listInsights', { query: { ...filters, since, until, timeGrain: grain } }, { pageSize: 500, signal: ctx.signal })) {
    for (const row of rows) {
      if (!row.impressions && !row.spend) continue;
      if (row.dateStart && (!first || row.dateStart < first)) first = row.dateStart;
      if (row.dateStop && (!last || row.dateStop > last)) last = row.dateStop;
    }
    if (++page >= 40) break;
  }
  return first && last ? { first, last } : undefined;
}

/**
 * First and last day with data, read with public operations only: monthly
 * totals over the ten years before `until` (or today), then daily totals of
 * the first and the last of those months.
 */
export async function storedRange(ctx: CommandContext, until: string, filters: Record<string, string>): Promise<{ first: string; last: string } | undefined> {
  const end = new Date(Math.max(Date.parse(`${until}T00:00:00Z`), ctx.clock.now())).toISOString().slice(0, 10);
  const since = new Date(Date.parse(`${end}T00:00:00Z`) - 3650 * DAY).toISOString().slice(0, 10);
  const months = await bounds(ctx, filters, since, end, 'month');
  if (!months) return undefined;
  const monthEnd = (d: string) => new Date(Date.UTC(Number(d.slice(0, 4)), Number(d.slice(5, 7)), 0)).toISOString().slice(0, 10);
  const head = await bounds(ctx, filters, months.first, monthEnd(months.first), 'day');
  const tail = await bounds(ctx, filters, `${months.last.slice(0, 8)}01`, months.last, 'day');
  return { first: head?.first ?? months.first, last: tail?.last ?? months.last };
}

type Chart = 'spend' | 'impressions' | 'clicks' | 'reach' | 'conversions';

export async function run(ctx: CommandContext, input: OperationInput<{ chart?: Chart }>, data: OperationCommandData, command: CommandSpec): Promise<number> {
  const { chart } = input.opts;
  const drawable = chart !== undefined && drawsForTerminal(ctx.output.format) && ctx.io.stdoutIsTTY;
  if (chart !== undefined && !drawable) {
    ctx.warn(
      `--chart draws under a table on a terminal; not drawn ${ctx.io.stdoutIsTTY ? `with --output ${ctx.output.format}` : 'when stdout is not a terminal'}`,
    );
  }
  const onEnd = async (rows: number) => {
    const { until } = input.opts;
    if (rows > 0 || input.opts.cursor !== undefined || typeof until !== 'string' || !isCalendarDate(until)) return;
    const filters: Record<string, string> = {};
    if (typeof input.opts.advertiser === 'string') filters.advertiserId = input.opts.advertiser;
    if (typeof input.opts.provider === 'string') filters.provider = input.opts.provider;
    const range = await storedRange(ctx, until, filters).catch(() => undefined);
    ctx.note(
      range
        ? `no insights from ${String(input.opts.since)} to ${until}; the store holds ${range.first} to ${range.last}${Object.keys(filters).length ? ' for these filters' : ''}`
        : `no insights from ${String(input.opts.since)} to ${until}, and none stored in the ten years before`,
    );
  };
  return runOperation(ctx, input, data, command, drawable ? { chart } : {}, onEnd);
}
