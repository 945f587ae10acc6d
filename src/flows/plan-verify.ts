// `plans verify`: a Campaign Plan against what runs at the providers. Each
// Line Item records the provider entities it spawned (its executions); each is
// read live and compared with what the Line Item says: status against the
// flight, budget and budget type where the entity carries the budget (the
// row's budgetLevel), amounts only in one currency, objective when named.
// One row per difference; none when in sync. No terminal code.
//
// Live reads count against the provider's rate limits: the entities of one
// advertiser and type are read with a list narrowed by `ids=` (a hundred ids a
// request), never one by one, at most CONCURRENCY reads at a time. A read the
// service refuses for an advertiser (501 live_read_unsupported, 409
// provider_not_connected) becomes a row carrying its code; the rest go on.
import { ApiError } from '../client/errors.js';
import type { ApiClient } from '../client/http.js';
import type { OperationOutput } from '../contract/operation-io.js';
import { CONCURRENCY, IDS_PER_READ, LIVE_LIST } from './plan-check-operations.js';
import { sameValue } from './drift.js';
import { batches, runPool } from './pool.js';

export type Plan = OperationOutput<'getCampaignPlan'>;
export type PlanLineItem = Plan['lineItems'][number];
type Execution = PlanLineItem['executions'][number];
type Row = Record<string, unknown>;

/** One difference between a Line Item and what runs. `note` says why a row is not a plain difference. */
export type VerifyRow = {
  lineItemId: string;
  entityType: string | null;
  entityId: string | null;
  field: string;
  planned: unknown;
  live: unknown;
  note: string | null;
};

/** Answers the service gives for an advertiser it cannot read live: a row, not a failure of the whole check. */
const ROW_CODES = new Set(['live_read_unsupported', 'provider_not_connected']);

/** Inside the flight: start and end dates both inclusive; a missing date leaves that side open. */
export function inFlight(li: Pick<PlanLineItem, 'startDate' | 'endDate'>, today: string): boolean {
  return (li.startDate === null || li.startDate <= today) && (li.endDate === null || today <= li.endDate);
}

export interface VerifyOptions {
  /** Only this Line Item. */
  lineItemId?: string | undefined;
  /** The day status is judged on (YYYY-MM-DD, UTC). */
  today: string;
  signal?: AbortSignal | undefined;
}

/** What one (advertiser, type) read found: rows by id, or the service's refusal. */
type Found = { rows: Map<string, Row> } | { failed: { code: string; status: number } };

const groupKey = (advertiserId: string, type: string) => `${advertiserId}\u0000${type}`;

/** Every executed entity read live, grouped by advertiser and type. */
async function readLive(client: ApiClient, items: readonly PlanLineItem[], signal: AbortSignal | undefined): Promise<Map<string, Found>> {
  const groups = new Map<string, { advertiserId: string; type: Execution['entityType']; ids: Set<string> }>();
  for (const li of items) {
    if (li.advertiserId === null) continue;
    for (const e of li.executions) {
      const key = groupKey(li.advertiserId, e.entityType);
      let g = groups.get(key);
      if (!g) groups.set(key, (g = { advertiserId: li.advertiserId, type: e.entityType, ids: new Set() }));
      g.ids.add(e.entityId);
    }
  }
  const found = new Map<string, Found>();
  const reads = [...groups.entries()].flatMap(([key, g]) => {
    const ids = [...g.ids];
    return batches(ids, IDS_PER_READ).map((batch) => ({ key, g, ids: batch }));
  });
  await runPool(reads, CONCURRENCY, async ({ key, g, ids }) => {
    if (found.get(key) && 'failed' in found.get(key)!) return;
    const rows = new Map<string, Row>();
    try {
      const pages = client.pages(
        LIVE_LIST[g.type],
        { params: { advertiserId: g.advertiserId }, query: { ids: ids.join(',') } },
        { pageSize: ids.length, signal },
      );
      for await (const page of pages) for (const r of page.rows) if (ids.includes(String(r.id))) rows.set(String(r.id), { ...r });
    } catch (err) {
      if (err instanceof ApiError && ROW_CODES.has(err.code)) {
        found.set(key, { failed: { code: err.code, status: err.status } });
        return;
      }
      throw err;
    }
    const before = found.get(key);
    if (before && 'rows' in before) for (const [id, r] of rows) before.rows.set(id, r);
    else found.set(key, { rows });
  });
  return found;
}

/** The differences between one executed entity and its Line Item. */
export function compareEntity(li: PlanLineItem, e: Execution, live: Row, planCurrency: string, today: string): VerifyRow[] {
  const out: VerifyRow[] = [];
  const row = (field: string, planned: unknown, value: unknown, note: string | null = null) =>
    out.push({ lineItemId: li.lineItemId, entityType: e.entityType, entityId: e.entityId, field, planned, live: value ?? null, note });

  // Status where the row carries one (every normalized campaign and ad group row does).
  const flying = inFlight(li, today);
  if (typeof live.status === 'string' && flying !== (live.status === 'ACTIVE')) {
    const flight = `${li.startDate ?? '…'} to ${li.endDate ?? '…'}`;
    row('status', flying ? 'ACTIVE' : 'not ACTIVE', live.status, `${today} is ${flying ? 'inside' : 'outside'} the flight ${flight}`);
  }

  // Budget only where this entity carries it: its budgetLevel names its own level
  // (a provider_b campaign that does not say, but answers a budget, carries it).
  const level = e.entityType === 'campaign' || e.entityType === 'ad_group' ? e.entityType : undefined;
  const carries = level !== undefined && (live.budgetLevel === level || (live.budgetLevel == null && live.budget != null));
  if (carries) {
    if (li.budgetType !== null && !sameValue(li.budgetType, live.budgetType)) row('budgetType', li.budgetType, live.budgetType);
    if (li.budget !== null) {
      const currency = typeof live.currency === 'string' ? live.currency : null;
      if (currency === null) {
        row('budget', li.budget, live.budget, `not comparable: the advertiser's currency is not known yet (the plan is in ${planCurrency})`);
      } else if (currency !== planCurrency) {
        row('budget', li.budget, live.budget, `not comparable: the plan is in ${planCurrency}, the advertiser in ${currency} (never converted)`);
      } else if (!sameValue(li.budget, live.budget)) {
        row('budget', li.budget, live.budget);
      }
    }
  }

  if (li.objective !== null && e.entityType === 'campaign' && !sameValue(li.objective, live.objective)) row('objective', li.objective, live.objective);
  return out;
}

/** The plan's Line Items that are checked: all, or the one asked for (undefined when the plan has none by that id). */
export function chosenItems(plan: Plan, lineItemId: string | undefined): PlanLineItem[] | undefined {
  if (lineItemId === undefined) return plan.lineItems;
  const li = plan.lineItems.find((x) => x.lineItemId === lineItemId);
  return li ? [li] : undefined;
}

/** Every difference of the plan's Line Items (in the plan's order, executions in theirs). */
export async function verifyPlan(client: ApiClient, plan: Plan, opts: VerifyOptions): Promise<VerifyRow[]> {
  const items = chosenItems(plan, opts.lineItemId) ?? [];
  const found = await readLive(client, items, opts.signal);
  const out: VerifyRow[] = [];
  for (const li of items) {
    const base = { lineItemId: li.lineItemId };
    if (li.executions.length === 0) {
      out.push({ ...base, entityType: null, entityId: null, field: 'executions', planned: 'launched', live: 'none', note: 'not launched' });
      continue;
    }
    for (const e of li.executions) {
      const at = { ...base, entityType: e.entityType, entityId: e.entityId };
      if (li.advertiserId === null) {
        out.push({ ...at, field: 'advertiserId', planned: null, live: null, note: 'the Line Item names no advertiser: cannot read it live' });
        continue;
      }
      const f = found.get(groupKey(li.advertiserId, e.entityType));
      if (!f) continue;
      if ('failed' in f) {
        out.push({ ...at, field: 'read', planned: null, live: null, note: `${f.failed.code} (${f.failed.status})` });
        continue;
      }
      const live = f.rows.get(e.entityId);
      if (!live) out.push({ ...at, field: 'exists', planned: true, live: false, note: 'missing' });
      else out.push(...compareEntity(li, e, live, plan.currency, opts.today));
    }
  }
  return out;
}
