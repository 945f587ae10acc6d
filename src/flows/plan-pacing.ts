// `plans pacing`: spend against plan, per executed Line Item. Spend to date is
// the sum of the stored Insights (GET /observe/insights, by day) of the
// entities the Line Item spawned, from the flight's start to the as-of date
// (or the flight's end, if earlier). Expected spend to date: a lifetime
// budget times the elapsed share of the flight; a daily budget times the days
// elapsed. Pace is spend over expected, in percent; projected is the spend per
// elapsed day times the flight's days. Days count both ends (a flight of
// 09-01 to 09-30 has 30 days; as of 09-01, one has elapsed). Spend is compared
// with the budget only in the plan's currency: any other, or none known, and
// the row says so instead of a pace. An execution inside another of the same
// Line Item (an ad group of its executed campaign) is counted once, in its
// parent. No terminal code.
import type { ApiClient } from '../client/http.js';
import type { Plan, PlanLineItem } from './plan-verify.js';
import { chosenItems } from './plan-verify.js';
import { batches, runPool } from './pool.js';
import { CONCURRENCY, IDS_PER_READ } from './plan-check-operations.js';

export type PacingRow = {
  lineItemId: string;
  name: string;
  currency: string;
  budgetType: string | null;
  budget: number | null;
  startDate: string | null;
  endDate: string | null;
  asOf: string;
  daysElapsed: number | null;
  flightDays: number | null;
  spend: number | null;
  expected: number | null;
  pace: number | null;
  projected: number | null;
  inBand: boolean | null;
  note: string | null;
};

/** Cumulative spend and the ideal line, by day, of the Line Items in one currency (what --chart draws). */
export interface PacingSeries {
  currency: string;
  dates: string[];
  spend: number[];
  ideal: number[];
}

export interface PacingOptions {
  lineItemId?: string | undefined;
  /** The day spend is counted to (YYYY-MM-DD), inclusive. */
  asOf: string;
  /** Pace in percent inside [low, high] is on pace. */
  band: readonly [number, number];
  signal?: AbortSignal | undefined;
}

/** Execution types Insights have a level for (creatives and asset groups have none). */
const INSIGHT_LEVEL = { campaign: 'campaign', ad_group: 'ad_group', ad: 'ad' } as const;
/** The levels in the order spend is read. */
const LEVELS = ['campaign', 'ad_group', 'ad'] as const satisfies ReadonlyArray<keyof typeof INSIGHT_LEVEL>;
const DAY = 86_400_000;

const dayNumber = (date: string) => Date.parse(`${date}T00:00:00Z`) / DAY;
const dateOf = (n: number) => new Date(n * DAY).toISOString().slice(0, 10);
/** Whole money to the cent (float sums of daily spend carry noise), pace to a tenth of a percent. */
const money = (x: number) => Math.round(x * 100) / 100;

/** Days of the flight, both ends counted. */
export const flightDays = (start: string, end: string) => dayNumber(end) - dayNumber(start) + 1;
/** Days of the flight elapsed by the end of `asOf` (0 before the start, all after the end). */
export function daysElapsed(start: string, end: string, asOf: string): number {
  if (asOf < start) return 0;
  return dayNumber(asOf < end ? asOf : end) - dayNumber(start) + 1;
}

/** Expected spend by the end of the elapsed days: lifetime budget × elapsed share, daily budget × days elapsed. */
export function expectedSpend(budget: number, budgetType: string, elapsed: number, days: number): number {
  return budgetType === 'daily' ? budget * elapsed : (budget * elapsed) / days;
}

/** Spend per day (and the currencies it came in) of one Line Item's entities. */
interface Spent {
  byDay: Map<string, number>;
  currencies: Set<string | null>;
  uncounted: Set<string>;
  /** Executions inside another execution of the same Line Item (an ad group of its campaign): counted once, in their parent. */
  nested: number;
}

type Level = keyof typeof INSIGHT_LEVEL;

/** Ids in chunks a request can carry. */
const chunks = (ids: readonly string[]) => batches(ids, IDS_PER_READ);

/**
 * The executed ids of each level whose spend is not already in an executed parent's: a Line Item that
 * spawned a campaign and its ad groups spends once. Parents come from the stored reads (`ids=`), asked
 * only when the Line Item has executions at more than one level.
 */
async function countedIds(client: ApiClient, li: PlanLineItem, signal: AbortSignal | undefined): Promise<{ ids: Record<Level, string[]>; nested: number }> {
  const of = (level: Level) => [...new Set(li.executions.filter((e) => e.entityType === level).map((e) => e.entityId))];
  const ids: Record<Level, string[]> = { campaign: of('campaign'), ad_group: of('ad_group'), ad: of('ad') };
  const parents = async (op: 'listAdGroups' | 'listAds', level: 'ad_group' | 'ad') => {
    const byId = new Map<string, Record<string, unknown>>();
    for (const chunk of chunks(ids[level])) {
      const query = { ids: chunk.join(','), ...(li.advertiserId ? { advertiserId: li.advertiserId } : {}) };
      for await (const page of client.pages(op, { query }, { pageSize: chunk.length, signal })) {
        for (const r of page.rows) byId.set(String(r.id), r);
      }
    }
    return byId;
  };
  const before = ids.ad_group.length + ids.ad.length;
  const campaigns = new Set(ids.campaign);
  const adGroups = new Set(ids.ad_group);
  if (campaigns.size > 0 && ids.ad_group.length > 0) {
    const rows = await parents('listAdGroups', 'ad_group');
    ids.ad_group = ids.ad_group.filter((id) => !campaigns.has(String(rows.get(id)?.campaignId)));
  }
  if ((campaigns.size > 0 || adGroups.size > 0) && ids.ad.length > 0) {
    const rows = await parents('listAds', 'ad');
    ids.ad = ids.ad.filter((id) => !campaigns.has(String(rows.get(id)?.campaignId)) && !adGroups.has(String(rows.get(id)?.adGroupId)));
  }
  return { ids, nested: before - ids.ad_group.length - ids.ad.length };
}

async function spendOf(client: ApiClient, li: PlanLineItem, since: string, until: string, signal: AbortSignal | undefined): Promise<Spent> {
  const counted = await countedIds(client, li, signal);
  const spent: Spent = { byDay: new Map(), currencies: new Set(), uncounted: new Set(), nested: counted.nested };
  for (const e of li.executions) if (!(e.entityType in INSIGHT_LEVEL)) spent.uncounted.add(e.entityType);
  // One read after another: the Line Items are paced CONCURRENCY at a time already.
  for (const level of LEVELS) {
    for (const ids of chunks(counted.ids[level])) {
      const query = {
        since,
        until,
        level: INSIGHT_LEVEL[level],
        timeGrain: 'day' as const,
        ids: ids.join(','),
        ...(li.advertiserId ? { advertiserId: li.advertiserId } : {}),
      };
      for await (const page of client.pages('listInsights', { query }, { pageSize: 500, signal })) {
        for (const r of page.rows) {
          if (r.entityId === null || !ids.includes(r.entityId)) continue;
          spent.currencies.add(r.currency);
          if (typeof r.spend === 'number') spent.byDay.set(r.dateStart, (spent.byDay.get(r.dateStart) ?? 0) + r.spend);
        }
      }
    }
  }
  return spent;
}

/** One Line Item's row, and its daily spend when it counts towards a chart. */
async function paceOf(client: ApiClient, plan: Plan, li: PlanLineItem, opts: PacingOptions): Promise<{ row: PacingRow; byDay?: Map<string, number> }> {
  const row: PacingRow = {
    lineItemId: li.lineItemId,
    name: li.name,
    currency: plan.currency,
    budgetType: li.budgetType,
    budget: li.budget,
    startDate: li.startDate,
    endDate: li.endDate,
    asOf: opts.asOf,
    daysElapsed: null,
    flightDays: null,
    spend: null,
    expected: null,
    pace: null,
    projected: null,
    inBand: null,
    note: null,
  };
  if (li.executions.length === 0) return { row: { ...row, note: 'not launched' } };
  const { startDate: start, endDate: end } = li;
  if (start === null || end === null) return { row: { ...row, note: 'the Line Item has no flight (start and end date)' } };
  const days = flightDays(start, end);
  const elapsed = daysElapsed(start, end, opts.asOf);
  Object.assign(row, { flightDays: days, daysElapsed: elapsed });
  if (elapsed === 0) return { row: { ...row, spend: 0, expected: 0, note: 'the flight has not started' } };

  const spent = await spendOf(client, li, start, dateOf(dayNumber(start) + elapsed - 1), opts.signal);
  const total = money([...spent.byDay.values()].reduce((a, b) => a + b, 0));
  const notes: string[] = [];
  if (spent.uncounted.size) notes.push(`${[...spent.uncounted].join(', ')} executions not counted: Insights have no such level`);
  if (spent.nested) notes.push(`${spent.nested} executions inside another execution of this Line Item counted once, in it`);
  const others = [...spent.currencies].filter((c) => c !== plan.currency);
  if (others.length) {
    const said = others.map((c) => c ?? 'an unknown currency').join(', ');
    notes.push(`not comparable: spend in ${said}, the plan in ${plan.currency} (never converted)`);
    // No spend figure either: the row's currency is the plan's, and this spend is not in it.
    return { row: { ...row, note: notes.join('; ') } };
  }
  row.spend = total;
  row.projected = money((total / elapsed) * days);
  if (li.budget === null || li.budgetType === null) return { row: { ...row, note: [...notes, 'the Line Item has no budget'].join('; ') }, byDay: spent.byDay };
  const expected = expectedSpend(li.budget, li.budgetType, elapsed, days);
  row.expected = money(expected);
  row.pace = expected > 0 ? Math.round((total / expected) * 1000) / 10 : null;
  row.inBand = row.pace === null ? null : row.pace >= opts.band[0] && row.pace <= opts.band[1];
  row.note = notes.length ? notes.join('; ') : null;
  return { row, byDay: spent.byDay };
}

/** Cumulative spend and the sum of the ideal lines of the charted Line Items, day by day to the as-of date. */
function seriesOf(currency: string, items: ReadonlyArray<{ li: PlanLineItem; byDay: Map<string, number> }>, asOf: string): PacingSeries | undefined {
  if (items.length === 0) return undefined;
  const first = Math.min(...items.map(({ li }) => dayNumber(li.startDate!)));
  const last = Math.min(dayNumber(asOf), Math.max(...items.map(({ li }) => dayNumber(li.endDate!))));
  const out: PacingSeries = { currency, dates: [], spend: [], ideal: [] };
  let cumulative = 0;
  for (let d = first; d <= last; d++) {
    const date = dateOf(d);
    let ideal = 0;
    for (const { li, byDay } of items) {
      cumulative += byDay.get(date) ?? 0;
      if (li.budget !== null && li.budgetType !== null) {
        ideal += expectedSpend(li.budget, li.budgetType, daysElapsed(li.startDate!, li.endDate!, date), flightDays(li.startDate!, li.endDate!));
      }
    }
    out.dates.push(date);
    out.spend.push(money(cumulative));
    out.ideal.push(money(ideal));
  }
  return out;
}

/** Every chosen Line Item's pacing row (plan order), and the chart's series (the plan's one currency). */
export async function pacePlan(client: ApiClient, plan: Plan, opts: PacingOptions): Promise<{ rows: PacingRow[]; series: PacingSeries[] }> {
  const items = chosenItems(plan, opts.lineItemId) ?? [];
  const results = await runPool(items, CONCURRENCY, (li) => paceOf(client, plan, li, opts));
  const charted = results.flatMap((r, i) => (r.byDay ? [{ li: items[i]!, byDay: r.byDay }] : []));
  const series = seriesOf(plan.currency, charted, opts.asOf);
  return { rows: results.map((r) => r.row), series: series ? [series] : [] };
}
