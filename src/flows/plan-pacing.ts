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
//
// A pace rests only on answers checked against the contract (#34): the plan
// through planPaced (flows/plan-checked.ts), the stored parents through
// adGroupParents/adParents, Insights through spendByDay. A row that breaks
// what is read, or that was not asked for (another entity, level or day, a
// day repeated), is never counted: it makes its Line Item "not comparable"
// and the note says what came. Each row says how it was judged (verdicts).
import { problemWords } from '../client/answer-check.js';
import type { ApiClient } from '../client/http.js';
import type { AnswerIssue } from '../contract/response-check.js';
import { brokenNote, chosenItems, knownCurrency, type CheckedPlan, type PlanItem, type PlanLineItem } from './plan-checked.js';
import { batches, runPool } from './pool.js';
import { CONCURRENCY, IDS_PER_READ } from './plan-check-operations.js';

export type PacingRow = {
  lineItemId: string | null;
  name: string | null;
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

/**
 * How a row was judged: `judged` (it has a pace, in the band or not); `not comparable` (an answer broke the
 * contract or was not asked for, or the currencies differ or are unknown); otherwise why there is nothing to judge.
 */
export type PacingVerdict = 'judged' | 'not comparable' | 'not launched' | 'no flight' | 'not started' | 'no budget' | 'nothing expected';

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

/** Days since the epoch of a calendar date (every date here was checked as one: the plan's, Insights', --as-of). */
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

/** What came that a pace cannot rest on, counted by who answered it and what it was: any makes the Line Item not comparable. */
class Unusable {
  private readonly counts = new Map<string, { from: string; what: string; n: number }>();
  add(from: string, what: string): void {
    const key = `${from}\u0000${what}`;
    const had = this.counts.get(key);
    if (had) had.n++;
    else this.counts.set(key, { from, what, n: 1 });
  }
  get any(): boolean {
    return this.counts.size > 0;
  }
  /** `not comparable: Insights answered 2 row(s) for days not asked; … (never counted)`. */
  note(): string {
    return `not comparable: ${[...this.counts.values()].map((c) => `${c.from} ${c.n} ${c.what}`).join('; ')} (never counted)`;
  }
}

/** Rows that break what a step reads, in the words of their fields. */
const broke = (issues: readonly AnswerIssue[]) => `row(s) breaking the contract (${problemWords(issues).join('; ')})`;

/** Spend per day (and the currencies it came in) of one Line Item's entities. */
interface Spent {
  byDay: Map<string, number>;
  /** Currencies the counted rows came in (null: none known). */
  currencies: Set<string | null>;
  uncounted: Set<string>;
  /** Executions inside another execution of the same Line Item (an ad group of its campaign): counted once, in their parent. */
  nested: number;
  unusable: Unusable;
}

type Level = keyof typeof INSIGHT_LEVEL;
type Row = Record<string, unknown>;

/** Ids in chunks a request can carry. */
const chunks = (ids: readonly string[]) => batches(ids, IDS_PER_READ);

/**
 * The stored parents of the ids asked (ad groups or ads), each id's one checked row. A row that breaks the view,
 * whose id cannot be read, or a second row for one id, is unusable: whether the id sits inside an executed parent
 * could not be told.
 */
async function parentsOf(
  client: ApiClient,
  li: PlanLineItem,
  level: 'ad_group' | 'ad',
  ids: readonly string[],
  unusable: Unusable,
  signal: AbortSignal | undefined,
): Promise<Map<string, Row>> {
  const from = level === 'ad_group' ? 'the stored ad groups answered' : 'the stored ads answered';
  const byId = new Map<string, Row>();
  for (const chunk of chunks(ids)) {
    const asked = new Set(chunk);
    const query = { ids: chunk.join(','), ...(li.advertiserId ? { advertiserId: li.advertiserId } : {}) };
    const opts = { pageSize: chunk.length, signal, rowIssues: 'report' as const };
    const pages =
      level === 'ad_group'
        ? client.pages('listAdGroups', { query }, { ...opts, view: 'adGroupParents' })
        : client.pages('listAds', { query }, { ...opts, view: 'adParents' });
    for await (const page of pages) {
      for (const [i, r] of page.rows.entries()) {
        const issues = page.rowIssues?.get(i);
        const row: Row = { ...r };
        // A row of an id not asked counts for nothing.
        if (typeof row.id !== 'string') unusable.add(from, 'row(s) whose id cannot be read');
        else if (asked.has(row.id) && issues) unusable.add(from, broke(issues));
        else if (asked.has(row.id) && byId.has(row.id)) unusable.add(from, 'second row(s) for one id');
        else if (asked.has(row.id)) byId.set(row.id, row);
      }
    }
  }
  return byId;
}

/**
 * The executed ids of each level whose spend is not already in an executed parent's: a Line Item that
 * spawned a campaign and its ad groups spends once. Parents come from the stored reads (`ids=`), asked
 * only when the Line Item has executions at more than one level.
 */
async function countedIds(
  client: ApiClient,
  li: PlanLineItem,
  unusable: Unusable,
  signal: AbortSignal | undefined,
): Promise<{ ids: Record<Level, string[]>; nested: number }> {
  const of = (level: Level) => [...new Set(li.executions.filter((e) => e.entityType === level).map((e) => e.entityId))];
  const ids: Record<Level, string[]> = { campaign: of('campaign'), ad_group: of('ad_group'), ad: of('ad') };
  const before = ids.ad_group.length + ids.ad.length;
  const campaigns = new Set(ids.campaign);
  const adGroups = new Set(ids.ad_group);
  if (campaigns.size > 0 && ids.ad_group.length > 0) {
    const rows = await parentsOf(client, li, 'ad_group', ids.ad_group, unusable, signal);
    ids.ad_group = ids.ad_group.filter((id) => !campaigns.has(String(rows.get(id)?.campaignId)));
  }
  if ((campaigns.size > 0 || adGroups.size > 0) && ids.ad.length > 0) {
    const rows = await parentsOf(client, li, 'ad', ids.ad, unusable, signal);
    ids.ad = ids.ad.filter((id) => !campaigns.has(String(rows.get(id)?.campaignId)) && !adGroups.has(String(rows.get(id)?.adGroupId)));
  }
  return { ids, nested: before - ids.ad_group.length - ids.ad.length };
}

const INSIGHTS = 'Insights answered';

/** Spend by day of the counted ids, from Insights rows that were asked for and keep the contract; the rest unusable. */
async function spendOf(client: ApiClient, li: PlanLineItem, since: string, until: string, signal: AbortSignal | undefined): Promise<Spent> {
  const unusable = new Unusable();
  const counted = await countedIds(client, li, unusable, signal);
  const spent: Spent = { byDay: new Map(), currencies: new Set(), uncounted: new Set(), nested: counted.nested, unusable };
  for (const e of li.executions) if (!(e.entityType in INSIGHT_LEVEL)) spent.uncounted.add(e.entityType);
  /** Each (level, entity, day) counted: a second row for one is never added again. */
  const seen = new Set<string>();
  // One read after another: the Line Items are paced CONCURRENCY at a time already.
  for (const level of LEVELS) {
    for (const ids of chunks(counted.ids[level])) {
      const asked = new Set(ids);
      const query = {
        since,
        until,
        level: INSIGHT_LEVEL[level],
        timeGrain: 'day' as const,
        ids: ids.join(','),
        ...(li.advertiserId ? { advertiserId: li.advertiserId } : {}),
      };
      for await (const page of client.pages('listInsights', { query }, { pageSize: 500, signal, view: 'spendByDay', rowIssues: 'report' })) {
        for (const [i, r] of page.rows.entries()) {
          const issues = page.rowIssues?.get(i);
          const key = `${r.level}\u0000${String(r.entityId)}\u0000${r.dateStart}`;
          if (issues) unusable.add(INSIGHTS, broke(issues));
          else if (r.level !== INSIGHT_LEVEL[level]) unusable.add(INSIGHTS, 'row(s) at a level not asked');
          else if (r.entityId === null || !asked.has(r.entityId)) unusable.add(INSIGHTS, 'row(s) of an entity not asked');
          else if (r.dateStart !== r.dateStop || r.dateStart < since || r.dateStart > until) unusable.add(INSIGHTS, 'row(s) for days not asked');
          else if (seen.has(key)) unusable.add(INSIGHTS, 'repeated row(s) for one entity and day');
          else if (r.spend === null && knownCurrency(r.currency)) unusable.add(INSIGHTS, 'row(s) with a currency and no spend');
          else {
            seen.add(key);
            spent.currencies.add(knownCurrency(r.currency) ? r.currency : null);
            if (r.spend !== null) spent.byDay.set(r.dateStart, (spent.byDay.get(r.dateStart) ?? 0) + r.spend);
          }
        }
      }
    }
  }
  return spent;
}

interface Paced {
  row: PacingRow;
  verdict: PacingVerdict;
  /** Daily spend, when it counts towards a chart. */
  byDay?: Map<string, number>;
}

/** One Line Item's row, its verdict, and its daily spend when it counts towards a chart. */
async function paceOf(client: ApiClient, plan: CheckedPlan, item: PlanItem, opts: PacingOptions): Promise<Paced> {
  const blank = {
    currency: plan.currency,
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
  if ('broken' in item) {
    const b = item.broken;
    const row = { ...blank, lineItemId: b.lineItemId, name: b.name, budgetType: null, budget: null, startDate: null, endDate: null };
    return { row: { ...row, note: brokenNote(b) }, verdict: 'not comparable' };
  }
  const { li } = item;
  const row: PacingRow = {
    ...blank,
    lineItemId: li.lineItemId,
    name: li.name,
    budgetType: li.budgetType,
    budget: li.budget,
    startDate: li.startDate,
    endDate: li.endDate,
  };
  if (li.executions.length === 0) return { row: { ...row, note: 'not launched' }, verdict: 'not launched' };
  const { startDate: start, endDate: end } = li;
  if (start === null || end === null) return { row: { ...row, note: 'the Line Item has no flight (start and end date)' }, verdict: 'no flight' };
  const days = flightDays(start, end);
  const elapsed = daysElapsed(start, end, opts.asOf);
  Object.assign(row, { flightDays: days, daysElapsed: elapsed });
  if (elapsed === 0) return { row: { ...row, spend: 0, expected: 0, note: 'the flight has not started' }, verdict: 'not started' };
  if (!knownCurrency(plan.currency)) return { row: { ...row, note: 'not comparable: the plan names no currency' }, verdict: 'not comparable' };

  const spent = await spendOf(client, li, start, dateOf(dayNumber(start) + elapsed - 1), opts.signal);
  // Nothing that came unasked or broken is counted, and no figure stands on the rest alone.
  if (spent.unusable.any) return { row: { ...row, note: spent.unusable.note() }, verdict: 'not comparable' };
  const total = money([...spent.byDay.values()].reduce((a, b) => a + b, 0));
  const notes: string[] = [];
  if (spent.uncounted.size) notes.push(`${[...spent.uncounted].join(', ')} executions not counted: Insights have no such level`);
  if (spent.nested) notes.push(`${spent.nested} executions inside another execution of this Line Item counted once, in it`);
  const others = [...spent.currencies].filter((c) => c !== plan.currency);
  if (others.length) {
    const said = others.map((c) => c ?? 'an unknown currency').join(', ');
    notes.push(`not comparable: spend in ${said}, the plan in ${plan.currency} (never converted)`);
    // No spend figure either: the row's currency is the plan's, and this spend is not in it.
    return { row: { ...row, note: notes.join('; ') }, verdict: 'not comparable' };
  }
  if (!Number.isFinite(total))
    return { row: { ...row, note: 'not comparable: the spend answered does not sum to a finite amount' }, verdict: 'not comparable' };
  row.spend = total;
  row.projected = money((total / elapsed) * days);
  if (li.budget === null || li.budgetType === null) {
    return { row: { ...row, note: [...notes, 'the Line Item has no budget'].join('; ') }, verdict: 'no budget', byDay: spent.byDay };
  }
  const expected = expectedSpend(li.budget, li.budgetType, elapsed, days);
  row.expected = money(expected);
  row.pace = expected > 0 ? Math.round((total / expected) * 1000) / 10 : null;
  row.inBand = row.pace === null ? null : row.pace >= opts.band[0] && row.pace <= opts.band[1];
  row.note = notes.length ? notes.join('; ') : null;
  return { row, verdict: row.pace === null ? 'nothing expected' : 'judged', byDay: spent.byDay };
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

/** Every chosen Line Item's pacing row (plan order) with its verdict, and the chart's series (the plan's one currency). */
export async function pacePlan(
  client: ApiClient,
  plan: CheckedPlan,
  opts: PacingOptions,
): Promise<{ rows: PacingRow[]; verdicts: PacingVerdict[]; series: PacingSeries[] }> {
  const items = chosenItems(plan, opts.lineItemId) ?? [];
  const results = await runPool(items, CONCURRENCY, (item) => paceOf(client, plan, item, opts));
  const charted = results.flatMap((r, i) => {
    const item = items[i]!;
    return r.byDay && 'li' in item ? [{ li: item.li, byDay: r.byDay }] : [];
  });
  const series = seriesOf(plan.currency, charted, opts.asOf);
  return { rows: results.map((r) => r.row), verdicts: results.map((r) => r.verdict), series: series ? [series] : [] };
}

/** What a pacing run adds up to: the notes for stderr, and whether --exit-code finds something. */
export function pacingSummary(
  result: { rows: readonly PacingRow[]; verdicts: readonly PacingVerdict[] },
  band: readonly [number, number],
): { notes: string[]; finding: boolean } {
  const of = (v: PacingVerdict) => result.verdicts.filter((x) => x === v).length;
  const all = result.rows.length;
  const outside = result.rows.filter((r) => r.inBand === false).length;
  const notComparable = of('not comparable');
  const judged = of('judged');
  const notes: string[] = [];
  if (outside > 0) notes.push(`${outside} of ${all} Line Items outside the band ${band.join('–')} %`);
  if (notComparable > 0) notes.push(`${notComparable} of ${all} Line Items not comparable: their notes say why`);
  // "Nothing judged" never reads as "all on pace": it says why, and is a finding.
  if (judged === 0) notes.push(`no Line Item could be judged: ${[...new Set(result.verdicts)].map((v) => `${of(v)} ${v}`).join(', ') || 'the plan has none'}`);
  return { notes, finding: outside > 0 || notComparable > 0 || judged === 0 };
}
