// `adops plans pacing SLUG [--as-of DATE] [--band LOW,HIGH] [--exit-code] [--chart]`:
// spend against plan per executed Line Item (flows/plan-pacing.ts), in every
// output format. --chart, on a terminal with a table, draws the cumulative
// spend against the ideal line under it, in the plan's one currency.
// --suggest FILE writes the daily budgets that bring each daily-budget Line
// Item outside the band to its planned total (flows/plan-suggest.ts).
import type { CommandContext } from '../../cli/context.js';
import { UsageError } from '../../cli/errors.js';
import { EXIT } from '../../cli/exit-codes.js';
import { date as isCalendarDate } from '../../contract/request-formats.js';
import { cellText } from '../../cli/output/sanitize.js';
import { write } from '../../cli/output/writers/writer.js';
import { drawsForTerminal } from '../../cli/output/writers/formats.js';
import { ListWriter, prepareOutput } from '../../cli/output/writers.js';
import type { CommandInput } from '../../cli/registry.js';
import { pacePlan, pacingSummary, type PacingSeries } from '../../flows/plan-pacing.js';
import { suggestOf } from '../../flows/plan-suggest.js';
import { checkChangeFile, writeChangeFile } from './change-file.js';
import { readPlan, todayOf } from './plan-read.js';

export const DEFAULT_BAND = [90, 110] as const;

/** --band LOW,HIGH: two percentages, LOW not above HIGH. */
export function parseBand(given: readonly string[] | undefined): readonly [number, number] {
  if (given === undefined) return DEFAULT_BAND;
  const numbers = given.map((s) => (s.trim() === '' ? NaN : Number(s)));
  if (numbers.length !== 2 || numbers.some((n) => !Number.isFinite(n) || n < 0) || numbers[0]! > numbers[1]!) {
    throw new UsageError(`--band ${cellText(given.join(','))}: not two percentages LOW,HIGH`, `e.g. --band ${DEFAULT_BAND.join(',')} (the default)`);
  }
  return [numbers[0]!, numbers[1]!];
}

type Opts = { asOf?: string; band?: string[]; lineItem?: string; exitCode?: boolean; chart?: boolean; suggest?: string; force?: boolean };

export async function run(ctx: CommandContext, input: CommandInput<Opts, { slug: string }>): Promise<number> {
  const { asOf = todayOf(ctx), chart } = input.opts;
  if (!isCalendarDate(asOf)) throw new UsageError(`--as-of ${cellText(asOf)}: not a calendar date YYYY-MM-DD`);
  const band = parseBand(input.opts.band);
  if (input.opts.suggest !== undefined) checkChangeFile(input.opts.suggest, input.opts.force);
  const out = await prepareOutput(ctx, 'planPacing');
  const drawable = chart === true && drawsForTerminal(ctx.output.format) && ctx.io.stdoutIsTTY;
  if (chart === true && !drawable) {
    ctx.warn(
      `--chart draws under a table on a terminal; not drawn ${ctx.io.stdoutIsTTY ? `with --output ${ctx.output.format}` : 'when stdout is not a terminal'}`,
    );
  }
  const client = await ctx.client();
  const plan = await readPlan(ctx, client, input.args.slug, input.opts.lineItem, 'planPaced');
  const spinner = await ctx.spinner('Summing Insights of what the Line Items spawned…');
  let result;
  try {
    result = await pacePlan(client, plan, { lineItemId: input.opts.lineItem, asOf, band, signal: ctx.signal });
  } finally {
    spinner.stop();
  }
  const writer = new ListWriter(out);
  await writer.begin();
  await writer.page(result.rows);
  await writer.end();
  if (drawable) for (const s of result.series) await write(ctx.io.stdout, '\n' + (await drawSeries(s, ctx)), ctx.signal);
  if (input.opts.suggest !== undefined) {
    const proposal = await suggestOf(client, plan, input.opts.lineItem, result, ctx.signal);
    await writeChangeFile(ctx, input.opts.suggest, proposal, input.opts.force);
  }
  const { notes, finding } = pacingSummary(result, band);
  for (const note of notes) ctx.note(note);
  return input.opts.exitCode === true && finding ? EXIT.findings : EXIT.ok;
}

/** The one chart code (cli/output/chart.ts): two lines, spend to date and the ideal, day by day. */
async function drawSeries(s: PacingSeries, ctx: CommandContext): Promise<string> {
  const { renderChart } = await import('../../cli/output/chart.js');
  const rows = s.dates.flatMap((date, i) => [
    { dateStart: date, entityId: `spend to date (${s.currency})`, spend: s.spend[i] },
    { dateStart: date, entityId: `ideal (${s.currency})`, spend: s.ideal[i] },
  ]);
  const columns = ctx.io.stdout.columns;
  return (
    `Cumulative spend against the ideal line, ${cellText(s.currency)}\n` +
    (await renderChart(rows, 'spend', { width: columns ?? 100, color: ctx.output.color }))
  );
}
