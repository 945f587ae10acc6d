// What the undo tests change and compare (test/e2e/mutations-undo*.test.ts): the targets of
// test/sandbox/mutations/world.ts with the actions each provider allows on them, a change file
// of random changes, and a snapshot of every compared field of every target, read live.
import type { TestSandbox } from '../helpers/sandbox.js';
import { TEST_FULL_KEY } from '../helpers/sandbox.js';

type Action = 'pause' | 'activate' | 'rename' | 'set_budget' | 'set_bid';
export interface Target {
  advertiserId: string;
  type: 'campaign' | 'ad_group';
  id: string;
  actions: readonly Action[];
  /** The budget types a set_budget may name here (undefined: keep the current one). */
  budgetTypes: ReadonlyArray<'daily' | 'lifetime' | undefined>;
}

const STATUS = ['pause', 'activate', 'rename'] as const;
const KEEP = [undefined];
/** Budgets only where they live; bids only at provider_a (the others refuse them); a campaign's bid is its strategy alone. */
export const TARGETS: readonly Target[] = [
  { advertiserId: 'acc_a', type: 'campaign', id: '100', actions: [...STATUS, 'set_budget', 'set_bid'], budgetTypes: KEEP },
  { advertiserId: 'acc_a', type: 'campaign', id: '101', actions: STATUS, budgetTypes: KEEP },
  { advertiserId: 'acc_a', type: 'ad_group', id: '200', actions: [...STATUS, 'set_budget', 'set_bid'], budgetTypes: [undefined, 'daily', 'lifetime'] },
  { advertiserId: 'acc_b', type: 'campaign', id: '300', actions: [...STATUS, 'set_budget'], budgetTypes: KEEP },
  { advertiserId: 'acc_b', type: 'ad_group', id: '301', actions: STATUS, budgetTypes: KEEP },
  { advertiserId: 'acc_c', type: 'campaign', id: '400', actions: [...STATUS, 'set_budget'], budgetTypes: KEEP },
  { advertiserId: 'acc_c', type: 'ad_group', id: '401', actions: STATUS, budgetTypes: KEEP },
  { advertiserId: 'acc_d', type: 'campaign', id: 'camp-d', actions: [...STATUS, 'set_budget'], budgetTypes: KEEP },
  { advertiserId: 'acc_d', type: 'ad_group', id: 'grp-d', actions: STATUS, budgetTypes: KEEP },
];

export interface Change {
  target: Target;
  action: Action;
  name?: string;
  amount?: number;
  budgetType?: 'daily' | 'lifetime' | undefined;
  bidStrategy?: string;
  bidAmount?: number;
}

const cell = (v: string | number | undefined) => {
  const text = v === undefined ? '' : String(v);
  return /[",\r\n]/.test(text) ? `"${text.replace(/"/g, '""')}"` : text;
};

/** A CSV change file of these changes, in order. */
export function changeFile(changes: readonly Change[]): string {
  const lines = ['advertiserId,action,targetType,targetId,name,amount,budgetType,bidStrategy,bidAmount'];
  for (const c of changes)
    lines.push([c.target.advertiserId, c.action, c.target.type, c.target.id, c.name, c.amount, c.budgetType, c.bidStrategy, c.bidAmount].map(cell).join(','));
  return lines.join('\n') + '\n';
}

/** The fields an undo restores. */
export const FIELDS = ['status', 'name', 'budget', 'budgetType', 'bidStrategy', 'bidAmount'] as const;

/** Every target's compared fields, as a live read answers them now. */
export async function snapshot(sb: TestSandbox): Promise<Array<Record<string, unknown>>> {
  const out: Array<Record<string, unknown>> = [];
  for (const advertiserId of [...new Set(TARGETS.map((t) => t.advertiserId))]) {
    for (const level of ['campaigns', 'ad-groups']) {
      const res = await sb.req('GET', `/observe/${advertiserId}/${level}`, { key: TEST_FULL_KEY });
      if (res.status !== 200) throw new Error(`live read of ${advertiserId} ${level}: ${res.status} ${res.text}`);
      const data: Array<Record<string, unknown>> = res.body.data;
      for (const row of data) {
        out.push({ advertiserId, level, id: row.id, ...Object.fromEntries(FIELDS.map((f) => [f, row[f] ?? null])) });
      }
    }
  }
  return out;
}
