// `--chart <metric>` under an Insights table on a terminal: one metric over
// time, one line per entity (the five largest by the metric when there are
// more, so the chart stays readable and never sums different currencies).
// asciichart is imported only when a chart is drawn.
import { cellText } from './sanitize.js';
import { formatNumber } from './values.js';

type Row = Record<string, unknown>;

export interface ChartOptions {
  width?: number | undefined;
  height?: number | undefined;
  color: boolean;
}

export const MAX_SERIES = 5;
const LABEL_WIDTH = 12;

/** The period a row belongs to: Insights rows carry dateStart. */
const periodOf = (r: Row): string | undefined => [r.dateStart, r.date, r.period].find((v): v is string => typeof v === 'string');

/** Which line a row belongs to: the entity, else the breakdown's dimension. */
function seriesOf(r: Row, withCurrency: boolean): string {
  const who = [r.entityId, r.advertiserId, r.provider, r.entityType].find((v) => typeof v === 'string' && v !== '');
  const label = who === undefined ? 'total' : cellText(who);
  return withCurrency && typeof r.currency === 'string' ? `${label} (${cellText(r.currency)})` : label;
}

/** n values squeezed (mean per bucket) or stretched (each repeated) towards `width` columns. */
export function resample(values: readonly number[], width: number): number[] {
  if (values.length === 0 || width <= 0) return [];
  if (values.length > width) {
    const out: number[] = [];
    for (let i = 0; i < width; i++) {
      const from = Math.floor((i * values.length) / width);
      const to = Math.max(from + 1, Math.floor(((i + 1) * values.length) / width));
      const slice = values.slice(from, to);
      out.push(slice.reduce((a, b) => a + b, 0) / slice.length);
    }
    return out;
  }
  const k = Math.max(1, Math.min(8, Math.floor(width / values.length)));
  return values.flatMap((v) => Array<number>(k).fill(v));
}

export async function renderChart(rows: readonly Row[], metric: string, opts: ChartOptions): Promise<string> {
  const periods = [...new Set(rows.map(periodOf).filter((p): p is string => p !== undefined))].sort();
  if (periods.length < 2) return `(${cellText(metric)}: one period only, nothing to chart; ask for a day, week or month time grain)\n`;
  const currencies = new Set(rows.map((r) => r.currency).filter((c) => typeof c === 'string'));
  const withCurrency = metric === 'spend' && currencies.size > 1;
  const index = new Map(periods.map((p, i) => [p, i]));
  const series = new Map<string, number[]>();
  for (const r of rows) {
    const p = periodOf(r);
    const v = r[metric];
    if (p === undefined || typeof v !== 'number') continue;
    const key = seriesOf(r, withCurrency);
    let values = series.get(key);
    if (!values) series.set(key, (values = Array<number>(periods.length).fill(0)));
    values[index.get(p)!]! += v;
  }
  if (series.size === 0) return `(${cellText(metric)}: no numeric values to chart)\n`;
  const total = (v: number[]) => v.reduce((a, b) => a + b, 0);
  const shown = [...series.entries()].sort((a, b) => total(b[1]) - total(a[1])).slice(0, MAX_SERIES);

  // CommonJS: its functions are named exports under Node, or sit on `default` under other loaders.
  const mod = await import('asciichart');
  const asciichart = typeof mod.plot === 'function' ? mod : mod.default;
  const palette = [asciichart.cyan, asciichart.magenta, asciichart.yellow, asciichart.green, asciichart.blue];
  const plotWidth = Math.max(10, (opts.width ?? 80) - LABEL_WIDTH - 2);
  const all = shown.flatMap(([, v]) => v);
  const range = Math.max(...all) - Math.min(...all);
  // Labels as precise as the range needs: 1,498 rather than 1,497.7 and 1,397.99.
  const step = range >= 100 ? 1 : range >= 10 ? 10 : 100;
  const format = (x: number) => formatNumber(Math.round(x * step) / step).padStart(LABEL_WIDTH);
  const draw = (values: number[][], height: number, colors?: string[]) =>
    asciichart.plot(
      values.map((v) => resample(v, plotWidth)),
      { height, padding: ' '.repeat(LABEL_WIDTH), format, ...(colors ? { colors } : {}) },
    );
  const points = resample(shown[0]![1], plotWidth).length;
  const first = periods[0]!;
  const last = periods[periods.length - 1]!;
  const axis = ' '.repeat(LABEL_WIDTH + 2) + first + last.padStart(Math.max(points - first.length, last.length + 1));
  const title = `${cellText(metric)} by ${periods.length} periods${series.size > MAX_SERIES ? ` (top ${MAX_SERIES} of ${series.size})` : ''}`;
  const height = opts.height ?? 10;
  if (opts.color || shown.length === 1) {
    // Colour tells the lines apart: one chart, a legend in the same colours.
    const plot = draw(
      shown.map(([, v]) => v),
      height,
      opts.color ? palette : undefined,
    );
    const legend = shown.map(([name], i) => `  ${opts.color ? asciichart.colored('──', palette[i % palette.length]) : '──'} ${name}`);
    return [title, plot, axis, ...legend].join('\n') + '\n';
  }
  // Without colour, lines on one chart cannot be told apart: a small chart per entity.
  const small = Math.max(3, Math.floor(height / 2));
  const blocks = shown.flatMap(([name, v]) => [`── ${name}`, draw([v], small)]);
  return [title, ...blocks, axis].join('\n') + '\n';
}
