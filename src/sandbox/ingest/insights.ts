// Stored read of Insights (shape is ours: docs/decisions.md). Metrics
// are summed from the stored daily rows over the requested range, per period
// (day, ISO week, month, or the whole range) and per the level's entity — or,
// with `breakdown`, per provider, advertiser or entity type instead. Rows
// never mix currencies: currency is always part of the grouping, and spend is
// in whole units of it (the unit of `budget`). Newest period first; paging
// is keyset on the row's sort key, bound to the query like every cursor.
import type { InsightRow, InsightsQuery } from '../../contract/schemas/observe.js';
import { decodeCursor, encodeCursor, invalidCursor } from '../store/cursor.js';
import type { Page } from '../store/cursor.js';
import type { Scope } from '../models/scope.js';

const PERIOD_START: Record<InsightsQuery['timeGrain'], string> = {
  day: 'date',
  week: "date(date, '-6 days', 'weekday 1')",
  month: "substr(date, 1, 7) || '-01'",
  all: '@since',
};

const LEVEL_COLUMNS: Record<InsightsQuery['level'], { id: string; type: string; present: string | null }> = {
  advertiser: { id: 'advertiser_id', type: "'advertiser'", present: null },
  campaign: { id: 'campaign_id', type: "'campaign'", present: null },
  ad_group: { id: 'ad_group_id', type: 'ad_group_type', present: 'ad_group_id IS NOT NULL' },
  ad: { id: 'ad_id', type: 'ad_type', present: 'ad_id IS NOT NULL' },
};

function periodEnd(start: string, grain: InsightsQuery['timeGrain'], until: string): string {
  const d = new Date(`${start}T00:00:00Z`);
  if (grain === 'week') d.setUTCDate(d.getUTCDate() + 6);
  else if (grain === 'month') d.setUTCMonth(d.getUTCMonth() + 1, 0);
  else if (grain === 'all') return until;
  const end = d.toISOString().slice(0, 10);
  return end < until ? end : until;
}

type SortKey = [string, string, string, string, string, string];

/** One row of the grouping query below. */
interface InsightGroup {
  period: string;
  advertiserId: string | null;
  provider: InsightRow['provider'];
  entityType: string | null;
  entityId: string | null;
  currency: string | null;
  spendMicros: number | null;
  impressions: number;
  clicks: number;
  reach: number;
  conversions: number;
}
const isSortKey = (p: unknown): p is SortKey => Array.isArray(p) && p.length === 6 && p.every((x) => typeof x === 'string');
const keyOf = (r: InsightRow): SortKey => [r.dateStart, r.advertiserId ?? '', r.provider ?? '', r.entityType ?? '', r.entityId ?? '', r.currency ?? ''];

/** Newest period first, then the dimensions in ascending order. */
function compare(a: SortKey, b: SortKey): number {
  if (a[0] !== b[0]) return a[0] < b[0] ? 1 : -1;
  for (let i = 1; i < a.length; i++) if (a[i] !== b[i]) return a[i]! < b[i]! ? -1 : 1;
  return 0;
}

export function insightsPage(env: Pick<Scope, 'db' | 'secret' | 'orgId'>, query: InsightsQuery): Page<InsightRow> {
  const { orgId } = env;
  const { cursor, limit, ...filters } = query;
  const scope = 'listInsights';
  let after: SortKey | null = null;
  if (cursor !== undefined) {
    const p = decodeCursor(env.secret, scope, filters, cursor);
    if (!isSortKey(p)) throw invalidCursor();
    after = p;
  }
  const level = LEVEL_COLUMNS[filters.level];
  const b = filters.breakdown;
  // The dimensions a row keeps; the others read null.
  const keeps = {
    advertiser: b === undefined || b === 'advertiser',
    provider: b === undefined || b === 'advertiser' || b === 'provider',
    entityType: b === undefined || b === 'entity_type',
    entityId: b === undefined,
  };
  const dims = [
    keeps.advertiser ? 'advertiser_id' : 'NULL',
    keeps.provider ? 'provider' : 'NULL',
    keeps.entityType ? level.type : 'NULL',
    keeps.entityId ? level.id : 'NULL',
  ];
  const ids = filters.ids && filters.ids.length > 0 && filters.level !== 'advertiser' ? filters.ids : undefined;
  const where = [
    'org_id = @org',
    'date BETWEEN @since AND @until',
    filters.advertiserId !== undefined ? 'advertiser_id = @advertiserId' : null,
    filters.provider !== undefined ? 'provider = @provider' : null,
    level.present,
    ids ? `${level.id} IN (SELECT value FROM json_each(@ids))` : null,
  ].filter(Boolean);
  const sql = `
    SELECT ${PERIOD_START[filters.timeGrain]} AS period, ${dims[0]} AS advertiserId, ${dims[1]} AS provider,
           ${dims[2]} AS entityType, ${dims[3]} AS entityId, currency,
           SUM(spend_micros) AS spendMicros, SUM(impressions) AS impressions, SUM(clicks) AS clicks,
           SUM(reach) AS reach, SUM(conversions) AS conversions
    FROM observe_insights WHERE ${where.join(' AND ')}
    GROUP BY 1, 2, 3, 4, 5, 6`;
  const groups = env.db.prepare<[Record<string, unknown>], InsightGroup>(sql).all({
    org: orgId,
    since: filters.since,
    until: filters.until,
    advertiserId: filters.advertiserId,
    provider: filters.provider,
    ids: ids ? JSON.stringify(ids) : undefined,
  });
  const rows: InsightRow[] = groups.map((g) => {
    const dateStart = g.period < filters.since ? filters.since : g.period;
    return {
      dateStart,
      dateStop: periodEnd(g.period, filters.timeGrain, filters.until),
      level: filters.level,
      advertiserId: g.advertiserId,
      provider: g.provider,
      entityType: g.entityType,
      entityId: g.entityId,
      currency: g.currency,
      // Exact: sums of micros, divided once (provider_c micros are not rounded to the currency, like budgets).
      spend: g.spendMicros === null || g.currency === null ? null : g.spendMicros / 1_000_000,
      impressions: g.impressions,
      clicks: g.clicks,
      reach: g.reach,
      conversions: g.conversions,
    };
  });
  rows.sort((x, y) => compare(keyOf(x), keyOf(y)));
  const start = after === null ? 0 : rows.findIndex((r) => compare(keyOf(r), after) > 0);
  const remaining = start < 0 ? [] : rows.slice(start);
  const data = remaining.slice(0, limit);
  return remaining.length > limit ? { data, nextCursor: encodeCursor(env.secret, scope, filters, keyOf(data[data.length - 1]!)) } : { data };
}
