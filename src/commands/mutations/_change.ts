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
 * changeProblems as a synchronous function, the contract's validators loaded once: a large file of changes
 * checks every row twice (#37: four awaited calls and a copy of the lists a row before).
 */
export async function changeChecker(): Promise<(b: Obj) => string[]> {
  if (madeChecker) return madeChecker;
  const check = await requestChecker('createMutation', 'body');
  return (madeChecker ??= (b) => {
    const problems = check(b).map((i) => {
      const name = i.pointer === '' ? (i.shape ?? 'the change') : dotted(i.pointer);
      if (i.unknown) return `${name} is not a field of ${i.shape ? `action ${i.shape}` : 'a change'} (it takes ${i.unknown.known.join(', ')})`;
      return `${name} ${i.text}`;
    });
    addAmountProblems(b, problems);
    return problems;
  });
}

/**
 * The one checker of the process, the same function for every file and pass: a file of changes past
 * READ_ONCE_BYTES is read twice (the check pass, the send pass), and a checker made for each pass was a new
 * callee at rowFromCells' call, which V8 had compiled for the first one, so it threw that code away and compiled
 * it again (#37 session 7).
 */
let madeChecker: ((b: Obj) => string[]) | undefined;
