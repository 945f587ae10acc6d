// createMutation bodies: built from the named commands' flags or a file's row,
// and checked before anything is sent. Which fields each action takes and
// requires, and each top-level field's rules, come from the contract
// (operation-inputs.json, `variants` by `action`); the nested `target` and
// `budget` objects are not described there, so their few rules are here.
import { valueProblem } from '../../cli/input-checks.js';
import { inputsOf } from '../_shared/operation-data.js';
import { asText } from '../../cli/output/sanitize.js';

type Obj = Record<string, unknown>;

// Mirrors the contract's MutationTarget and BudgetChange (src/contract/schemas/mutations.ts),
// which we do not import: that would load zod into the CLI.
export const TARGET_TYPES = ['campaign', 'ad_group'] as const;
export const BUDGET_TYPES = ['daily', 'lifetime'] as const;

const body = () => inputsOf('createMutation').body!;
export const ACTIONS: readonly string[] = body().variants!.shapes.map((s) => String(s.value));

const isObj = (v: unknown): v is Obj => v !== null && typeof v === 'object' && !Array.isArray(v);

function amountProblem(name: string, v: unknown): string | undefined {
  if (v === undefined) return `${name} is required`;
  if (typeof v !== 'number' || !Number.isFinite(v)) return `${name} must be a number`;
  if (v <= 0) return `${name} must be greater than 0`;
  return undefined;
}

function keysProblem(name: string, v: Obj, allowed: readonly string[]): string | undefined {
  const extra = Object.keys(v).filter((k) => !allowed.includes(k));
  return extra.length ? `${name} has unknown field(s) ${extra.join(', ')} (takes ${allowed.join(', ')})` : undefined;
}

/** Everything wrong with a createMutation body, in words naming the field; [] when it can be sent. */
export function bodyProblems(b: Obj): string[] {
  const io = body();
  const problems: string[] = [];
  const shape = io.variants!.shapes.find((s) => s.value === b.action);
  if (!shape) return [`action must be one of ${ACTIONS.join(', ')}${b.action === undefined ? '' : `, got "${asText(b.action)}"`}`];
  const extra = Object.keys(b).filter((k) => b[k] !== undefined && !shape.fields.includes(k));
  if (extra.length) problems.push(`${extra.join(', ')}: not a field of action ${shape.value} (it takes ${shape.fields.join(', ')})`);
  for (const name of shape.required) if (b[name] === undefined) problems.push(`${name} is required for ${shape.value}`);
  for (const f of io.fields) {
    if (b[f.name] === undefined || !shape.fields.includes(f.name)) continue;
    const p = valueProblem(f, b[f.name]);
    if (p) problems.push(`${f.name} ${p}`);
  }
  const t = b.target;
  if (isObj(t)) {
    const p = keysProblem('target', t, ['type', 'id']);
    if (p) problems.push(p);
    if (!TARGET_TYPES.includes(t.type as never)) problems.push(`target.type must be one of ${TARGET_TYPES.join(', ')}`);
    if (typeof t.id !== 'string' || t.id.length < 1 || t.id.length > 200) problems.push('target.id must be a provider id (1-200 characters)');
  }
  if (shape.value === 'set_budget' && isObj(b.budget)) {
    const p = keysProblem('budget', b.budget, ['amount', 'type']) ?? amountProblem('budget.amount', b.budget.amount);
    if (p) problems.push(p);
    if (b.budget.type !== undefined && !BUDGET_TYPES.includes(b.budget.type as never)) problems.push(`budget.type must be one of ${BUDGET_TYPES.join(', ')}`);
  }
  if (shape.value === 'set_bid') {
    // The contract's refinement: a set_bid must change something.
    if (b.bidStrategy === undefined && b.bidAmount === undefined) problems.push('set_bid needs bidStrategy or bidAmount (--strategy or --amount)');
    if (b.bidAmount !== undefined) {
      const p = amountProblem('bidAmount', b.bidAmount);
      if (p) problems.push(p);
    }
  }
  return problems;
}

export interface ChangeFields {
  advertiserId: string;
  action: string;
  targetType?: string | undefined;
  targetId?: string | undefined;
  name?: string | undefined;
  amount?: number | undefined;
  budgetType?: string | undefined;
  bidStrategy?: string | undefined;
  bidAmount?: number | undefined;
}

/** The body of one change from named fields (flags of a named command, columns of a row). */
export function bodyOf(c: ChangeFields): Obj {
  const b: Obj = { advertiserId: c.advertiserId, target: { type: c.targetType, id: c.targetId }, action: c.action };
  if (c.action === 'rename') b.name = c.name;
  if (c.action === 'set_budget') b.budget = c.budgetType === undefined ? { amount: c.amount } : { amount: c.amount, type: c.budgetType };
  if (c.action === 'set_bid') {
    if (c.bidStrategy !== undefined) b.bidStrategy = c.bidStrategy;
    const amount = c.bidAmount ?? c.amount;
    if (amount !== undefined) b.bidAmount = amount;
  }
  return b;
}
