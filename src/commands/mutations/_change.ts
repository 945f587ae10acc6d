// The problems of one change (a createMutation body, made from named fields by
// bodyOf in src/contract/mutation-actions.ts, or a file's JSON body) in words
// naming the body's fields (`budget.amount is required`). The check is the
// contract's own compiled schema (src/contract/request-check.ts); nothing here restates it.
import { dotted, requestChecker } from '../../contract/request-check.js';

type Obj = Record<string, unknown>;

/**
 * Amounts the service refuses with 422 invalid_amount: not positive. The schema cannot say so
 * (a 400 would then answer first), so the words are the service's, checked here for whole files
 * of changes, where one bad row would otherwise be found only when sent. Added to `problems`.
 */
function addAmountProblems(b: Obj, problems: string[]): void {
  const budget = b.budget;
  const amount = budget !== null && typeof budget === 'object' && 'amount' in budget ? budget.amount : undefined;
  if (typeof amount === 'number' && amount <= 0) problems.push('budget.amount must be greater than 0');
  if (typeof b.bidAmount === 'number' && b.bidAmount <= 0) problems.push('bidAmount must be greater than 0');
}

/**
 * Everything wrong with a change, each naming its field; [] when it can be sent. A field the
 * schema does not list is refused too: a file of changes or a named command says what it sends.
 */
export async function changeProblems(b: Obj): Promise<string[]> {
  return (await changeChecker())(b);
}

/**
 * changeProblems as a synchronous function, the contract's validators loaded once: a file of changes
 * checks every row twice (#37: four awaited calls and a copy of the lists a row before).
 */
export async function changeChecker(): Promise<(b: Obj) => string[]> {
  const check = await requestChecker('createMutation', 'body');
  return (b) => {
    const problems = check(b).map((i) => {
      const name = i.pointer === '' ? (i.shape ?? 'the change') : dotted(i.pointer);
      if (i.unknown) return `${name} is not a field of ${i.shape ? `action ${i.shape}` : 'a change'} (it takes ${i.unknown.known.join(', ')})`;
      return `${name} ${i.text}`;
    });
    addAmountProblems(b, problems);
    return problems;
  };
}
