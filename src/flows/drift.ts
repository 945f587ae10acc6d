// Drift: where the stored copy of an advertiser's campaigns (or ad groups)
// differs from what the provider answers live. Memory stays flat: neither side
// is held whole. Pass 1 pages the live read and looks each page's ids up in
// the stored read (`ids=`); pass 2 pages the stored read and looks each page's
// ids up live, only to find rows the live side no longer has. At most one page
// of each side is in memory at a time. No terminal code: the command renders.
// A live row of a provider the stored copy never holds (the spec: stored rows
// carry provider_a, provider_b or provider_c only; provider_d is read live) is
// not drift: it could never be found stored. Such rows are left out, and the
// caller told once per provider.
import { operationPages } from '../client/call.js';
import type { Requester } from '../client/request.js';
import { ROW_PROVIDERS } from '../contract/ids.js';
import type { OperationId } from '../contract/operations.js';
import { RESOURCES } from '../contract/resources.js';

export const DRIFT_LEVELS = ['campaigns', 'ad-groups'] as const;
export type DriftLevel = (typeof DRIFT_LEVELS)[number];

/** The fields compared, in the order rows are reported. */
export const DRIFT_FIELDS = ['status', 'name', 'budget', 'budgetType', 'bidStrategy', 'bidAmount'] as const;
export type DriftField = (typeof DRIFT_FIELDS)[number];

/**
 * Fields the stored copy never carries at a level (spec: campaign bidStrategy
 * is null on a stored row; a campaign row has no bidAmount; ad group bidAmount
 * is null on a stored row). Comparing them would report every row as drift.
 */
export const NOT_STORED: Record<DriftLevel, readonly DriftField[]> = {
  campaigns: ['bidStrategy', 'bidAmount'],
  'ad-groups': ['bidAmount'],
};

export function comparableFields(level: DriftLevel): DriftField[] {
  return DRIFT_FIELDS.filter((f) => !NOT_STORED[level].includes(f));
}

/** `field` 'exists' marks a row present on one side only (stored/live: true or false). */
export type DriftRow = {
  id: string;
  name: string | null;
  field: DriftField | 'exists';
  stored: unknown;
  live: unknown;
};

export interface DriftOptions {
  advertiserId: string;
  level: DriftLevel;
  fields: readonly DriftField[];
  /** Rows per page on both sides (also the size of each `ids=` lookup). */
  pageSize?: number;
  signal?: AbortSignal;
  /** Told once per provider whose live rows were left out: the stored copy never holds that provider. */
  onUnstored?: (provider: string) => void;
}

/** A live row the stored copy can hold: its provider is one stored rows carry (or it names none). */
const storable = (row: Row): boolean => typeof row.provider !== 'string' || ROW_PROVIDERS.some((p) => p === row.provider);

type Row = Record<string, unknown>;

/** The stored and the live list operation of each level: its noun's observe block (src/contract/resources.ts). */
const OPERATIONS = {
  campaigns: RESOURCES.campaign.observe,
  'ad-groups': RESOURCES.adGroup.observe,
} as const satisfies { [L in DriftLevel]: { word: L; stored: OperationId; live: OperationId } };

type Ops = (typeof OPERATIONS)[DriftLevel];

/** Equal as the service means it: numbers within rounding, a missing field as null. */
export function sameValue(a: unknown, b: unknown): boolean {
  const x = a === undefined ? null : a;
  const y = b === undefined ? null : b;
  if (typeof x === 'number' && typeof y === 'number') return Math.abs(x - y) <= 1e-9 * Math.max(1, Math.abs(x), Math.abs(y));
  return x === y;
}

export function compareRows(stored: Row, live: Row, fields: readonly DriftField[]): DriftRow[] {
  const id = String(live.id ?? stored.id);
  const name = typeof live.name === 'string' ? live.name : typeof stored.name === 'string' ? stored.name : null;
  return fields.filter((f) => !sameValue(stored[f], live[f])).map((f) => ({ id, name, field: f, stored: stored[f] ?? null, live: live[f] ?? null }));
}

const idOf = (r: Row) => String(r.id);
const nameOf = (r: Row) => (typeof r.name === 'string' ? r.name : null);

/** The pages of one side: stored (advertiserId in the query) or live (in the path); `ids` narrows to a page's worth. */
function side(client: Requester, ops: Ops, which: 'stored' | 'live', advertiserId: string, pageSize: number, signal: AbortSignal | undefined, ids?: string[]) {
  const idsQuery = ids ? { ids: ids.join(',') } : {};
  const opts = { pageSize, signal };
  return which === 'stored'
    ? operationPages(client, ops.stored, { query: { advertiserId, ...idsQuery } }, opts)
    : operationPages(client, ops.live, { params: { advertiserId }, query: idsQuery }, opts);
}

/** Every row of a side whose id is in `ids` (a page's worth), by id. */
async function lookup(
  client: Requester,
  ops: Ops,
  which: 'stored' | 'live',
  advertiserId: string,
  ids: string[],
  signal?: AbortSignal,
): Promise<Map<string, Row>> {
  const found = new Map<string, Row>();
  if (ids.length === 0) return found;
  for await (const page of side(client, ops, which, advertiserId, ids.length, signal, ids)) {
    for (const r of page.rows) if (ids.includes(idOf(r))) found.set(idOf(r), r);
  }
  return found;
}

/** The differences, a page at a time (a page may be empty). A failing live read (404, 409, 501, …) throws before the first page. */
export async function* drift(client: Requester, opts: DriftOptions): AsyncGenerator<DriftRow[], void, undefined> {
  const { advertiserId, level, fields, signal } = opts;
  const pageSize = opts.pageSize ?? 100;
  const ops = OPERATIONS[level];

  const unstored = new Set<string>();
  for await (const page of side(client, ops, 'live', advertiserId, pageSize, signal)) {
    const rows = page.rows.filter((r) => {
      if (storable(r)) return true;
      const provider = String(r.provider);
      if (!unstored.has(provider)) {
        unstored.add(provider);
        opts.onUnstored?.(provider);
      }
      return false;
    });
    const stored = await lookup(client, ops, 'stored', advertiserId, rows.map(idOf), signal);
    const out: DriftRow[] = [];
    for (const live of rows) {
      const s = stored.get(idOf(live));
      if (s) out.push(...compareRows(s, live, fields));
      else out.push({ id: idOf(live), name: nameOf(live), field: 'exists', stored: false, live: true });
    }
    yield out;
  }

  for await (const page of side(client, ops, 'stored', advertiserId, pageSize, signal)) {
    const live = await lookup(client, ops, 'live', advertiserId, page.rows.map(idOf), signal);
    const out = page.rows
      .filter((s) => !live.has(idOf(s)))
      .map((s): DriftRow => ({ id: idOf(s), name: nameOf(s), field: 'exists', stored: true, live: false }));
    yield out;
  }
}
