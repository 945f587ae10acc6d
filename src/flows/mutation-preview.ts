// What a change file would do, against live (`mutations apply --preview`, and the live read under
// `--undo-file` and `--skip-unchanged`): every row's target read live by the one live reader
// (src/flows/live-read.ts, batched per advertiser and type), and per row its field, the current
// and the new value, an effect, and the change that would undo it (inverseOf in
// src/contract/mutation-actions.ts: the inverse is never restated here). Sends no change.
//
// A judgement rests only on checked answers: a live row is read through the views
// liveCampaignsUndo / liveAdGroupsUndo (every field an inverse reads); a row that breaks them, a
// group the service would not read, or two rows for one id is `cannot undo` with its reason, never
// `no change`. No terminal code.
import type { ApiClient } from '../client/http.js';
import { inverseOf, type LiveRow } from '../contract/mutation-actions.js';
import { createMutationBody, type CreateMutation } from '../contract/schemas/mutations.js';
import { readLiveGroups, type LiveFound, type LiveGroup } from './live-read.js';
import { knownCurrency } from './plan-checked.js';

type Obj = Record<string, unknown>;

/** `change`; `no change`: already so; `missing`: no such target live; `cannot undo`: no inverse can be written. */
export type Effect = 'change' | 'no change' | 'missing' | 'cannot undo';

export interface RowPreview {
  line: number;
  advertiserId: string;
  target: string;
  field: string;
  current: unknown;
  new: unknown;
  effect: Effect;
  note: string | null;
  /** The change that restores the target (for the undo file); undefined when there is none. */
  inverse?: CreateMutation;
  /** The target's identity (advertiser, type, id): rows naming one target are told apart by it. */
  targetKey: string;
}

const groupKey = (advertiserId: string, type: string) => `${advertiserId}\u0000${type}`;

/** Each advertiser's campaigns and ad groups named by the rows, read through the undo views. */
async function readTargets(client: ApiClient, bodies: readonly CreateMutation[], signal?: AbortSignal): Promise<Map<string, LiveFound<LiveRow>>> {
  const groups = new Map<string, LiveGroup<LiveRow> & { ids: Set<string> }>();
  for (const { advertiserId, target } of bodies) {
    const key = groupKey(advertiserId, target.type);
    let g = groups.get(key);
    if (!g) {
      const query = (ids: readonly string[]) => ({ params: { advertiserId }, query: { ids: ids.join(',') } });
      const opts = (ids: readonly string[]) => ({ pageSize: ids.length, signal, rowIssues: 'report' as const });
      const pages =
        target.type === 'campaign'
          ? (ids: readonly string[]) => client.pages('listLiveCampaigns', query(ids), { ...opts(ids), view: 'liveCampaignsUndo' })
          : (ids: readonly string[]) => client.pages('listLiveAdGroups', query(ids), { ...opts(ids), view: 'liveAdGroupsUndo' });
      groups.set(key, (g = { key, ids: new Set(), pages }));
    }
    g.ids.add(target.id);
  }
  return readLiveGroups<LiveRow>([...groups.values()]);
}

/** How an amount is shown in a known currency (the command's: its currency's own decimals); flows hold no terminal code. */
export type MoneyText = (n: number, currency: string) => string;
/** Without a MoneyText (a run that only needs the inverses): the amount and its currency as they are. */
const plainMoney: MoneyText = (n, currency) => `${n} ${currency}`;

const shownMoney =
  (text: MoneyText) =>
  (n: number | null | undefined, currency: string | null): unknown =>
    n === null || n === undefined ? null : knownCurrency(currency) ? text(n, currency) : n;

/** The field a change sets, its value now and the one it sends, and whether they are already the same. */
function compare(b: CreateMutation, live: LiveRow, money: ReturnType<typeof shownMoney>): { field: string; current: unknown; new: unknown; same: boolean } {
  const c = live.currency;
  switch (b.action) {
    case 'pause':
    case 'activate':
    case 'delete':
    case 'archive': {
      const to = { pause: 'PAUSED', activate: 'ACTIVE', delete: 'DELETED', archive: 'ARCHIVED' }[b.action];
      return { field: 'status', current: live.status, new: to, same: live.status === to };
    }
    case 'rename':
      return { field: 'name', current: live.name, new: b.name, same: live.name === b.name };
    case 'set_budget': {
      const type = b.budget.type;
      const same = live.budget === b.budget.amount && (type === undefined || type === live.budgetType);
      const shown = (amount: unknown, t: string | null | undefined) => (t ? `${String(amount)} ${t}` : amount);
      return { field: 'budget', current: shown(money(live.budget, c), live.budgetType), new: shown(money(b.budget.amount, c), type), same };
    }
    case 'set_bid': {
      const bidAmount = 'bidAmount' in live ? live.bidAmount : null;
      const same = (b.bidStrategy === undefined || b.bidStrategy === live.bidStrategy) && (b.bidAmount === undefined || b.bidAmount === bidAmount);
      const parts = (s: string | null | undefined, a: number | null | undefined) =>
        [s ?? null, money(a, c)]
          .filter((p) => p !== null && p !== undefined)
          .map(String)
          .join(' / ') || null;
      return { field: 'bid', current: parts(live.bidStrategy, bidAmount), new: parts(b.bidStrategy, b.bidAmount), same };
    }
  }
}

/** One row judged against what the live read found for its target. */
function judge(line: number, b: CreateMutation, found: LiveFound<LiveRow> | undefined, money: ReturnType<typeof shownMoney>): RowPreview {
  const base = {
    line,
    advertiserId: b.advertiserId,
    target: `${b.target.type} ${b.target.id}`,
    targetKey: `${b.advertiserId}\u0000${b.target.type}\u0000${b.target.id}`,
  };
  const unread = (note: string): RowPreview => ({ ...base, field: b.action, current: null, new: null, effect: 'cannot undo', note });
  if (!found) return unread('the live read of this target never ran');
  if ('failed' in found) return unread(`cannot read it live: ${found.failed.code} (${found.failed.status})`);
  const answer = found.answers.get(b.target.id);
  if (!answer) return { ...base, field: b.action, current: null, new: null, effect: 'missing', note: 'no such target live' };
  if ('notComparable' in answer) return unread(answer.notComparable);
  const seen = compare(b, answer.row, money);
  const inverse = inverseOf(b, answer.row);
  const row = { ...base, field: seen.field, current: seen.current, new: seen.new };
  if (!('body' in inverse)) return { ...row, effect: 'cannot undo', note: inverse.reason };
  // A delete or an archive has no inverse (above); anything else already so sends nothing new.
  if (seen.same) return { ...row, effect: 'no change', note: 'already so', inverse: inverse.body };
  return { ...row, effect: 'change', note: null, inverse: inverse.body };
}

/** A checked row's body, typed (every row passed createMutation's schema before it got here). */
function typed(body: Obj): CreateMutation | undefined {
  const parsed = createMutationBody.safeParse(body);
  return parsed.success ? parsed.data : undefined;
}

/** Every row's preview, in row order. Reads only: no change is sent. */
export async function previewRows(
  client: ApiClient,
  rows: ReadonlyArray<{ line: number; body: Obj }>,
  opts: { signal?: AbortSignal | undefined; money?: MoneyText } = {},
): Promise<RowPreview[]> {
  const signal = opts.signal;
  const money = shownMoney(opts.money ?? plainMoney);
  const bodies = rows.map((r) => typed(r.body));
  const found = await readTargets(
    client,
    bodies.filter((b) => b !== undefined),
    signal,
  );
  return rows.map((r, i) => {
    const b = bodies[i];
    if (!b) throw new Error(`mutations apply: line ${r.line} passed its check but is not a change`);
    return judge(r.line, b, found.get(groupKey(b.advertiserId, b.target.type)), money);
  });
}
