// The problems of one change (a createMutation body, made from named fields by
// bodyOf in src/contract/mutation-actions.ts, or a file's JSON body) in words
// naming the body's fields (`budget.amount is required`). The check is the
// contract's own compiled schema (src/contract/request-check.ts); nothing here restates it.
import { checkRequest, dotted } from '../../contract/request-check.js';

type Obj = Record<string, unknown>;

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
