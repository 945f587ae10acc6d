// `plans verify --fix`: the changes that bring what runs back to the plan, from
// verify's own rows (flows/plan-verify.ts), so a fix rests only on what verify
// judged from checked answers. What a change can set: the status against the
// flight (activate inside it, pause outside it) and the budget (amount and
// type) where the entity carries it, in the plan's currency. Everything else a
// row says is listed with the reason and never proposed: a missing entity, an
// objective, a Line Item not launched, a row "not comparable" (an answer that
// broke the contract, another currency), a read the service refused.
import type { NamedChange } from '../contract/mutation-actions.js';
import { MUTATION_TARGET_TYPES } from '../contract/schemas/mutations.js';
import type { CheckedPlan, PlanLineItem } from './plan-checked.js';
import type { VerifyRow } from './plan-verify.js';
import { minorUnits, type Proposal, type ProposedChange } from './plan-proposal.js';

/** Why a row that is no plain difference is not fixed, by its field. */
const NOT_FIXABLE: Record<string, string> = {
  exists: 'the entity is missing: no change brings it back (launch it again)',
  objective: 'an objective is not something a change can set',
  executions: 'the Line Item was not launched: nothing to change',
  advertiserId: 'the Line Item names no advertiser',
  plan: 'the Line Item could not be judged',
  read: 'the entity could not be judged',
};

type Target = { lineItemId: string; type: (typeof MUTATION_TARGET_TYPES)[number]; id: string };
const targetType = (t: string | null) => MUTATION_TARGET_TYPES.find((m) => m === t);

/** The status change a status row asks for, or why none. */
function statusFix(row: VerifyRow): 'activate' | 'pause' | undefined {
  if (row.planned === 'ACTIVE' && row.live === 'PAUSED') return 'activate';
  if (row.planned === 'not ACTIVE' && row.live === 'ACTIVE') return 'pause';
  return undefined;
}

/** The set_budget change for one entity's budget and type rows: the plan's amount and type, both checked. */
function budgetFix(li: PlanLineItem, currency: string, rows: readonly VerifyRow[]): { amount: number; budgetType?: string } | string {
  if (li.budget === null) return 'the Line Item names no budget amount to set';
  if (minorUnits(li.budget, currency) === undefined) return `the planned budget ${li.budget} is not an amount ${currency} takes`;
  const typeRow = rows.some((r) => r.field === 'budgetType');
  return typeRow && li.budgetType !== null ? { amount: li.budget, budgetType: li.budgetType } : { amount: li.budget };
}

/** Every change that brings the verified entities back to the plan, and every row no change is proposed for. */
export function fixOf(plan: CheckedPlan, rows: readonly VerifyRow[]): Proposal {
  const items = new Map(plan.items.flatMap((item) => ('li' in item ? [[item.li.lineItemId, item.li] as const] : [])));
  const out: Proposal = { changes: [], notProposed: [] };
  const skip = (row: VerifyRow, reason: string) =>
    out.notProposed.push({ lineItemId: row.lineItemId, entityType: row.entityType, entityId: row.entityId, reason });
  /** Budget and budgetType rows of one entity make one change. */
  const budgets = new Map<string, { target: Target; rows: VerifyRow[] }>();
  for (const row of rows) {
    const li = row.lineItemId === null ? undefined : items.get(row.lineItemId);
    const type = targetType(row.entityType);
    if (row.note?.startsWith('not comparable') || NOT_FIXABLE[row.field] !== undefined || !li || !type || row.entityId === null) {
      skip(row, `${NOT_FIXABLE[row.field] ?? `${row.field}: not a change a mutation makes`}${row.note ? ` (${row.note})` : ''}`);
      continue;
    }
    const target: Target = { lineItemId: li.lineItemId, type, id: row.entityId };
    if (row.field === 'status') {
      const action = statusFix(row);
      if (action !== undefined) out.changes.push(change(li, target, { action }));
      else skip(row, `status ${String(row.live)}: only PAUSED is activated and ACTIVE paused`);
    } else if (row.field === 'budget' || row.field === 'budgetType') {
      const key = `${type}\u0000${row.entityId}\u0000${li.lineItemId}`;
      const had = budgets.get(key);
      if (had) had.rows.push(row);
      else budgets.set(key, { target, rows: [row] });
    } else skip(row, `${row.field}: not a change a mutation makes`);
  }
  for (const { target, rows: of } of budgets.values()) {
    const li = items.get(target.lineItemId)!;
    const fix = budgetFix(li, plan.currency, of);
    if (typeof fix === 'string') for (const row of of) skip(row, fix);
    else out.changes.push(change(li, target, { action: 'set_budget', ...fix }));
  }
  return withoutConflicts(out);
}

function change(li: PlanLineItem, t: Target, fields: Omit<NamedChange, 'advertiserId' | 'targetType' | 'targetId'>): ProposedChange {
  return { lineItemId: li.lineItemId, change: { advertiserId: li.advertiserId ?? '', targetType: t.type, targetId: t.id, ...fields } };
}

/** Two Line Items executing one entity may ask it for different things: neither is proposed, both are listed. */
function withoutConflicts(p: Proposal): Proposal {
  const key = (c: ProposedChange) =>
    `${c.change.advertiserId}\u0000${c.change.targetType}\u0000${c.change.targetId}\u0000${c.change.action === 'set_budget' ? 'budget' : 'status'}`;
  const seen = new Map<string, string>();
  for (const c of p.changes) {
    const k = key(c);
    const text = JSON.stringify(c.change);
    seen.set(k, seen.has(k) && seen.get(k) !== text ? '\u0000conflict' : text);
  }
  const kept = new Set<string>();
  const changes: ProposedChange[] = [];
  for (const c of p.changes) {
    const k = key(c);
    if (seen.get(k) === '\u0000conflict') {
      const reason = 'Line Items that executed this entity ask it for different changes: none is proposed';
      p.notProposed.push({ lineItemId: c.lineItemId, entityType: c.change.targetType ?? null, entityId: c.change.targetId ?? null, reason });
    } else if (!kept.has(k)) {
      kept.add(k);
      changes.push(c);
    }
  }
  return { changes, notProposed: p.notProposed };
}
