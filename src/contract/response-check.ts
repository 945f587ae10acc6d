// Checks what a flow's step reads of a success answer (its view,
// ./answer-views.ts) with the schema the sandbox publishes for it, compiled by
// the one validator engine at `npm run gen` time
// (./generated/response-validators.js, loaded here lazily, when a flow first
// acts on an answer: `--help`, the stored reads and the display commands never
// load it). A field read that is missing, of a wrong type, null where none is
// allowed, a word outside its enum or a date that is not one is an issue; what
// the step does not read is not looked at. A flow acts only on an answer
// without issues (src/client/answer-check.ts), or turns the issues of one row
// into a row of its own ("not comparable: …").
import type { AnswerViewName } from './answer-views.js';
import { issuesOf, pointerWords, validatorsLoader, type ValidationIssue } from './validation-words.js';

export type AnswerIssue = ValidationIssue;

const load = validatorsLoader(() => import('./generated/response-validators.js'));

/** The validator of a view, once loaded: answerIssues in one step, for a loop over many answers. */
export async function viewChecker(view: AnswerViewName): Promise<(body: unknown) => AnswerIssue[]> {
  const known = checkers.get(view);
  if (known) return known;
  const validate = (await load())[view];
  if (typeof validate !== 'function') throw new Error(`no compiled validator for the answer view ${view} (regenerate: npm run gen)`);
  const check = (body: unknown): AnswerIssue[] => (validate(body) ? [] : issuesOf(validate.errors ?? [], body));
  checkers.set(view, check);
  return check;
}

/** Each view's checker once made (#37: a bulk run checks one view per row; the module's promise was awaited each time). */
const checkers = new Map<AnswerViewName, (body: unknown) => AnswerIssue[]>();

/** Every way `body` breaks what the view reads of its answer; [] when the step may act on it. */
export async function answerIssues(view: AnswerViewName, body: unknown): Promise<AnswerIssue[]> {
  return (checkers.get(view) ?? (await viewChecker(view)))(body);
}

/** The issues inside each item of the array at `at` ('/data', '/lineItems'), by index; the others apart. */
export function issuesByItem(issues: readonly AnswerIssue[], at: string): { items: Map<number, AnswerIssue[]>; rest: AnswerIssue[] } {
  const items = new Map<number, AnswerIssue[]>();
  const rest: AnswerIssue[] = [];
  for (const issue of issues) {
    const m = issue.pointer.startsWith(`${at}/`) ? /^(\d+)(?=\/|$)/.exec(issue.pointer.slice(at.length + 1)) : null;
    if (!m) {
      rest.push(issue);
      continue;
    }
    const i = Number(m[1]);
    const list = items.get(i) ?? [];
    list.push({ ...issue, pointer: issue.pointer.slice(at.length + 1 + m[1]!.length) });
    items.set(i, list);
  }
  return { items, rest };
}

/** One issue for a person: `data[3].status: must be one of ACTIVE, PAUSED, DELETED, ARCHIVED`. */
export const issueText = (issue: AnswerIssue, whole = 'the answer'): string => `${pointerWords(issue.pointer, whole)}: ${issue.text}`;
