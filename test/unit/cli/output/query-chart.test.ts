// --query (JMESPath over the rows of a list, or the object) and --chart
// (an Insights metric over time under the table).
import { describe, expect, it } from 'vitest';
import { UsageError } from '../../../../src/cli/errors.js';
import { renderChart, resample } from '../../../../src/cli/output/chart.js';
import { applyQuery, checkQuery } from '../../../../src/cli/output/query.js';
import { prepareOutput } from '../../../../src/cli/output/writers.js';
import { list, object, sink } from './helpers.js';

const rows = [
  { id: 'c1', name: 'Spring', status: 'ACTIVE', budget: 10 },
  { id: 'c2', name: 'Summer', status: 'PAUSED', budget: 20 },
  { id: 'c3', name: 'Autumn', status: 'ACTIVE', budget: 30 },
];

describe('--query', () => {
  it('applies to the array of rows of a list, across every page', async () => {
    expect(await applyQuery(rows, "[?status=='ACTIVE'].name")).toEqual(['Spring', 'Autumn']);
    const json = await list([[rows[0]!], [rows[1]!, rows[2]!]], { tty: false, query: "[?status=='ACTIVE'].{id: id, b: budget}" });
    expect(JSON.parse(json)).toEqual([
      { id: 'c1', b: 10 },
      { id: 'c3', b: 30 },
    ]);
    expect(JSON.parse(await list([rows], { tty: false, query: 'length(@)' }))).toBe(3);
  });

  it('a list of objects is a table on a terminal, scalars one per line; ndjson one value per line', async () => {
    const table = await list([rows], { tty: true, query: '[?budget > `15`].{name: name, budget: budget}' });
    expect(table).toMatch(/│ name +│ budget │/);
    expect(table).toMatch(/│ Summer +│ +20 │/);
    expect(await list([rows], { tty: true, query: '[].name' })).toBe('Spring\nSummer\nAutumn\n');
    expect(await list([rows], { tty: false, format: 'ndjson', query: '[].id' })).toBe('"c1"\n"c2"\n"c3"\n');
    expect(await list([rows], { tty: false, format: 'csv', query: '[].{n: name}' })).toBe('n\nSpring\nSummer\nAutumn\n');
  });

  it('applies to the object of a single result', async () => {
    expect(JSON.parse(await object({ id: 'm1', target: { id: '42' } }, { tty: false, query: 'target.id' }))).toBe('42');
    expect(await object({ id: 'm1', target: { id: '42' } }, { tty: true, query: 'target' })).toMatch(/│ id +│ 42 +│/);
  });

  it('a bad expression is a usage error before sending; a runtime type error too', async () => {
    await expect(checkQuery('[?status==')).rejects.toThrow(UsageError);
    await expect(checkQuery("[?status=='ACTIVE']")).resolves.toBeUndefined();
    await expect(applyQuery(rows, 'abs(name)')).rejects.toThrow(/--query "abs\(name\)"/);
    const ctx = { output: { format: 'json' as const, color: false, fields: undefined, query: '[.' }, io: { stdout: sink().out } };
    await expect(prepareOutput(ctx, 'campaign')).rejects.toThrow(UsageError);
  });
});

const day = (d: number) => `2026-09-${String(d).padStart(2, '0')}`;
const insight = (d: number, entityId: string, spend: number) => ({
  dateStart: day(d),
  dateStop: day(d),
  level: 'campaign',
  advertiserId: 'acc_1',
  provider: 'provider_a',
  entityType: 'campaign',
  entityId,
  currency: 'EUR',
  spend,
  impressions: spend * 100,
  clicks: 1,
  reach: 1,
  conversions: 0,
});

describe('--chart', () => {
  // Newest first, as the service answers.
  const series = [5, 4, 3, 2, 1].flatMap((d) => [insight(d, 'c1', d * 10), insight(d, 'c2', 60 - d * 10)]);

  it('draws one line per entity over time, oldest period left, with its legend and range', async () => {
    const chart = await renderChart(series, 'spend', { width: 60, height: 6, color: false });
    expect(chart).toMatch(/^spend in EUR by 5 periods\n/);
    // Without colour one chart, each entity's line drawn with its own marker, named in the legend (#29).
    expect(chart.match(/^ +50 ┤/gm)).toHaveLength(1);
    expect(chart).toMatch(/\n {2}\* c1\n {2}o c2\n$/);
    expect(chart).toMatch(/2026-09-01 +2026-09-05\n/);
    expect(chart).not.toMatch(/\u001b/);
    for (const line of chart.trimEnd().split('\n')) expect([...line].length).toBeLessThanOrEqual(60);
    // With colour: one chart, coloured lines and legend.
    const coloured = await renderChart(series, 'spend', { width: 60, color: true });
    expect(coloured).toMatch(/\u001b\[36m/);
    expect(coloured.match(/^ +50 /gm)).toHaveLength(1);
  });

  it('keeps the five largest lines and says so; one period has nothing to chart', async () => {
    const many = Array.from({ length: 8 }, (_, i) => [insight(1, `e${i}`, i), insight(2, `e${i}`, i)]).flat();
    const chart = await renderChart(many, 'spend', { width: 60, color: false });
    expect(chart).toMatch(/\(top 5 of 8\)/);
    expect(chart).toContain('e7');
    expect(chart).not.toContain('e0');
    expect(await renderChart([insight(1, 'c1', 1)], 'spend', { color: false })).toMatch(/one period only/);
  });

  it('stretches few points and squeezes many to the width', () => {
    expect(resample([1, 2], 6)).toEqual([1, 1, 1, 2, 2, 2]);
    expect(resample([1, 3, 5, 7], 2)).toEqual([2, 6]);
  });

  it('comes under the table on a terminal only; scripts get the rows', async () => {
    const tty = await list([series], { tty: true, resource: 'insight', chart: 'spend' });
    expect(tty.indexOf('└')).toBeLessThan(tty.indexOf('spend in EUR by 5 periods'));
    const json = await list([series], { tty: false, resource: 'insight', chart: 'spend' });
    expect(JSON.parse(json)).toHaveLength(10);
    const ctx = { output: { format: 'table' as const, color: false, fields: undefined }, io: { stdout: sink().out } };
    await expect(prepareOutput(ctx, 'insight', { chart: 'spnd' })).rejects.toMatchObject({
      message: '--chart spnd: not a metric of insight',
      hint: expect.stringMatching(/chart one of: spend, impressions/),
    });
    await expect(prepareOutput(ctx, 'insight', { chart: 'clicks' })).resolves.toMatchObject({ chart: 'clicks', resource: 'insight' });
  });
});
