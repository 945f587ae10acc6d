// One change (a createMutation body) from named fields: a named command's
// flags or a CSV row's columns, and its problems in words naming the body's
// fields (`budget.amount is required`). The check is the contract's own
// compiled schema (src/contract/request-check.ts); nothing here restates it.
import { checkRequest, dotted } from '../../contract/request-check.js';
import { inputsOf } from '../_shared/operation-data.js';

type Obj = Record<string, unknown>;

/** The actions createMutation takes (its body's shapes, by `action`). */
export const ACTIONS: readonly string[] = inputsOf('createMutation').body!.variants!.shapes.map((s) => String(s.value));

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

/**
 * Amounts the service refuses with 422 invalid_amount: not positive. The schema cannot say so
 * (a 400 would then answer first), so the words are the service's, checked here for whole files
 * of changes, where one bad row would otherwise be found only when sent.
 */
function amountProblems(b: Obj): string[] {
  const budget = b.budget;
  const amounts: Array<[string, unknown]> = [
    ['budget.amount', budget !== null && typeof budget === 'object' && 'amount' in budget ? budget.amount : undefined],
    ['bidAmount', b.bidAmount],
  ];
  return amounts.filter(([, v]) => typeof v === 'number' && v <= 0).map(([name]) => `${name} must be greater than 0`);
}

/**
 * Everything wrong with a change, each naming its field; [] when it can be sent. A field the
 * schema does not list is refused too: a file of changes or a named command says what it sends.
 */
export async function changeProblems(b: Obj): Promise<string[]> {
  const issues = await checkRequest('createMutation', 'body', b);
  const problems = issues.map((i) => {
    const name = i.pointer === '' ? (i.shape ?? 'the change') : dotted(i.pointer);
    if (i.unknown) return `${name} is not a field of ${i.shape ? `action ${i.shape}` : 'a change'} (it takes ${i.unknown.known.join(', ')})`;
    return `${name} ${i.text}`;
  });
  return [...problems, ...amountProblems(b)];
}
