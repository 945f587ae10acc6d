// `plans pacing --suggest`: for each daily-budget Line Item paced outside the
// band, the daily budgets that make it spend its planned total by the end of
// its flight. Planned total: the daily budget × the flight's days; what is
// left of it (the total less the spend to date pacing counted) over the days
// left after --as-of is the day's target, split over the entities that carry
// the budget and run (ACTIVE): its executed campaigns, or, where a campaign's
// budget lives on its ad groups, those ad groups, in proportion to their
// current budgets, in the currency's minor units (largest remainder, so the
// split sums to the target rounded to one minor unit).
//
// A suggestion rests only on checked answers: the pace pacing judged, live
// rows read through the views verify reads them with (flows/plan-verify.ts),
// the stored ad groups of a campaign through adGroupParents. A Line Item not
// judged (not comparable, not started, …), with a lifetime budget, with
// nothing running, whose flight is over, whose carriers answered broken rows
// or another currency or a lifetime budget, gets no change: it is listed with
// the reason.
import { problemWords } from '../client/answer-check.js';
import type { ApiClient } from '../client/http.js';
import type { NamedChange } from '../contract/mutation-actions.js';
import { chosenItems, knownCurrency, type CheckedPlan, type PlanLineItem } from './plan-checked.js';
import type { PacingRow, PacingVerdict } from './plan-pacing.js';
import { currencyDecimals } from '../contract/currency.js';
import { minorUnits, wholeOf, type NotProposed, type Proposal } from './plan-proposal.js';
import { liveAnswerOf, readEntities, type LiveWanted } from './plan-verify.js';

type Row = Record<string, unknown>;
/** An entity that carries the Line Item's budget and runs. */
type Carrier = { type: 'campaign' | 'ad_group'; id: string; budget: number };

/**
 * Split `target` minor units over `weights` in proportion (largest remainder): the parts sum to
 * `target` exactly. Undefined when a part would be 0 (the service takes no budget of 0).
 */
export function splitMinor(target: number, weights: readonly number[]): number[] | undefined {
  const sum = weights.reduce((a, b) => a + b, 0);
  if (target <= 0 || sum <= 0 || weights.some((w) => !(w > 0))) return undefined;
  const exact = weights.map((w) => (target * w) / sum);
  const parts = exact.map(Math.floor);
  const order = exact.map((x, i) => ({ i, rest: x - Math.floor(x) })).sort((a, b) => b.rest - a.rest || a.i - b.i);
  for (let k = 0, left = target - parts.reduce((a, b) => a + b, 0); k < left; k++) parts[order[k % order.length]!.i]!++;
  return parts.some((p) => p <= 0) ? undefined : parts;
}

/** The day's target in whole units: what is left of the planned total over the days left; or why there is none. */
export function dailyTarget(row: PacingRow): { target: number; daysLeft: number } | string {
  if (row.budgetType !== 'daily') return 'a lifetime budget: pacing suggests daily budgets only';
  const { budget, spend, flightDays, daysElapsed } = row;
  if (budget === null || spend === null || flightDays === null || daysElapsed === null) return 'not judged';
  const daysLeft = flightDays - daysElapsed;
  if (daysLeft <= 0) return 'the flight is over: no day is left to spend on';
  const left = budget * flightDays - spend;
  if (left <= 0) return 'it has spent its planned total already';
  return { target: left / daysLeft, daysLeft };
}

/** A live row that carries a budget at its own level (as verify reads it): campaign or ad group, ACTIVE. */
const carries = (type: string, r: Row) => r.budgetLevel === type || (r.budgetLevel === null && r.budget !== null);

/** Ids of the stored ad groups of one campaign, each row checked; or why they cannot be told. */
async function adGroupsOf(client: ApiClient, advertiserId: string, campaignId: string, signal: AbortSignal | undefined): Promise<string[] | string> {
  const ids: string[] = [];
  const pages = client.pages('listAdGroups', { query: { advertiserId, campaignId } }, { pageSize: 500, signal, view: 'adGroupParents', rowIssues: 'report' });
  for await (const page of pages) {
    for (const [i, r] of page.rows.entries()) {
      const issues = page.rowIssues?.get(i);
      if (issues) return `the stored ad groups of campaign ${campaignId} break the contract: ${problemWords(issues).join('; ')}`;
      if (r.campaignId !== campaignId) return `the stored ad groups of campaign ${campaignId} answered one of another campaign`;
      ids.push(r.id);
    }
  }
  return ids;
}

/** The entities of one Line Item that carry its budget and run, with their current budgets; or why none can be told. */
async function carriersOf(client: ApiClient, li: PlanLineItem, currency: string, signal: AbortSignal | undefined): Promise<Carrier[] | string> {
  const advertiserId = li.advertiserId;
  if (advertiserId === null) return 'the Line Item names no advertiser';
  const first = li.executions.flatMap((e) =>
    e.entityType === 'campaign' || e.entityType === 'ad_group' ? [{ advertiserId, type: e.entityType, id: e.entityId }] : [],
  );
  const carriers: Carrier[] = [];
  let wanted: LiveWanted[] = first;
  // Two rounds at most: the executed entities, then the ad groups of a running campaign whose budget lives on them.
  for (let round = 0; wanted.length > 0 && round < 2; round++) {
    const found = await readEntities(client, wanted, signal);
    const next: LiveWanted[] = [];
    for (const w of wanted) {
      const a = liveAnswerOf(found, w);
      if (a === undefined) continue; // missing: not running
      if ('failed' in a) return `${w.type} ${w.id}: ${a.failed.code} (${a.failed.status})`;
      if ('notComparable' in a) return `${w.type} ${w.id}: ${a.notComparable}`;
      const r = a.row;
      if (r.status !== 'ACTIVE' || (w.type !== 'campaign' && w.type !== 'ad_group')) continue;
      if (!carries(w.type, r)) {
        if (w.type === 'campaign' && r.budgetLevel === 'ad_group' && round === 0) {
          const ids = await adGroupsOf(client, advertiserId, w.id, signal);
          if (typeof ids === 'string') return ids;
          next.push(...ids.map((id) => ({ advertiserId, type: 'ad_group' as const, id })));
        }
        continue;
      }
      if (!knownCurrency(r.currency) || r.currency !== currency)
        return `${w.type} ${w.id}: its budget is in ${knownCurrency(r.currency) ? r.currency : 'no known currency'}, the plan in ${currency} (never converted)`;
      if (r.budgetType !== 'daily') return `${w.type} ${w.id}: its budget is ${String(r.budgetType)}, not daily`;
      if (typeof r.budget !== 'number' || !(r.budget > 0)) return `${w.type} ${w.id}: its live budget is not an amount`;
      if (!carriers.some((c) => c.type === w.type && c.id === w.id)) carriers.push({ type: w.type, id: w.id, budget: r.budget });
    }
    wanted = next;
  }
  return carriers.length > 0 ? carriers : 'nothing running: no ACTIVE campaign or ad group carries its budget';
}

/** The suggestion for one Line Item outside the band: its changes, or why none. */
async function suggestOne(
  client: ApiClient,
  li: PlanLineItem,
  row: PacingRow,
  currency: string,
  signal: AbortSignal | undefined,
): Promise<NamedChange[] | string> {
  const day = dailyTarget(row);
  if (typeof day === 'string') return day;
  const carriers = await carriersOf(client, li, currency, signal);
  if (typeof carriers === 'string') return carriers;
  const scale = 10 ** currencyDecimals(currency);
  const weights = carriers.map((c) => minorUnits(c.budget, currency) ?? Math.round(c.budget * scale));
  const parts = splitMinor(Math.round(day.target * scale), weights);
  if (!parts) return `a daily target of ${day.target.toFixed(currencyDecimals(currency))} ${currency} is too small to split over ${carriers.length} entities`;
  return carriers.map((c, i) => ({
    advertiserId: li.advertiserId ?? '',
    action: 'set_budget',
    targetType: c.type,
    targetId: c.id,
    amount: wholeOf(parts[i]!, currency),
  }));
}

/** Every suggestion of a pacing run: rows outside the band get changes; rows not judged are listed with their note. */
export async function suggestOf(
  client: ApiClient,
  plan: CheckedPlan,
  lineItemId: string | undefined,
  result: { rows: readonly PacingRow[]; verdicts: readonly PacingVerdict[] },
  signal: AbortSignal | undefined,
): Promise<Proposal> {
  const items = chosenItems(plan, lineItemId) ?? [];
  const out: Proposal = { changes: [], notProposed: [] };
  const skip = (id: string | null, reason: string): NotProposed => ({ lineItemId: id, entityType: null, entityId: null, reason });
  for (const [i, row] of result.rows.entries()) {
    const item = items[i];
    const verdict = result.verdicts[i];
    if (row.inBand === true) continue;
    if (verdict !== 'judged' || !item || !('li' in item)) {
      out.notProposed.push(skip(row.lineItemId, `${verdict ?? 'not judged'}${row.note ? `: ${row.note}` : ''}`));
      continue;
    }
    const got = await suggestOne(client, item.li, row, plan.currency, signal);
    if (typeof got === 'string') out.notProposed.push(skip(row.lineItemId, got));
    else out.changes.push(...got.map((change) => ({ lineItemId: item.li.lineItemId, change })));
  }
  return out;
}
