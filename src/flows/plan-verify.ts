// `plans verify`: a Campaign Plan against what runs at the providers. Each
// Line Item records the provider entities it spawned (its executions); each is
// read live and compared with what the Line Item says: status against the
// flight, budget and budget type where the entity carries the budget (the
// row's budgetLevel), amounts only in one currency, objective when named.
// One row per difference; none when in sync. No terminal code.
//
// A judgement rests only on answers checked against the contract (#34): the
// plan through its view (flows/plan-checked.ts; a Line Item it breaks is one
// row "not comparable"), each live row through its type's view. A live row
// that breaks what is compared, two rows answered for one id, or an id left
// unanswered beside a row whose id cannot be read, is a row "not comparable"
// for that entity, never a comparison with a field that was not there. Rows
// of ids not asked count for nothing.
//
// Live reads count against the provider's rate limits: the entities of one
// advertiser and type are read with a list narrowed by `ids=` (a hundred ids a
// request), never one by one, at most CONCURRENCY reads at a time. A read the
// service refuses for an advertiser (501 live_read_unsupported, 409
// provider_not_connected) becomes a row carrying its code; the rest go on.
import type { ApiClient } from '../client/http.js';
import type { AnswerViewName } from '../contract/answer-views.js';
import { LIVE_LIST } from './plan-check-operations.js';
import { readLiveGroups, type LiveAnswer, type LiveFound, type LiveGroup } from './live-read.js';
import { brokenNote, chosenItems, knownCurrency, type CheckedPlan, type PlanLineItem } from './plan-checked.js';
import { sameValue } from './drift.js';

type Execution = PlanLineItem['executions'][number];
type Row = Record<string, unknown>;

/** One difference between a Line Item and what runs. `note` says why a row is not a plain difference. */
export type VerifyRow = {
  lineItemId: string | null;
  entityType: string | null;
  entityId: string | null;
  field: string;
  planned: unknown;
  live: unknown;
  note: string | null;
};

/** What each live list is checked for: the fields compare() reads of its type (src/contract/answer-views.ts). */
const LIVE_VIEW = {
  campaign: 'liveCampaignsVerified',
  ad_group: 'liveAdGroupsVerified',
  ad: 'liveAdsVerified',
  creative: 'liveCreativesVerified',
  asset_group: 'liveAssetGroupsVerified',
} as const satisfies Record<Execution['entityType'], AnswerViewName>;

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

const groupKey = (advertiserId: string, type: string) => `${advertiserId}\u0000${type}`;

/** One entity to read live. */
export type LiveWanted = { advertiserId: string; type: Execution['entityType']; id: string };

/** Every executed entity read live, grouped by advertiser and type. */
const readLive = (client: ApiClient, items: readonly PlanLineItem[], signal: AbortSignal | undefined): Promise<Map<string, LiveFound<Row>>> =>
  readEntities(
    client,
    items.flatMap(({ advertiserId, executions }) =>
      advertiserId === null ? [] : executions.map((e) => ({ advertiserId, type: e.entityType, id: e.entityId })),
    ),
    signal,
  );

/** What the live reads answered for one entity: its checked row, why it cannot be compared, the service's refusal, or nothing (missing). */
export function liveAnswerOf(found: Map<string, LiveFound<Row>>, w: LiveWanted): LiveAnswer<Row> | { failed: { code: string; status: number } } | undefined {
  const f = found.get(groupKey(w.advertiserId, w.type));
  if (!f) throw new Error(`the live read of ${w.type} never ran`);
  return 'failed' in f ? f : f.answers.get(w.id);
}

/** The entities read live (src/flows/live-read.ts) through the views verify reads them with, grouped by advertiser and type. */
export async function readEntities(client: ApiClient, wanted: readonly LiveWanted[], signal: AbortSignal | undefined): Promise<Map<string, LiveFound<Row>>> {
  const groups = new Map<string, LiveGroup<Row> & { ids: Set<string> }>();
  for (const { advertiserId, type, id } of wanted) {
    const key = groupKey(advertiserId, type);
    let g = groups.get(key);
    if (!g) {
      const pages = (ids: readonly string[]) =>
        client.pages(
          LIVE_LIST[type],
          { params: { advertiserId }, query: { ids: ids.join(',') } },
          { pageSize: ids.length, signal, view: LIVE_VIEW[type], rowIssues: 'report' },
        );
      groups.set(key, (g = { key, ids: new Set(), pages }));
    }
    g.ids.add(id);
  }
  return readLiveGroups([...groups.values()]);
}

/** The differences between one executed entity and its Line Item; `live` keeps what its type's view reads. */
export function compareEntity(li: PlanLineItem, e: Execution, live: Row, planCurrency: string, today: string): VerifyRow[] {
  const out: VerifyRow[] = [];
  const row = (field: string, planned: unknown, value: unknown, note: string | null = null) =>
    out.push({ lineItemId: li.lineItemId, entityType: e.entityType, entityId: e.entityId, field, planned, live: value ?? null, note });

  // Status: every live row carries one (its view requires it).
  const flying = inFlight(li, today);
  if (flying !== (live.status === 'ACTIVE')) {
    const flight = `${li.startDate ?? '…'} to ${li.endDate ?? '…'}`;
    row('status', flying ? 'ACTIVE' : 'not ACTIVE', live.status, `${today} is ${flying ? 'inside' : 'outside'} the flight ${flight}`);
  }

  // Budget only where this entity carries it: its budgetLevel names its own level
  // (a provider_b campaign that does not say, but answers a budget, carries it).
  const level = e.entityType === 'campaign' || e.entityType === 'ad_group' ? e.entityType : undefined;
  const carries = level !== undefined && (live.budgetLevel === level || (live.budgetLevel === null && live.budget !== null));
  if (carries) {
    if (li.budgetType !== null && !sameValue(li.budgetType, live.budgetType)) row('budgetType', li.budgetType, live.budgetType);
    if (li.budget !== null) {
      const currency = knownCurrency(live.currency) ? live.currency : null;
      if (!knownCurrency(planCurrency)) {
        row('budget', li.budget, live.budget, 'not comparable: the plan names no currency');
      } else if (currency === null) {
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

/** Every difference of the plan's Line Items (in the plan's order, executions in theirs). */
export async function verifyPlan(client: ApiClient, plan: CheckedPlan, opts: VerifyOptions): Promise<VerifyRow[]> {
  const chosen = chosenItems(plan, opts.lineItemId) ?? [];
  const checked = chosen.flatMap((item) => ('li' in item ? [item.li] : []));
  const found = await readLive(client, checked, opts.signal);
  const out: VerifyRow[] = [];
  for (const item of chosen) {
    if ('broken' in item) {
      const b = item.broken;
      out.push({ lineItemId: b.lineItemId, entityType: null, entityId: null, field: 'plan', planned: null, live: null, note: brokenNote(b) });
      continue;
    }
    const { li } = item;
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
      // Every group was read (or the read threw): a group without an answer would be silence, never "in sync".
      if (!f) throw new Error(`plans verify: the live read of ${e.entityType} for this Line Item never ran`);
      if ('failed' in f) {
        out.push({ ...at, field: 'read', planned: null, live: null, note: `${f.failed.code} (${f.failed.status})` });
        continue;
      }
      const answer = f.answers.get(e.entityId);
      if (!answer) out.push({ ...at, field: 'exists', planned: true, live: false, note: 'missing' });
      else if ('notComparable' in answer) out.push({ ...at, field: 'read', planned: null, live: null, note: answer.notComparable });
      else out.push(...compareEntity(li, e, answer.row, plan.currency, opts.today));
    }
  }
  return out;
}
