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
//
// "In sync" rests only on rows checked against the contract (#34): both sides
// are read through their drift views (src/contract/answer-views.ts). A compared
// field a row breaks (missing, mistyped, outside its enum) is a row for that
// field whose broken side says "not comparable: …", never a value read as
// null; a row whose id or provider cannot be read, two rows of one id in one
// answer, or an id left unanswered beside a row whose id cannot be read, is a
// row of field `id` (or `provider`) saying so. Rows of ids not asked count for
// nothing.
import { problemWords } from '../client/answer-check.js';
import { operationPages } from '../client/call.js';
import type { Page } from '../client/paginate.js';
import type { Requester } from '../client/request.js';
import type { AnswerViewName } from '../contract/answer-views.js';
import { ROW_PROVIDERS } from '../contract/ids.js';
import type { OperationId } from '../contract/operations.js';
import type { AnswerIssue } from '../contract/response-check.js';
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

/**
 * `field` 'exists' marks a row present on one side only (stored/live: true or false). A side that could not be
 * compared says "not comparable: …" in its cell: under a compared field (that side's row breaks it), or under
 * `id` (two rows of one id, an id that cannot be read) or `provider` (a live row whose provider cannot be read).
 */
export type DriftRow = {
  id: string | null;
  name: string | null;
  field: DriftField | 'exists' | 'id' | 'provider';
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

type Row = Record<string, unknown>;
type Side = 'stored' | 'live';

/** A row as answered, with what it breaks of its view, by top-level field ('status': "status: missing"). */
interface Checked {
  row: Row;
  problems: ReadonlyMap<string, string>;
}

/** The stored and the live list operation of each level: its noun's observe block (src/contract/resources.ts). */
const OPERATIONS = {
  campaigns: RESOURCES.campaign.observe,
  'ad-groups': RESOURCES.adGroup.observe,
} as const satisfies { [L in DriftLevel]: { word: L; stored: OperationId; live: OperationId } };

/** What each side is checked for: every field drift compares, its id, name and provider. */
const VIEWS = {
  campaigns: { stored: 'storedCampaignsDrift', live: 'liveCampaignsDrift' },
  'ad-groups': { stored: 'storedAdGroupsDrift', live: 'liveAdGroupsDrift' },
} as const satisfies { [L in DriftLevel]: Record<Side, AnswerViewName> };

type Ops = (typeof OPERATIONS)[DriftLevel];

/** Equal as the service means it: numbers within rounding. (A missing field never gets here: each side is checked first.) */
export function sameValue(a: unknown, b: unknown): boolean {
  const x = a === undefined ? null : a;
  const y = b === undefined ? null : b;
  if (typeof x === 'number' && typeof y === 'number') return Math.abs(x - y) <= 1e-9 * Math.max(1, Math.abs(x), Math.abs(y));
  return x === y;
}

const notComparable = (words: string) => `not comparable: ${words}`;
const isNotComparable = (r: DriftRow) => [r.stored, r.live].some((v) => typeof v === 'string' && v.startsWith('not comparable: '));

/** The differences of one pair, field by field; a field either side breaks is a row saying so on that side. */
export function compareRows(
  stored: Row,
  live: Row,
  fields: readonly DriftField[],
  problems: { stored?: Checked['problems']; live?: Checked['problems'] } = {},
): DriftRow[] {
  const id = typeof live.id === 'string' ? live.id : String(stored.id);
  const name = typeof live.name === 'string' ? live.name : typeof stored.name === 'string' ? stored.name : null;
  const out: DriftRow[] = [];
  for (const f of fields) {
    const s = problems.stored?.get(f);
    const l = problems.live?.get(f);
    if (s !== undefined || l !== undefined) {
      out.push({
        id,
        name,
        field: f,
        stored: s !== undefined ? notComparable(s) : (stored[f] ?? null),
        live: l !== undefined ? notComparable(l) : (live[f] ?? null),
      });
    } else if (!sameValue(stored[f], live[f])) {
      out.push({ id, name, field: f, stored: stored[f] ?? null, live: live[f] ?? null });
    }
  }
  return out;
}

const nameOf = (r: Row) => (typeof r.name === 'string' ? r.name : null);

/** Each row of a page with its problems by field (the paginator reports them by row: rowIssues). */
function checkedRows<T extends Row>(page: Page<T>): Checked[] {
  return page.rows.map((r, i) => {
    const byField = new Map<string, AnswerIssue[]>();
    for (const issue of page.rowIssues?.get(i) ?? []) {
      const field = issue.pointer.split('/')[1] ?? '';
      byField.set(field, [...(byField.get(field) ?? []), issue]);
    }
    const row: Row = { ...r };
    return { row, problems: new Map([...byField].map(([field, issues]) => [field, problemWords(issues).join('; ')])) };
  });
}

/** The id a row is matched by, when it can be read (and the row is the advertiser's asked for: paginate.ts). */
const idOf = (c: Checked): string | undefined =>
  typeof c.row.id === 'string' && !c.problems.has('id') && !c.problems.has('advertiserId') ? c.row.id : undefined;

/** A row of one side that cannot be matched or compared as it came: `id`/`provider` row, the words on its side. */
function sideRow(side: Side, id: string | null, name: string | null, field: 'id' | 'provider', words: string): DriftRow {
  return { id, name, field, stored: side === 'stored' ? notComparable(words) : null, live: side === 'live' ? notComparable(words) : null };
}

/** The pages of one side: stored (advertiserId in the query) or live (in the path); `ids` narrows to a page's worth. */
function side(client: Requester, level: DriftLevel, which: Side, advertiserId: string, pageSize: number, signal: AbortSignal | undefined, ids?: string[]) {
  const ops: Ops = OPERATIONS[level];
  const idsQuery = ids ? { ids: ids.join(',') } : {};
  const opts = { pageSize, signal, view: VIEWS[level][which], rowIssues: 'report' as const };
  return which === 'stored'
    ? operationPages(client, ops.stored, { query: { advertiserId, ...idsQuery } }, opts)
    : operationPages(client, ops.live, { params: { advertiserId }, query: idsQuery }, opts);
}

/** What a lookup answered: the first row of each id asked and how many came for it (two are a finding), and how many ids could not be read. */
interface Found {
  byId: Map<string, { first: Checked; rows: number }>;
  unreadable: number;
}

/** Every row of a side whose id is in `ids` (a page's worth), by id; rows of other ids count for nothing. */
async function lookup(client: Requester, level: DriftLevel, which: Side, advertiserId: string, ids: string[], signal?: AbortSignal): Promise<Found> {
  const found: Found = { byId: new Map(), unreadable: 0 };
  if (ids.length === 0) return found;
  const asked = new Set(ids);
  for await (const page of side(client, level, which, advertiserId, ids.length, signal, ids)) {
    for (const c of checkedRows(page)) {
      const id = idOf(c);
      const had = id === undefined ? undefined : found.byId.get(id);
      if (id === undefined) found.unreadable++;
      else if (had) had.rows++;
      else if (asked.has(id)) found.byId.set(id, { first: c, rows: 1 });
    }
  }
  return found;
}

/** An id a lookup did not answer: absent from that side, unless a row whose id cannot be read may be it. */
function unanswered(which: Side, found: Found, id: string, name: string | null): DriftRow {
  if (found.unreadable > 0) return sideRow(which, id, name, 'id', `the ${which} read answered ${found.unreadable} row(s) whose id cannot be read`);
  return { id, name, field: 'exists', stored: which === 'live', live: which === 'stored' };
}

type Some = [Checked, ...Checked[]];

/** Rows of a page by id, in the page's order; those whose id cannot be read apart. */
function byIdOf(rows: readonly Checked[]): { groups: Map<string, Some>; unreadable: Checked[] } {
  const groups = new Map<string, Some>();
  const unreadable: Checked[] = [];
  for (const c of rows) {
    const id = idOf(c);
    const had = id === undefined ? undefined : groups.get(id);
    if (id === undefined) unreadable.push(c);
    else if (had) had.push(c);
    else groups.set(id, [c]);
  }
  return { groups, unreadable };
}

const idWords = (which: Side, c: Checked) => c.problems.get('id') ?? c.problems.get('advertiserId') ?? `the ${which} row's id cannot be read`;
const twice = (which: Side, n: number) => `the ${which} read answered ${n} rows for this id`;

/** The differences, a page at a time (a page may be empty). A failing live read (404, 409, 501, …) throws before the first page. */
export async function* drift(client: Requester, opts: DriftOptions): AsyncGenerator<DriftRow[], void, undefined> {
  const { advertiserId, level, fields, signal } = opts;
  const pageSize = opts.pageSize ?? 100;

  const unstored = new Set<string>();
  /** Ids pass 1 found not comparable: not said again by pass 2 (as many as the rows printed, not as the rows read). */
  const reported = new Set<string>();
  for await (const page of side(client, level, 'live', advertiserId, pageSize, signal)) {
    const out: DriftRow[] = [];
    const { groups, unreadable } = byIdOf(checkedRows(page));
    for (const c of unreadable) out.push(sideRow('live', null, nameOf(c.row), 'id', idWords('live', c)));
    const compared: Array<[string, Checked]> = [];
    for (const [id, [c, ...more]] of groups) {
      const provider = String(c.row.provider);
      const unreadableProvider = c.problems.get('provider');
      if (more.length > 0) {
        out.push(sideRow('live', id, nameOf(c.row), 'id', twice('live', more.length + 1)));
        reported.add(id);
      } else if (unreadableProvider !== undefined) out.push(sideRow('live', id, nameOf(c.row), 'provider', unreadableProvider));
      else if (ROW_PROVIDERS.some((p) => p === provider)) compared.push([id, c]);
      else {
        // Never stored, so never compared; but a compared field it breaks is said, not dropped with the row.
        for (const f of fields) {
          const words = c.problems.get(f);
          if (words !== undefined) out.push({ id, name: nameOf(c.row), field: f, stored: null, live: notComparable(words) });
        }
        if (!unstored.has(provider)) {
          unstored.add(provider);
          opts.onUnstored?.(provider);
        }
      }
    }
    const stored = await lookup(
      client,
      level,
      'stored',
      advertiserId,
      compared.map(([id]) => id),
      signal,
    );
    for (const [id, live] of compared) {
      const s = stored.byId.get(id);
      if (!s) out.push(unanswered('stored', stored, id, nameOf(live.row)));
      else if (s.rows > 1) {
        out.push(sideRow('stored', id, nameOf(live.row), 'id', twice('stored', s.rows)));
        reported.add(id);
      } else {
        const rows = compareRows(s.first.row, live.row, fields, { stored: s.first.problems, live: live.problems });
        if (rows.some(isNotComparable)) reported.add(id);
        out.push(...rows);
      }
    }
    yield out;
  }

  for await (const page of side(client, level, 'stored', advertiserId, pageSize, signal)) {
    const out: DriftRow[] = [];
    const { groups, unreadable } = byIdOf(checkedRows(page));
    for (const c of unreadable) out.push(sideRow('stored', null, nameOf(c.row), 'id', idWords('stored', c)));
    const live = await lookup(client, level, 'live', advertiserId, [...groups.keys()], signal);
    for (const [id, [c, ...more]] of groups) {
      const l = live.byId.get(id);
      if (l === undefined) {
        if (more.length > 0) out.push(sideRow('stored', id, nameOf(c.row), 'id', twice('stored', more.length + 1)));
        else out.push(unanswered('live', live, id, nameOf(c.row)));
        continue;
      }
      // The live side holds it, and pass 1 judged it (its stored rows looked up there, two of them a finding),
      // unless pass 1 never saw it: a lookup answering it twice, or beside a row it cannot be matched by, is
      // not a live row anyone judged (said once: pass 1 may have said it already).
      if (reported.has(id)) continue;
      if (more.length > 0) out.push(sideRow('stored', id, nameOf(c.row), 'id', twice('stored', more.length + 1)));
      else if (l.rows > 1) out.push(sideRow('live', id, nameOf(c.row), 'id', twice('live', l.rows)));
      else if (live.unreadable > 0) out.push(unanswered('live', { ...live, byId: new Map() }, id, nameOf(c.row)));
      else {
        // A field either side breaks cannot have been compared in pass 1 either: said here unless pass 1 said it.
        const broken = fields.filter((f) => c.problems.has(f) || l.first.problems.has(f));
        if (broken.length) out.push(...compareRows(c.row, l.first.row, broken, { stored: c.problems, live: l.first.problems }));
      }
    }
    yield out;
  }
}
