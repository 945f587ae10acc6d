// `--chart <metric>` under an Insights table on a terminal: one metric over
// time, one line per entity (the five largest by the metric when there are
// more, so the chart stays readable). Money never shares an axis across
// currencies: a money metric (spend) over rows in several currencies draws one
// chart per currency. With colour the lines are told apart by colour; without
// (NO_COLOR, TERM=dumb, a pipe forced to table) by a marker per line (* o + x #),
// each named in the legend. asciichart is imported only when a coloured chart is drawn.
import { cellText } from './sanitize.js';
import { MONEY_KEYS } from './money.js';
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
function seriesOf(r: Row): string {
  const who = [r.entityId, r.advertiserId, r.provider, r.entityType].find((v) => typeof v === 'string' && v !== '');
  return who === undefined ? 'total' : cellText(who);
}

/** Markers of the lines on a chart without colour, in the legend's order. */
export const MARKERS = ['*', 'o', '+', 'x', '#'] as const;

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
  if (MONEY_KEYS.has(metric)) {
    // One currency per axis: 100 EUR and 100 JPY are not the same height.
    const byCurrency = new Map<string, Row[]>();
    // Rows without a number (an advertiser with no currency has no spend) draw nothing in any currency.
    for (const r of rows.filter((x) => typeof x[metric] === 'number')) {
      const currency = typeof r.currency === 'string' && r.currency !== '' ? cellText(r.currency) : '(no currency)';
      byCurrency.set(currency, [...(byCurrency.get(currency) ?? []), r]);
    }
    if (byCurrency.size > 1) {
      const charts: string[] = [];
      for (const [currency, some] of [...byCurrency.entries()].sort(([a], [b]) => a.localeCompare(b))) {
        charts.push(await oneChart(some, metric, periods, opts, ` in ${currency}`));
      }
      return `${cellText(metric)} in ${byCurrency.size} currencies: one chart per currency\n\n` + charts.join('\n');
    }
    const [only] = byCurrency.keys();
    return oneChart(rows, metric, periods, opts, only && only !== '(no currency)' ? ` in ${only}` : '');
  }
  return oneChart(rows, metric, periods, opts, '');
}

/** One chart of `metric` over `periods`: a line per entity (the largest MAX_SERIES), an axis, a legend. */
async function oneChart(rows: readonly Row[], metric: string, periods: readonly string[], opts: ChartOptions, unit: string): Promise<string> {
  const index = new Map(periods.map((p, i) => [p, i]));
  const series = new Map<string, number[]>();
  for (const r of rows) {
    const p = periodOf(r);
    const v = r[metric];
    if (p === undefined || typeof v !== 'number') continue;
    const key = seriesOf(r);
    let values = series.get(key);
    if (!values) series.set(key, (values = Array<number>(periods.length).fill(0)));
    values[index.get(p)!]! += v;
  }
  if (series.size === 0) return `(${cellText(metric)}${unit}: no numeric values to chart)\n`;
  const total = (v: number[]) => v.reduce((a, b) => a + b, 0);
  const shown = [...series.entries()].sort((a, b) => total(b[1]) - total(a[1])).slice(0, MAX_SERIES);

  const plotWidth = Math.max(10, (opts.width ?? 80) - LABEL_WIDTH - 2);
  const all = shown.flatMap(([, v]) => v);
  const range = Math.max(...all) - Math.min(...all);
  // Labels as precise as the range needs: 1,498 rather than 1,497.7 and 1,397.99.
  const step = range >= 100 ? 1 : range >= 10 ? 10 : 100;
  const format = (x: number) => formatNumber(Math.round(x * step) / step).padStart(LABEL_WIDTH);
  const height = opts.height ?? 10;
  const lines = shown.map(([, v]) => resample(v, plotWidth));
  const points = lines[0]!.length;
  const first = periods[0]!;
  const last = periods[periods.length - 1]!;
  const axis = ' '.repeat(LABEL_WIDTH + 2) + first + last.padStart(Math.max(points - first.length, last.length + 1));
  const title = `${cellText(metric)}${unit} by ${periods.length} periods${series.size > MAX_SERIES ? ` (top ${MAX_SERIES} of ${series.size})` : ''}`;
  if (!opts.color) {
    // No colour: a marker per line, named in the legend (one line needs none).
    const plot = markerPlot(lines, height, format, shown.length === 1 ? ['*'] : MARKERS);
    const legend = shown.length === 1 ? [`  * ${shown[0]![0]}`] : shown.map(([name], i) => `  ${MARKERS[i]} ${name}`);
    return [title, plot, axis, ...legend].join('\n') + '\n';
  }
  // CommonJS: its functions are named exports under Node, or sit on `default` under other loaders.
  const mod = await import('asciichart');
  const asciichart = typeof mod.plot === 'function' ? mod : mod.default;
  const palette = [asciichart.cyan, asciichart.magenta, asciichart.yellow, asciichart.green, asciichart.blue];
  const plot = asciichart.plot(lines, { height, padding: ' '.repeat(LABEL_WIDTH), format, colors: palette });
  const legend = shown.map(([name], i) => `  ${asciichart.colored('──', palette[i % palette.length])} ${name}`);
  return [title, plot, axis, ...legend].join('\n') + '\n';
}

/**
 * Lines as markers on a grid of `height` rows, labelled on the left as asciichart labels its
 * rows (`format(value) ┤`). Where two lines meet, the larger one's marker (drawn last) shows.
 */
export function markerPlot(lines: readonly number[][], height: number, format: (x: number) => string, markers: readonly string[]): string {
  const all = lines.flat();
  const min = Math.min(...all);
  const max = Math.max(...all);
  const rows = Math.max(2, height);
  const span = max - min || 1;
  const width = Math.max(...lines.map((l) => l.length));
  const grid = Array.from({ length: rows }, () => Array<string>(width).fill(' '));
  for (let s = lines.length - 1; s >= 0; s--) {
    lines[s]!.forEach((v, x) => {
      grid[rows - 1 - Math.round(((v - min) / span) * (rows - 1))]![x] = markers[s % markers.length]!;
    });
  }
  return grid.map((cells, r) => `${format(max - (r * span) / (rows - 1))} ┤${cells.join('').trimEnd()}`).join('\n');
}
